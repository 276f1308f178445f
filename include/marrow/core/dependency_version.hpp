#pragma once
// A third-party library marrow was built with and its version, as that library's own header or
// run-time call reports it (for `marrow --version` and bug reports). Each layer lists its own.
#include <string>
#include <vector>

namespace marrow {

struct DependencyVersion {
  std::string name;     // e.g. "glm"
  std::string version;  // e.g. "0.9.9.8"
};

// The core layer's: glm (from its header).
std::vector<DependencyVersion> core_dependency_versions();

}  // namespace marrow
