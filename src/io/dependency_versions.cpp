#include "marrow/io/dependency_versions.hpp"

#include <assimp/version.h>
#include <simdjson.h>

// Two steps, so SIMDJSON_VERSION (3.0.1, a preprocessor number) is expanded before it is quoted.
#define MARROW_QUOTE(x) #x
#define MARROW_QUOTE_EXPANDED(x) MARROW_QUOTE(x)

namespace marrow {

std::vector<DependencyVersion> io_dependency_versions() {
  return {{"simdjson", MARROW_QUOTE_EXPANDED(SIMDJSON_VERSION)},
          {"Assimp", std::to_string(aiGetVersionMajor()) + "." + std::to_string(aiGetVersionMinor()) + "." +
                         std::to_string(aiGetVersionPatch())}};
}

}  // namespace marrow
