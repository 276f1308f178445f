#pragma once
// The render layer's third-party libraries: libspng (PNG, as the linked library reports it) and
// giflib (GIF, from its header).
#include <vector>

#include "marrow/core/dependency_version.hpp"

namespace marrow::render {

std::vector<DependencyVersion> dependency_versions();

}  // namespace marrow::render
