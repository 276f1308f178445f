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

SimdChoice clamped(SimdChoice wanted) noexcept {
  // SSE2 has no emulated kernels: it is native on every x86-64 processor.
  if (wanted.emulated && simd_emulation_built() && wanted.level != SimdLevel::Sse2) return wanted;
  const SimdLevel best = supported_simd_level();
  return {static_cast<int>(wanted.level) < static_cast<int>(best) ? wanted.level : best, false};
}

SimdChoice from_environment() noexcept {
  const char* env = std::getenv("MARROW_SIMD");
  const std::string_view name = env != nullptr ? env : "";
  if (name == "sse2") return clamped({SimdLevel::Sse2, false});
  if (name == "avx2") return clamped({SimdLevel::Avx2, false});
  if (name == "avx512") return clamped({SimdLevel::Avx512, false});
  if (name == "avx2-emulated") return clamped({SimdLevel::Avx2, true});
  if (name == "avx512-emulated") return clamped({SimdLevel::Avx512, true});
  return {supported_simd_level(), false};
}

// The level in the low bits, emulated in bit 2: one atomic for both.
int encode(SimdChoice c) noexcept { return static_cast<int>(c.level) | (c.emulated ? 4 : 0); }
SimdChoice decode(int bits) noexcept { return {static_cast<SimdLevel>(bits & 3), (bits & 4) != 0}; }

std::atomic<int>& current() noexcept {
  static std::atomic<int> choice{encode(from_environment())};
  return choice;
}

}  // namespace

bool simd_emulation_built() noexcept {
#if defined(MARROW_SIMD_EMULATION)
  return true;
#else
  return false;
#endif
}

std::vector<SimdChoice> runnable_simd_choices() {
  std::vector<SimdChoice> choices;
  for (const SimdLevel level : {SimdLevel::Sse2, SimdLevel::Avx2, SimdLevel::Avx512}) {
    if (static_cast<int>(level) <= static_cast<int>(supported_simd_level())) choices.push_back({level, false});
  }
  if (simd_emulation_built()) choices.insert(choices.end(), {{SimdLevel::Avx2, true}, {SimdLevel::Avx512, true}});
  return choices;
}

SimdLevel supported_simd_level() noexcept {
  static const SimdLevel best = detect();
  return best;
}

SimdChoice simd_choice() noexcept { return decode(current().load(std::memory_order_relaxed)); }

SimdLevel simd_level() noexcept { return simd_choice().level; }

SimdChoice set_simd_choice(SimdChoice choice) noexcept {
  const SimdChoice chosen = clamped(choice);
  current().store(encode(chosen), std::memory_order_relaxed);
  return chosen;
}

SimdLevel set_simd_level(SimdLevel level) noexcept { return set_simd_choice({level, false}).level; }

std::string_view to_string(SimdLevel level) noexcept {
  switch (level) {
    case SimdLevel::Sse2: return "sse2";
    case SimdLevel::Avx2: return "avx2";
    case SimdLevel::Avx512: return "avx512";
  }
  return "sse2";
}

std::string to_string(SimdChoice choice) {
  std::string s(to_string(choice.level));
  if (choice.emulated) s += " (emulated through SIMDe)";
  return s;
}

}  // namespace marrow
