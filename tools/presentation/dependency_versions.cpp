#include "presentation/dependency_versions.hpp"

#include <gif_lib.h>

#include <string>

namespace marrow::presentation {

std::vector<DependencyVersion> dependency_versions() {
  return {{"giflib", std::to_string(GIFLIB_MAJOR) + "." + std::to_string(GIFLIB_MINOR) + "." + std::to_string(GIFLIB_RELEASE)}};
}

}  // namespace marrow::presentation
