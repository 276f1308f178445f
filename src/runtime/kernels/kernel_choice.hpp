#pragma once
// Private: which compiled copy of a kernel family runs. Each family (pose, blend, skinning,
// dual-quaternion, retarget) is one source compiled once per level (*_sse2.cpp, *_avx2.cpp,
// *_avx512.cpp) and, with MARROW_SIMD_EMULATION, once more per wider level through SIMDe
// (*_avx2_emulated.cpp, *_avx512_emulated.cpp; lanes.hpp). Each copy defines its table in a
// namespace of its own: sse2, avx2, avx512, avx2_emulated, avx512_emulated.
#include <type_traits>

#include "marrow/runtime/simd_level.hpp"

namespace marrow::detail {

// The emulated tables are null in a build without them (type_identity: deduced from the others).
template <class Table>
const Table& kernel_table(SimdChoice choice, const Table& sse2, const Table& avx2, const Table& avx512,
                          std::type_identity_t<const Table>* avx2_emulated, std::type_identity_t<const Table>* avx512_emulated) noexcept {
  switch (choice.level) {
    case SimdLevel::Avx512: return choice.emulated && avx512_emulated != nullptr ? *avx512_emulated : avx512;
    case SimdLevel::Avx2: return choice.emulated && avx2_emulated != nullptr ? *avx2_emulated : avx2;
    case SimdLevel::Sse2: break;
  }
  return sse2;
}

}  // namespace marrow::detail

// The emulated copies' tables of a family, or none in a build without them.
#if defined(MARROW_SIMD_EMULATION)
#define MARROW_EMULATED_TABLES(table) &avx2_emulated::table, &avx512_emulated::table
#else
#define MARROW_EMULATED_TABLES(table) nullptr, nullptr
#endif
