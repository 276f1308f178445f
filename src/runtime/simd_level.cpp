#include "marrow/runtime/simd_level.hpp"

#include <atomic>
#include <cstdlib>
#include <string_view>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

namespace marrow {

namespace {

SimdLevel detect() noexcept {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  // The wider levels' kernels also use POPCNT, BMI1 and LZCNT (compressed clips' key
  // directories). LZCNT is CPUID 0x80000001 ECX bit 5 (not every compiler names it).
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  const bool lzcnt = __get_cpuid(0x80000001u, &eax, &ebx, &ecx, &edx) != 0 && (ecx & (1u << 5)) != 0;
  if (!__builtin_cpu_supports("popcnt") || !__builtin_cpu_supports("bmi") || !lzcnt) return SimdLevel::Sse2;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("fma")) {
    return SimdLevel::Avx512;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return SimdLevel::Avx2;
#endif
  return SimdLevel::Sse2;
}

SimdLevel clamp_to_supported(SimdLevel wanted) noexcept {
  const SimdLevel best = supported_simd_level();
  return static_cast<int>(wanted) < static_cast<int>(best) ? wanted : best;
}

SimdLevel from_environment() noexcept {
  const char* env = std::getenv("MARROW_SIMD");
  const std::string_view name = env != nullptr ? env : "";
  if (name == "sse2") return clamp_to_supported(SimdLevel::Sse2);
  if (name == "avx2") return clamp_to_supported(SimdLevel::Avx2);
  return supported_simd_level();
}

std::atomic<SimdLevel>& current() noexcept {
  static std::atomic<SimdLevel> level{from_environment()};
  return level;
}

}  // namespace

SimdLevel supported_simd_level() noexcept {
  static const SimdLevel best = detect();
  return best;
}

SimdLevel simd_level() noexcept { return current().load(std::memory_order_relaxed); }

SimdLevel set_simd_level(SimdLevel level) noexcept {
  const SimdLevel chosen = clamp_to_supported(level);
  current().store(chosen, std::memory_order_relaxed);
  return chosen;
}

std::string_view to_string(SimdLevel level) noexcept {
  switch (level) {
    case SimdLevel::Sse2: return "sse2";
    case SimdLevel::Avx2: return "avx2";
    case SimdLevel::Avx512: return "avx512";
  }
  return "sse2";
}

}  // namespace marrow
