#pragma once
// The render layer's third-party library: libspng (PNG, as the linked library reports it).
#include <vector>

#include "marrow/core/dependency_version.hpp"

namespace marrow::render {

std::vector<DependencyVersion> dependency_versions();

}  // namespace marrow::render
