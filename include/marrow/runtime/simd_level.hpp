#pragma once
// The instruction set the runtime's hot loops use, chosen once at run time from what the
// processor supports (x86-64: SSE2 always, AVX2+FMA, AVX-512 F/VL/DQ/BW). Every level computes
// the same results to float rounding (docs/runtime.md, "SIMD levels"); the tests run every level
// on every host and compare each with the scalar reference.
//
// Each level's kernels exist twice when the library is built with MARROW_SIMD_EMULATION (the
// default of a build with tests):
//   native    compiled for the level's own instructions; runs only where the processor has them.
//   emulated  the same kernel source compiled through SIMDe (Debian's libsimde-dev: portable
//             versions of the SSE/AVX2/AVX-512 intrinsics) with SSE2 only, so it runs on any
//             x86-64 processor. It exists so that a host without AVX-512 still runs the
//             AVX-512 kernels' logic (lanes, masks, shuffles) in its tests; it is several times
//             slower and used only when asked for. Its float results may differ from the
//             native level's in the last bits (fused multiply-adds and reciprocal square-root
//             estimates are computed another way), never by more than the documented tolerance.
#include <string>
#include <string_view>
#include <vector>

namespace marrow {

enum class SimdLevel { Sse2, Avx2, Avx512 };

// What the kernels in use are: a level, native or emulated.
struct SimdChoice {
  SimdLevel level = SimdLevel::Sse2;
  bool emulated = false;
  friend bool operator==(const SimdChoice&, const SimdChoice&) = default;
};

// The kernels in use. The environment variable MARROW_SIMD chooses them at start:
// sse2|avx2|avx512 lowers the native level (never above what the processor has);
// avx2-emulated|avx512-emulated takes that level's emulated kernels (when built; else the
// native level, clamped). Anything else (or nothing): the best native level.
SimdChoice simd_choice() noexcept;
SimdLevel simd_level() noexcept;  // simd_choice().level

// The best level this processor supports, whatever MARROW_SIMD says.
SimdLevel supported_simd_level() noexcept;

// Whether this build holds the emulated kernels (CMake option MARROW_SIMD_EMULATION).
bool simd_emulation_built() noexcept;

// Every choice that can run here: each native level the processor has, then, when built, the
// emulated AVX2 and AVX-512 kernels. The tests and fuzz targets run each of them.
std::vector<SimdChoice> runnable_simd_choices();

// Forces native kernels of a level for the rest of the process (tests and benchmarks); clamped
// to what the processor supports. Returns the level now in use. Not thread-safe against running
// jobs.
SimdLevel set_simd_level(SimdLevel level) noexcept;

// Forces a choice (tests): an emulated level when built, else the native level clamped as
// set_simd_level does. Returns the choice now in use.
SimdChoice set_simd_choice(SimdChoice choice) noexcept;

std::string_view to_string(SimdLevel level) noexcept;
// "avx512", or "avx512 (emulated through SIMDe)".
std::string to_string(SimdChoice choice);

}  // namespace marrow
