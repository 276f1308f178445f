#pragma once
// Private: the loops of the blending job (B2, B3), one table per instruction set
// (blend_kernels.inl compiled by blend_kernels_sse2/avx2/avx512.cpp). Plain pointers only: the
// job has checked every size, weight and mask before a kernel runs.
//
// A kernel call sees at most kBlendChunk layers of each kind (the job gathers them into an
// array on its stack, which cannot grow). With that many normal layers or fewer, `blend` does
// everything for a block in registers. With more, the job blends tiles of kBlendTileBlocks
// blocks in passes over the chunks, the running sums of each block in a BlendState: `totals`
// (every chunk), then `sums` (every chunk), then `finish`. Additive layers past the first
// chunk are applied in place by `additive`.
#include <cstddef>

#include "marrow/runtime/inertialization_job.hpp"
#include "marrow/runtime/local_pose.hpp"
#include "marrow/runtime/simd_level.hpp"

namespace marrow::detail {

inline constexpr std::size_t kBlendChunk = 16;
inline constexpr std::size_t kBlendTileBlocks = 8;

// Products weight * mask are clamped to this, so that no sum of them overflows.
inline constexpr float kMaxLaneWeight = 0x1p64f;

// One layer as the kernels read it.
struct BlendLayerView {
  const TrsBlock* pose;
  const float* mask;  // joint_count weights, or null (1 for every joint)
  float weight;       // > 0: the job leaves layers of weight 0 out
};

// The running sums of one block's normal blend, lane by lane, between passes.
struct alignas(32) BlendState {
  float total[kPoseLanes];      // sum of a_i
  float count[kPoseLanes];      // contributing sources (layers, the rest pose)
  float ref[4][kPoseLanes];     // the first contributing rotation (the rest pose's until one)
  float t[3][kPoseLanes];       // sum of w_i T_i, w_i = a_i / max(total, threshold)
  float s[3][kPoseLanes];       // sum of w_i S_i
  float r[4][kPoseLanes];       // sum of +-w_i q_i
};

struct BlendArgs {
  const BlendLayerView* layers;     // normal layers of this call
  std::size_t layer_count;
  const BlendLayerView* additive;   // additive layers of this call, applied in order
  std::size_t additive_count;
  const TrsBlock* rest;
  std::size_t joint_count;          // masks hold this many weights
  float threshold;
  std::size_t first_block, end_block;  // the blocks of this call
  BlendState* state;                // per block of the call (index b - first_block); passes only
  bool reset;                       // totals: start the state afresh (the first chunk)
  TrsBlock* out;
  // `blend` with unmasked normal layers: the job has computed the weights every lane shares.
  // layers[i].weight is then w_i = a_i / max(total, threshold) (exactly 1 for a source that
  // is the whole total), rest_weight the rest pose's (0: it stays out), and lone says that one
  // source alone contributes (w = 1: its values pass through).
  bool uniform;
  float rest_weight;
  bool lone;
};

struct BlendKernels {
  void (*blend)(const BlendArgs& args);     // every normal layer, then the additive ones -> out
  void (*totals)(const BlendArgs& args);    // adds the layers' a_i into the state
  void (*sums)(const BlendArgs& args);      // adds the layers' weighted values into the state
  void (*finish)(const BlendArgs& args);    // the rest pose, normalisation, additive layers -> out
  void (*additive)(const BlendArgs& args);  // applies the additive layers to out in place
  // The additive delta (B3) of `blocks` blocks of pose from reference; out may be either.
  void (*delta)(const TrsBlock* pose, const TrsBlock* reference, std::size_t blocks, TrsBlock* out);
  // AG4's frame (inertialization_job.hpp) of `count` blocks: B's pose plus the offsets x0 * p +
  // v0 * q of each block (a block that does not move, or every block when `running` is false,
  // is copied; out may be pose).
  void (*inertialize)(const TrsBlock* pose, const InertializationState::Block* blocks, std::size_t count, bool running,
                      float p, float q, TrsBlock* out);
};

const BlendKernels& blend_kernels(SimdChoice choice) noexcept;

namespace sse2 { extern const BlendKernels kBlendKernels; }
namespace avx2 { extern const BlendKernels kBlendKernels; }
namespace avx512 { extern const BlendKernels kBlendKernels; }
namespace avx2_emulated { extern const BlendKernels kBlendKernels; }
namespace avx512_emulated { extern const BlendKernels kBlendKernels; }

}  // namespace marrow::detail
