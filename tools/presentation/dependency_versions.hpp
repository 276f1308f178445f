#pragma once
// The presentation code's third-party library: giflib (GIF, from its header).
#include <vector>

#include "marrow/core/dependency_version.hpp"

namespace marrow::presentation {

std::vector<DependencyVersion> dependency_versions();

}  // namespace marrow::presentation
