#include "marrow/render/dependency_versions.hpp"

#include <spng.h>

namespace marrow::render {

std::vector<DependencyVersion> dependency_versions() {
  return {{"libspng", spng_version_string()}};
}

}  // namespace marrow::render
