#include "marrow/runtime/sampling_job.hpp"

#include "bracket.hpp"
#include "key_search.hpp"
#include "pose_kernels.hpp"

namespace marrow {

void SamplingContext::resize(std::size_t max_joints) {
  blocks_.assign(pose_block_count(max_joints), detail::empty_bracket_block());
  max_joints_ = max_joints;
  clip_id_ = 0;
}

std::size_t SamplingContext::size_in_bytes() const noexcept {
  return sizeof(*this) + blocks_.capacity() * sizeof(detail::BracketBlock);
}

JobStatus SamplingJob::validate() const noexcept {
  if (clip == nullptr) return job_error("clip", "is null");
  if (context == nullptr) return job_error("context", "is null");
  if (context->max_joints() < clip->joint_count()) return job_error("context", "has room for fewer joints than the clip");
  if (output.size() < pose_block_count(clip->joint_count())) {
    return job_error("output", "has fewer blocks than pose_block_count(clip joints)");
  }
  return kJobOk;
}

namespace {

// Joint j's bracket for time t, from the clip (rare while playing: once per key interval).
void refresh(detail::BracketBlock& block, std::size_t lane, std::size_t j, const RuntimeClip& clip, Ticks t) noexcept {
  Ticks& begin = block.begin[lane];
  Ticks& end = block.end[lane];
  float& inv_span = block.inv_span[lane];
  std::uint32_t& key = block.key[lane];
  const std::uint32_t first = clip.key_offsets()[j];
  const std::size_t count = clip.key_offsets()[j + 1] - first;
  const Ticks* times = clip.key_times().data() + first;
  const KeyValues* values = clip.key_values().data() + first;
  const std::size_t k = detail::find_key_index(count, [times](std::size_t i) { return times[i]; }, t, key);
  key = static_cast<std::uint32_t>(k);
  const KeyValues* b = &values[k];
  if (t < times[k]) {  // before the first key: hold it
    begin = detail::kMinTicks, end = times[k], inv_span = 0.f;
  } else if (k + 1 >= count) {  // at or after the last key: hold it
    begin = times[k], end = detail::kMaxTicks, inv_span = 0.f;
  } else {
    b = &values[k + 1];
    begin = times[k], end = times[k + 1];
    // Unsigned difference: exact even when hostile key times span more than half of Ticks.
    const auto span = static_cast<std::uint64_t>(times[k + 1].count()) - static_cast<std::uint64_t>(times[k].count());
    inv_span = 1.f / static_cast<float>(span);
  }
  detail::set_bracket(block, lane, values[k], *b);
}

// Joints are sampled in chunks: first every stale bracket of the chunk is found and the keys
// forward play will need are prefetched, so the misses of many joints overlap; then the
// refreshes, the blend factors and the kernel.
constexpr std::size_t kChunkBlocks = 8;
constexpr std::size_t kChunk = kChunkBlocks * kPoseLanes;

}  // namespace

bool SamplingJob::run() const noexcept {
  if (!validate()) return false;
  SamplingContext& ctx = *context;
  const std::size_t n = clip->joint_count();
  if (ctx.clip_id_ != clip->id() || clip->id() == 0) {
    // Another clip: every bracket is empty, so every joint is refreshed below.
    for (detail::BracketBlock& b : std::span(ctx.blocks_.data(), pose_block_count(n))) b = detail::empty_bracket_block();
    ctx.clip_id_ = clip->id();
  }
  const Ticks t = time;
  const std::uint32_t* offsets = clip->key_offsets().data();
  const Ticks* times = clip->key_times().data();
  const KeyValues* values = clip->key_values().data();
  const auto& kernels = detail::pose_kernels(simd_level());
  alignas(32) float p[kChunk];
  std::uint32_t stale[kChunk];
  for (std::size_t start = 0; start < n; start += kChunk) {
    const std::size_t end = n - start < kChunk ? n : start + kChunk;
    std::size_t stale_count = 0;
    for (std::size_t j = start; j < end; ++j) {
      const detail::BracketBlock& block = ctx.blocks_[j / kPoseLanes];
      const std::size_t lane = j % kPoseLanes;
      if (t < block.begin[lane] || t >= block.end[lane]) {
        stale[stale_count++] = static_cast<std::uint32_t>(j);
        const std::size_t next = offsets[j] + block.key[lane] + 1;  // forward play's next key
        __builtin_prefetch(times + next);
        __builtin_prefetch(values + next);
        __builtin_prefetch(reinterpret_cast<const char*>(values + next) + 64);
      }
    }
    for (std::size_t s = 0; s < stale_count; ++s) {
      const std::size_t j = stale[s];
      refresh(ctx.blocks_[j / kPoseLanes], j % kPoseLanes, j, *clip, t);
    }
    // Inside the bracket t - begin is below the span, so it fits int64; for holds the factor
    // is 0 whatever it is (and the kernel clamps to [0, 1]).
    for (std::size_t j = start; j < end; ++j) {
      const detail::BracketBlock& block = ctx.blocks_[j / kPoseLanes];
      const std::size_t lane = j % kPoseLanes;
      const auto since = static_cast<std::int64_t>(static_cast<std::uint64_t>(t.count()) -
                                                   static_cast<std::uint64_t>(block.begin[lane].count()));
      p[j - start] = static_cast<float>(since) * block.inv_span[lane];
    }
    for (std::size_t j = end; j < start + kChunk && j % kPoseLanes != 0; ++j) p[j - start] = 0.f;
    const std::size_t first_block = start / kPoseLanes;
    kernels.interpolate(ctx.blocks_.data() + first_block, p, pose_block_count(end) - first_block,
                        output.data() + first_block, exact_slerp);
  }
  return true;
}

}  // namespace marrow
