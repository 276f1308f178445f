#include "marrow/runtime/sampling_job.hpp"

#include <algorithm>
#include <new>

#include "key_search.hpp"
#include "kernels/pose_kernels.hpp"

namespace marrow {

namespace {

constexpr std::size_t kLinesPerBlock = sizeof(detail::CachedKeys) / sizeof(detail::CacheLine);
static_assert(sizeof(detail::CachedKeys) % sizeof(detail::CacheLine) == 0);
static_assert(alignof(detail::CachedKeys) <= alignof(detail::CacheLine));

detail::CachedKeys* cached_keys(std::vector<detail::CacheLine>& lines) noexcept {
  return std::launder(reinterpret_cast<detail::CachedKeys*>(lines.data()));
}

inline void prefetch(const void* line) noexcept {
#if defined(__GNUC__)
  __builtin_prefetch(line);
#else
  (void)line;
#endif
}

}  // namespace

SamplingContext::SamplingContext(const RuntimeClip& clip)
    : SamplingContext(clip.joint_count(), clip.caches_keys() ? CompressedKeys::cache : CompressedKeys::decode_every_run) {}

void SamplingContext::resize(std::size_t max_joints, CompressedKeys keys) {
  keys_.assign(max_joints, 0);
  key_cache_.clear();
  if (keys == CompressedKeys::cache) {
    const std::size_t blocks = pose_block_count(max_joints);
    key_cache_.resize(blocks * kLinesPerBlock);
    for (std::size_t b = 0; b < blocks; ++b) new (key_cache_.data() + b * kLinesPerBlock) detail::CachedKeys{};
  }
  clip_id_ = 0;
}

std::size_t SamplingContext::size_in_bytes() const noexcept {
  return sizeof(*this) + keys_.capacity() * sizeof(std::uint32_t) + key_cache_.capacity() * sizeof(detail::CacheLine);
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

// Joints are sampled in chunks: each joint's pair of records is checked (and searched again
// where the time left it) and its blend factor found, then the kernel gathers the records of
// the chunk and interpolates.
constexpr std::size_t kChunkBlocks = 8;
constexpr std::size_t kChunk = kChunkBlocks * kPoseLanes;

}  // namespace

bool SamplingJob::run() const noexcept {
  if (!validate()) return false;
  SamplingContext& ctx = *context;
  if (clip->compressed_) {
    // Every channel's keys come straight from its directory at the clip's time index: the
    // context only remembers that index, for the next frame's search.
    const detail::CompressedStorage& c = *clip->compressed_;
    const detail::TimeView times = c.times();
    detail::CachedKeys* cache = ctx.key_cache_.empty() ? nullptr : cached_keys(ctx.key_cache_);
    if (ctx.clip_id_ != clip->id()) {
      ctx.time_hint_ = 0;
      ctx.clip_id_ = clip->id();
      for (std::size_t b = 0; cache != nullptr && b < c.blocks().size(); ++b) detail::forget(cache[b]);
    }
    // The search sees one form of the times (no test of the form at each probe).
    const auto find = [&](const auto& time_of) { return detail::find_key_index(times.size(), time_of, time, ctx.time_hint_); };
    const std::size_t tau =
        times.since != nullptr  ? find([&times](std::size_t i) { return Ticks{times.first + times.since[i]}; })
        : times.wide != nullptr ? find([&times](std::size_t i) { return Ticks{times.wide[i]}; })
                                : find([&times](std::size_t i) { return Ticks{detail::grid_time(times.first, times.step, times.phase, i)}; });
    ctx.time_hint_ = static_cast<std::uint32_t>(tau);
    const detail::CompressedArgs args{&c, time.count(), static_cast<std::uint32_t>(tau), time.count() < times.first,
                                      output.data(), exact_slerp, cache};
    const detail::PoseKernels& kernels = detail::pose_kernels(simd_choice());
    (c.pose ? kernels.sample_pose : kernels.sample_compressed)(args);
    return true;
  }
  const std::size_t n = clip->joint_count();
  const std::uint32_t* offsets = clip->key_offsets().data();
  const KeyRecord* records = clip->records().data();
  const std::size_t last_record = clip->records().size() - 1;
  std::uint32_t* pairs = ctx.keys_.data();  // per joint: the record index of k in the pair (k, k + 1)
  if (ctx.clip_id_ != clip->id() || clip->id() == 0) {
    // Another clip: start every joint at its first key (the search below corrects it).
    for (std::size_t j = 0; j < n; ++j) pairs[j] = offsets[j] + 1;
    ctx.clip_id_ = clip->id();
  }
  const Ticks t = time;
  const auto& kernels = detail::pose_kernels(simd_choice());
  alignas(32) float p[kChunk];
  const KeyRecord* brackets[kChunk];
  for (std::size_t start = 0; start < n; start += kChunk) {
    const std::size_t end = n - start < kChunk ? n : start + kChunk;
    for (std::size_t j = start; j < end; ++j) {
      const KeyRecord* a = records + pairs[j];
      // The framing copies make every time fall in exactly one pair: t_k <= t < t_k+1.
      if (t < a[0].time || t >= a[1].time) {
        // Forward play moves the pair on by a key: the record after the next pair is the next
        // crossing's first read, untouched since the clip last came round (a key is a line of
        // its own). Fetched now, that read is not a miss then.
        if (t >= a[1].time) prefetch(records + std::min<std::size_t>(pairs[j] + 3, last_record));
        const std::uint32_t first = offsets[j] + 1;  // key 0; its opening copy is at first - 1
        const std::size_t count = offsets[j + 1] - first - 1;
        const KeyRecord* keys = records + first;
        const std::size_t k = detail::find_key_index(count, [keys](std::size_t i) { return keys[i].time; }, t,
                                                     pairs[j] - first);
        const std::uint32_t index = t < keys[0].time ? first - 1 : first + static_cast<std::uint32_t>(k);
        pairs[j] = index;
        a = records + index;
      }
      brackets[j - start] = a;
      // Inside the pair t - t_k is below the span, so it fits int64; a hold has inv_span 0.
      const auto since = static_cast<std::int64_t>(static_cast<std::uint64_t>(t.count()) -
                                                   static_cast<std::uint64_t>(a->time.count()));
      p[j - start] = static_cast<float>(since) * a->inv_span;
    }
    // Padding lanes of the last block repeat the last joint (ignored by readers).
    for (std::size_t j = end; j < start + kChunk && j % kPoseLanes != 0; ++j) {
      brackets[j - start] = brackets[end - 1 - start];
      p[j - start] = 0.f;
    }
    const std::size_t first_block = start / kPoseLanes;
    kernels.sample(brackets, p, pose_block_count(end) - first_block, output.data() + first_block, exact_slerp);
  }
  return true;
}

}  // namespace marrow
