#include "marrow/runtime/sampling_job.hpp"

#include <limits>

#include "bracket.hpp"
#include "key_search.hpp"
#include "pose_kernels.hpp"

namespace marrow {

namespace {

constexpr Ticks kMinTicks{std::numeric_limits<std::int64_t>::min()};
constexpr Ticks kMaxTicks{std::numeric_limits<std::int64_t>::max()};

}  // namespace

void SamplingContext::resize(std::size_t max_joints) {
  blocks_.assign(pose_block_count(max_joints), detail::empty_bracket_block());
  begin_.assign(max_joints, Ticks{0});
  end_.assign(max_joints, Ticks{0});
  inv_span_.assign(max_joints, 0.f);
  key_.assign(max_joints, 0);
  clip_id_ = 0;
}

std::size_t SamplingContext::size_in_bytes() const noexcept {
  return sizeof(*this) + blocks_.capacity() * sizeof(detail::BracketBlock) +
         (begin_.capacity() + end_.capacity()) * sizeof(Ticks) + inv_span_.capacity() * sizeof(float) +
         key_.capacity() * sizeof(std::uint32_t);
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

bool SamplingJob::run() const noexcept {
  if (!validate()) return false;
  SamplingContext& ctx = *context;
  const std::size_t n = clip->joint_count();
  if (ctx.clip_id_ != clip->id() || clip->id() == 0) {
    // Another clip: every bracket is empty, so every joint is refreshed below.
    for (std::size_t j = 0; j < n; ++j) ctx.begin_[j] = kMaxTicks, ctx.end_[j] = kMinTicks;
    for (detail::BracketBlock& b : std::span(ctx.blocks_.data(), pose_block_count(n))) b = detail::empty_bracket_block();
    ctx.clip_id_ = clip->id();
  }
  const std::uint32_t* offsets = clip->key_offsets().data();
  const Ticks* times = clip->key_times().data();
  const KeyValues* values = clip->key_values().data();
  const Ticks t = time;
  for (std::size_t j = 0; j < n; ++j) {
    detail::BracketBlock& block = ctx.blocks_[j / kPoseLanes];
    const std::size_t lane = j % kPoseLanes;
    if (t < ctx.begin_[j] || t >= ctx.end_[j]) {
      // Refresh joint j's bracket (rare while playing: at most once per key interval).
      const std::uint32_t first = offsets[j];
      const std::size_t count = offsets[j + 1] - first;
      const Ticks* run_times = times + first;
      const std::size_t k =
          detail::find_key_index(count, [run_times](std::size_t i) { return run_times[i]; }, t, ctx.key_[j]);
      ctx.key_[j] = static_cast<std::uint32_t>(k);
      const KeyValues& a = values[first + k];
      const KeyValues* b = &a;
      if (t < run_times[k]) {  // before the first key: hold it
        ctx.begin_[j] = kMinTicks, ctx.end_[j] = run_times[k], ctx.inv_span_[j] = 0.f;
      } else if (k + 1 >= count) {  // at or after the last key: hold it
        ctx.begin_[j] = run_times[k], ctx.end_[j] = kMaxTicks, ctx.inv_span_[j] = 0.f;
      } else {
        b = &values[first + k + 1];
        ctx.begin_[j] = run_times[k], ctx.end_[j] = run_times[k + 1];
        // Unsigned difference: exact even when hostile key times span more than half of Ticks.
        const auto span = static_cast<std::uint64_t>(run_times[k + 1].count()) - static_cast<std::uint64_t>(run_times[k].count());
        ctx.inv_span_[j] = 1.f / static_cast<float>(span);
      }
      detail::set_bracket(block, lane, a, *b);
    }
    // Inside the bracket t - begin is below the span, so it fits int64; for holds the factor
    // is 0 whatever it is (and the kernel clamps to [0, 1]).
    const auto since = static_cast<std::int64_t>(static_cast<std::uint64_t>(t.count()) -
                                                 static_cast<std::uint64_t>(ctx.begin_[j].count()));
    block.p[lane] = static_cast<float>(since) * ctx.inv_span_[j];
  }
  detail::pose_kernels(simd_level()).interpolate(ctx.blocks_.data(), pose_block_count(n), output.data(), exact_slerp);
  return true;
}

}  // namespace marrow
