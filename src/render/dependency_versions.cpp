#include "marrow/render/dependency_versions.hpp"

#include <gif_lib.h>
#include <spng.h>

namespace marrow::render {

std::vector<DependencyVersion> dependency_versions() {
  return {{"libspng", spng_version_string()},
          {"giflib", std::to_string(GIFLIB_MAJOR) + "." + std::to_string(GIFLIB_MINOR) + "." + std::to_string(GIFLIB_RELEASE)}};
}

}  // namespace marrow::render
