#pragma once
// The instruction set the runtime's hot loops use, chosen once at run time from what the
// processor supports (x86-64: SSE2 always, AVX2+FMA, AVX-512 F/VL/DQ/BW). Every level computes
// the same results to float rounding; tests run each level the machine has and compare.
#include <string_view>

namespace marrow {

enum class SimdLevel { Sse2, Avx2, Avx512 };

// The level in use. The environment variable MARROW_SIMD=sse2|avx2|avx512 lowers it (never
// above what the processor has), e.g. to compare kernels or to measure one.
SimdLevel simd_level() noexcept;

// The best level this processor supports, whatever MARROW_SIMD says.
SimdLevel supported_simd_level() noexcept;

// Forces a level for the rest of the process (tests and benchmarks); clamped to what the
// processor supports. Returns the level now in use. Not thread-safe against running jobs.
SimdLevel set_simd_level(SimdLevel level) noexcept;

std::string_view to_string(SimdLevel level) noexcept;

}  // namespace marrow
