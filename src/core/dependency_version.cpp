#include "marrow/core/dependency_version.hpp"

#include <glm/detail/setup.hpp>

namespace marrow {

std::vector<DependencyVersion> core_dependency_versions() {
  return {{"glm", std::to_string(GLM_VERSION_MAJOR) + "." + std::to_string(GLM_VERSION_MINOR) + "." +
                      std::to_string(GLM_VERSION_PATCH) + "." + std::to_string(GLM_VERSION_REVISION)}};
}

}  // namespace marrow
