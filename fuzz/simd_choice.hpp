#pragma once
// Shared by the fuzz targets that reach the SIMD kernels: each input runs on one kernel copy,
// chosen from the input's size among every copy that can run here (each native level the
// processor has, then the emulated AVX2 and AVX-512 copies: simd_level.hpp). Across a corpus
// every copy is fuzzed, a run costs one pass, and an input always replays on the same copy.
#include <cstddef>
#include <vector>

#include "marrow/runtime/simd_level.hpp"

namespace marrow::fuzz {

inline void use_simd_choice_of(std::size_t size) {
  static const std::vector<SimdChoice> choices = runnable_simd_choices();
  set_simd_choice(choices[size % choices.size()]);
}

}  // namespace marrow::fuzz
