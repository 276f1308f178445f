#include "marrow/runtime/blending_job.hpp"

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <limits>

#include "kernels/blend_kernels.hpp"

namespace marrow {

namespace {

using detail::kBlendChunk;

bool valid_weight(float w) noexcept { return w >= 0.f && w <= FLT_MAX; }  // false for NaN and Inf

// Branch-free (vectorises): masks are scanned on every run.
bool valid_mask(std::span<const float> mask) noexcept {
  unsigned bad = 0;
  for (float v : mask) bad |= static_cast<unsigned>(!(v >= 0.f)) | static_cast<unsigned>(v > FLT_MAX);
  return bad == 0;
}

JobStatus check_layers(std::span<const BlendingLayer> layers, const char* field, std::size_t joints) noexcept {
  const std::size_t blocks = pose_block_count(joints);
  for (const BlendingLayer& layer : layers) {
    if (layer.pose.size() < blocks) return job_error(field, "has a pose with fewer blocks than pose_block_count(joint_count)");
    if (!valid_weight(layer.weight)) return job_error(field, "has a weight that is negative or not finite");
    if (!layer.joint_weights.empty() && layer.joint_weights.size() != joints) {
      return job_error(field, "has a mask whose size is not joint_count");
    }
    if (!valid_mask(layer.joint_weights)) return job_error(field, "has a mask value that is negative or not finite");
  }
  return kJobOk;
}

// [a, a + a_bytes) and [b, b + b_bytes) share a byte.
bool overlaps(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) noexcept {
  const auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
  return a_bytes != 0 && b_bytes != 0 && x < y + b_bytes && y < x + a_bytes;
}

// Views of the next layers of non-zero weight from layers[next] on, at most kBlendChunk; next
// moves past them and past any zero-weight layers that follow (so next == size when none is
// left). Layers of weight 0 contribute nothing, so the kernels never see them.
std::size_t gather(std::span<const BlendingLayer> layers, std::size_t& next, detail::BlendLayerView* views) noexcept {
  std::size_t count = 0;
  for (; next < layers.size() && count < kBlendChunk; ++next) {
    const BlendingLayer& layer = layers[next];
    if (layer.weight == 0.f) continue;
    views[count++] = {layer.pose.data(), layer.joint_weights.empty() ? nullptr : layer.joint_weights.data(), layer.weight};
  }
  while (next < layers.size() && layers[next].weight == 0.f) ++next;
  return count;
}

// Unmasked layers weigh every joint alike: their normalised weights (blend_kernels.hpp) are
// computed once here, with the very operations the kernels apply per lane otherwise, so both
// routes give the same bits.
void set_uniform_weights(detail::BlendArgs& args, detail::BlendLayerView* views) noexcept {
  float total = 0.f;
  for (std::size_t i = 0; i < args.layer_count; ++i) {
    views[i].weight = std::min(views[i].weight, detail::kMaxLaneWeight);
    total += views[i].weight;
  }
  const float sum = std::max(total, args.threshold), inv_sum = 1.f / sum;
  const auto normalised = [sum, inv_sum](float a) { return a == sum ? 1.f : a * inv_sum; };
  for (std::size_t i = 0; i < args.layer_count; ++i) views[i].weight = normalised(views[i].weight);
  const float fill = std::max(args.threshold - total, 0.f);
  args.rest_weight = fill > 0.f ? normalised(fill) : 0.f;
  args.lone = args.layer_count + (fill > 0.f ? 1u : 0u) == 1;
}

}  // namespace

JobStatus BlendingJob::validate() const noexcept {
  // Also keeps pose_block_count and the byte sizes below from overflowing.
  if (joint_count > std::numeric_limits<std::size_t>::max() / sizeof(TrsBlock)) {
    return job_error("joint_count", "is larger than any pose can hold");
  }
  const std::size_t blocks = pose_block_count(joint_count);
  if (output.size() < blocks) return job_error("output", "has fewer blocks than pose_block_count(joint_count)");
  if (rest_pose.size() < blocks) return job_error("rest_pose", "has fewer blocks than pose_block_count(joint_count)");
  if (!(threshold > 0.f && threshold <= FLT_MAX)) return job_error("threshold", "is not finite and greater than 0");
  if (const JobStatus s = check_layers(layers, "layers", joint_count); !s) return s;
  if (const JobStatus s = check_layers(additive_layers, "additive_layers", joint_count); !s) return s;
  // Only what is read and written counts: the first `blocks` blocks, the masks' joint_count floats.
  const std::size_t pose_bytes = blocks * sizeof(TrsBlock);
  const auto overlaps_output = [&](const void* p, std::size_t bytes) { return overlaps(output.data(), pose_bytes, p, bytes); };
  bool overlap = overlaps_output(rest_pose.data(), pose_bytes);
  for (const auto kind : {layers, additive_layers}) {
    for (const BlendingLayer& layer : kind) {
      overlap |= overlaps_output(layer.pose.data(), pose_bytes);
      overlap |= overlaps_output(layer.joint_weights.data(), layer.joint_weights.size_bytes());
    }
  }
  if (overlap) return job_error("output", "overlaps an input (a layer's pose or mask, or the rest pose)");
  return kJobOk;
}

bool BlendingJob::run() const noexcept {
  if (!validate()) return false;
  const std::size_t blocks = pose_block_count(joint_count);
  if (blocks == 0) return true;
  const detail::BlendKernels& kernels = detail::blend_kernels(simd_choice());
  detail::BlendLayerView normal[kBlendChunk], additive[kBlendChunk];
  detail::BlendArgs args{};
  args.layers = normal;
  args.additive = additive;
  args.rest = rest_pose.data();
  args.joint_count = joint_count;
  args.threshold = threshold;
  args.out = output.data();
  std::size_t next_additive = 0, next = 0;
  args.additive_count = gather(additive_layers, next_additive, additive);
  args.layer_count = gather(layers, next, normal);
  if (next == layers.size()) {
    // Every layer in one call (any realistic blend): each block stays in registers throughout.
    args.uniform = std::none_of(normal, normal + args.layer_count, [](const auto& v) { return v.mask != nullptr; });
    if (args.uniform) set_uniform_weights(args, normal);
    args.first_block = 0;
    args.end_block = blocks;
    kernels.blend(args);
  } else {
    // More layers than one call takes: tiles of blocks, their running sums on the stack.
    detail::BlendState state[detail::kBlendTileBlocks];
    args.state = state;
    for (std::size_t tile = 0; tile < blocks; tile += detail::kBlendTileBlocks) {
      args.first_block = tile;
      args.end_block = std::min(blocks, tile + detail::kBlendTileBlocks);
      args.reset = true;
      for (std::size_t i = 0; i < layers.size(); args.reset = false) {
        args.layer_count = gather(layers, i, normal);
        kernels.totals(args);
      }
      for (std::size_t i = 0; i < layers.size();) {
        args.layer_count = gather(layers, i, normal);
        kernels.sums(args);
      }
      kernels.finish(args);  // and the first chunk of additive layers
    }
  }
  args.first_block = 0;
  args.end_block = blocks;
  while (next_additive < additive_layers.size()) {
    args.additive_count = gather(additive_layers, next_additive, additive);
    kernels.additive(args);
  }
  // The padding lanes of the last block computed whatever the inputs' padding held: make
  // them a finite identity.
  TrsBlock& last = output[blocks - 1];
  for (std::size_t l = joint_count - (blocks - 1) * kPoseLanes; l < kPoseLanes; ++l) {
    for (int c = 0; c < 3; ++c) last.t[c][l] = 0.f, last.s[c][l] = 1.f;
    for (int c = 0; c < 3; ++c) last.q[c][l] = 0.f;
    last.q[3][l] = 1.f;
  }
  return true;
}

}  // namespace marrow
