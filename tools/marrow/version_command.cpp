// `marrow version` / `marrow --version`: what to put in a bug report: marrow's version and build
// type, the SIMD level its kernels chose on this processor, and each library's version as that
// library reports it.
#include <cstdio>

#include "commands.hpp"
#include "marrow/io/dependency_versions.hpp"
#include "marrow/render/dependency_versions.hpp"
#include "presentation/dependency_versions.hpp"
#include "marrow/runtime/simd_level.hpp"
#include "marrow/version.hpp"
#include "options.hpp"

namespace marrow::cli {

int run_version(const Args& args) {
  if (!args.empty()) throw UsageError("version takes no arguments");
  std::printf("marrow %s (%s build)\n", kVersion, MARROW_BUILD_TYPE[0] != '\0' ? MARROW_BUILD_TYPE : "default");
  const SimdChoice choice = simd_choice();
  std::printf("SIMD level: %s", to_string(choice).c_str());
  if (choice.level != supported_simd_level() || choice.emulated) {
    std::printf(" (the processor has %.*s; chosen by MARROW_SIMD)", static_cast<int>(to_string(supported_simd_level()).size()),
                to_string(supported_simd_level()).data());
  }
  std::printf("\nlibraries:\n");
  for (const auto& list : {core_dependency_versions(), io_dependency_versions(), render::dependency_versions(),
                           presentation::dependency_versions()}) {
    for (const DependencyVersion& d : list) std::printf("  %-10s %s\n", d.name.c_str(), d.version.c_str());
  }
  return 0;
}

}  // namespace marrow::cli
