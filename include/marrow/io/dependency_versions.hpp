#pragma once
// The io layer's third-party libraries: simdjson (glTF JSON, from its header) and Assimp (every
// other format, as the linked library reports it).
#include <vector>

#include "marrow/core/dependency_version.hpp"

namespace marrow {

std::vector<DependencyVersion> io_dependency_versions();

}  // namespace marrow
