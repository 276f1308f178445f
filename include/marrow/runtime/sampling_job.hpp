#pragma once
// The sampling job (X1): a compiled clip at one time -> the local T/R/S of every joint, into a
// caller-owned pose, through a caller-owned context.
//
// Rule: exactly the one sampler's (track_sampler.hpp, P6) for every joint: hold the first key
// before it and the last key at or after it; between keys k and k+1 (t_k <= t < t_k+1, the
// later of equal times wins) lerp translation and scale and interpolate rotation along the
// shorter arc; exactly on a key, that key's values. The rotation is a normalised lerp where
// that is within 5e-7 of the exact slerp (the two rotations less than 0.0316 rad apart as
// quaternions, cos >= 0.9995; nlerp's deviation grows as angle^3 / 62), and the one sampler's
// slerp everywhere else, chosen per block of eight joints. Set exact_slerp to use the slerp
// everywhere. Results equal the one sampler's within 1e-6.
//
// The context keeps, per joint, the record of the key bracketing the last time it saw (4 bytes
// a joint); the values come from the shared clip, whose records hold everything a bracket
// needs. A joint whose time left its bracket searches again (forward play: the next key or
// two; a seek: a binary search), so the result never depends on what the context saw before.
// Two contexts never interfere; a context may be moved from clip to clip (it notices and
// starts over).
//
// A compressed clip (offline/clip_compression.hpp) is decoded key by key. A context made for it
// (from the clip, or with CompressedKeys::cache) keeps each channel's two keys decoded, 160 bytes a
// joint, and decodes a channel again only when the time leaves its pair: playing forward, only the
// keys the time reaches. Without that room every run decodes every channel's pair, with the same
// results, at about twice the cost. A segmented compressed clip (ClipCompression::segmented) needs
// no such room: it finds and decodes its samples in place at every run, and SamplingContext(clip)
// keeps only the 4 bytes a joint (clip.caches_keys() says which).
//
//   SamplingContext context(clip);                       // per instance, allocated once
//   std::vector<TrsBlock> pose(pose_block_count(clip.joint_count()));
//   SamplingJob job{.clip = &clip, .time = t, .context = &context, .output = pose};
//   job.run();                                           // no throw, no allocation
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "marrow/core/ticks.hpp"
#include "marrow/runtime/job_status.hpp"
#include "marrow/runtime/local_pose.hpp"
#include "marrow/runtime/runtime_clip.hpp"

namespace marrow {

namespace detail {
struct alignas(64) CacheLine {
  unsigned char bytes[64];
};
}  // namespace detail

// Whether a context keeps a compressed clip's decoded keys between runs.
enum class CompressedKeys : std::uint8_t { decode_every_run, cache };

class SamplingContext {
 public:
  SamplingContext() = default;
  explicit SamplingContext(std::size_t max_joints, CompressedKeys keys = CompressedKeys::decode_every_run) {
    resize(max_joints, keys);
  }
  // Room for `clip`: its joints, and a compressed clip's decoded keys.
  explicit SamplingContext(const RuntimeClip& clip);

  // Room for clips of up to max_joints joints (allocates; forgets every bracket).
  void resize(std::size_t max_joints, CompressedKeys keys = CompressedKeys::decode_every_run);
  std::size_t max_joints() const noexcept { return keys_.size(); }
  // Whether runs on compressed clips of up to max_joints() joints keep their decoded keys.
  bool caches_compressed_keys() const noexcept { return !key_cache_.empty(); }
  // Forgets every bracket: the next run searches afresh (results are the same either way).
  void invalidate() noexcept { clip_id_ = 0; }
  std::size_t size_in_bytes() const noexcept;

 private:
  friend struct SamplingJob;
  std::vector<std::uint32_t> keys_;  // per joint: the record index of k in its last pair (k, k + 1)
  std::uint64_t clip_id_ = 0;        // whose brackets these are (0: none)
  std::uint32_t time_hint_ = 0;      // compressed clips: the time index found last
  std::vector<detail::CacheLine> key_cache_;  // compressed clips: per block of joints, the decoded keys
};

struct SamplingJob {
  const RuntimeClip* clip = nullptr;
  Ticks time{};                    // any time; outside the keys the end keys hold (no wrap here)
  SamplingContext* context = nullptr;
  std::span<TrsBlock> output{};      // at least pose_block_count(clip->joint_count()) blocks
  bool exact_slerp = false;        // the one sampler's slerp for every rotation

  JobStatus validate() const noexcept;
  // validate(), then samples every joint; false (and nothing written) when invalid.
  bool run() const noexcept;
};

}  // namespace marrow
