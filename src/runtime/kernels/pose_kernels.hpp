#pragma once
// Private: the hot loops of the sampling, local-to-model and skin-palette jobs, one table per
// instruction set (pose_kernels.inl compiled by pose_kernels_sse2/avx2/avx512.cpp and the emulated copies: kernel_choice.hpp). Raw
// pointers only: matrices are 16 floats, column-major (glm's layout).
#include <cstddef>
#include <cstdint>

#include "marrow/runtime/local_pose.hpp"
#include "marrow/runtime/runtime_clip.hpp"
#include "marrow/runtime/simd_level.hpp"

#include "runtime/bracket.hpp"
#include "runtime/compressed_storage.hpp"

namespace marrow::detail {

struct ComposeArgs {
  const int* parents;           // per joint, < own index; negative = root
  const TrsBlock* pose;         // local T/R/S, or null when local_matrices is given
  const float* local_matrices;  // 16 floats per joint, or null
  const std::uint32_t* sources;  // per joint: a row of source_matrices, or kLocalMatrix (its local_matrices row); or null
  const float* source_matrices;  // 16 floats per row
  const float* root_prefix;     // 16 floats per joint, or null (identity)
  const float* root;            // 16 floats, or null (identity)
  float* models;                // 16 floats per joint; joints before `from` are read, not written
  std::size_t from, to;         // compose joints [from, to)
};

struct PaletteArgs {
  const float* models;          // 16 floats per joint
  const float* inverse_binds;   // 16 floats per palette entry
  const int* joints;            // palette entry i uses models[joints[i]]; null: models[i]
  const float* root;            // 16 floats, or null (identity)
  float* palette;               // 16 floats per entry
  float* skin_models;           // 16 floats per entry (root * models[joint]), or null
  std::size_t count;
};

struct CompressedArgs {
  const CompressedStorage* clip;
  std::int64_t t;
  std::uint32_t tau;   // the last time index whose time is <= t (0 when none is)
  bool before;         // t precedes every time of the clip: each channel holds its first key
  TrsBlock* out;       // clip->blocks.size() blocks
  bool exact_slerp;
  CachedKeys* cache;   // clip->blocks.size() blocks kept from the last run, or null: decode every key
};

struct PoseKernels {
  // p: eight blend factors per block.
  void (*interpolate)(const BracketBlock* brackets, const float* p, std::size_t blocks, TrsBlock* out, bool exact_slerp);
  // The same with lane l of block b bracketed by records keys[8b + l] and keys[8b + l] + 1.
  void (*sample)(const KeyRecord* const* keys, const float* p, std::size_t blocks, TrsBlock* out, bool exact_slerp);
  // A compressed clip at one time (compressed_sampling.inl); a pose's (CompressedStorage::pose).
  void (*sample_compressed)(const CompressedArgs& args);
  void (*sample_pose)(const CompressedArgs& args);
  void (*compose)(const ComposeArgs& args);
  void (*palette)(const PaletteArgs& args);
  // Joint j's local matrix to out + 16 j and, where scene is not null and scene[j] >= 0, also to
  // scene_out + 16 scene[j]; with out null, only there.
  void (*to_matrices)(const TrsBlock* pose, std::size_t joints, float* out, const int* scene, float* scene_out);
  // The scans each run() of the local-to-model and skin-palette jobs makes before it writes
  // (job validation at every level's vector width). late_parent: some parents[i] >= i for i in
  // [from, to) (to below 2^31). beyond: some index, as unsigned, >= limit, an index equal to skip
  // excepted; `skipped` tells whether any was.
  bool (*late_parent)(const int* parents, std::size_t from, std::size_t to);
  bool (*beyond)(const std::uint32_t* indices, std::size_t n, std::uint32_t limit, std::uint32_t skip, bool* skipped);
};

const PoseKernels& pose_kernels(SimdChoice choice) noexcept;

namespace sse2 { extern const PoseKernels kPoseKernels; }
namespace avx2 { extern const PoseKernels kPoseKernels; }
namespace avx512 { extern const PoseKernels kPoseKernels; }
namespace avx2_emulated { extern const PoseKernels kPoseKernels; }
namespace avx512_emulated { extern const PoseKernels kPoseKernels; }

}  // namespace marrow::detail
