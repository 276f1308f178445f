#include "marrow/runtime/offline/compressed_clip_data.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "marrow/core/finite.hpp"
#include "marrow/core/trs.hpp"
#include "runtime/clip_id.hpp"
#include "runtime/compressed_storage.hpp"

#include "compressed_parts.hpp"
#include "key_codec.hpp"
#include "segmented_lanes.hpp"
#include "time_grid.hpp"

namespace marrow {

namespace {

const char* const kChannelNames[3] = {"translation", "rotation", "scale"};

std::string channel_name(std::size_t channel) {
  return "joint " + std::to_string(channel / 3) + " " + kChannelNames[channel % 3];
}

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument("compressed clip: " + what); }

void check(const CompressedClipData& data) {
  const std::size_t n = data.times.size();
  if (n == 0 || n > kCompressedMaxTimes) {
    refuse("has " + std::to_string(n) + " key times, not 1 to " + std::to_string(kCompressedMaxTimes));
  }
  for (std::size_t i = 1; i < n; ++i) {
    if (data.times[i] <= data.times[i - 1]) {
      refuse("time " + std::to_string(i) + " (" + std::to_string(data.times[i].count()) + " ticks) does not follow " +
             std::to_string(data.times[i - 1].count()));
    }
  }
  if (static_cast<std::uint64_t>(data.times.back().count()) - static_cast<std::uint64_t>(data.times.front().count()) >=
      static_cast<std::uint64_t>(detail::kMaxCompressedSpan)) {
    refuse("its times span 2^52 ticks (14 years) or more");
  }
  if (data.channels.size() != 3 * data.animated.size()) {
    refuse("has " + std::to_string(data.channels.size()) + " channels for " + std::to_string(data.animated.size()) +
           " joints (three per joint)");
  }
  for (std::size_t c = 0; c < data.channels.size(); ++c) {
    const CompressedChannel& ch = data.channels[c];
    const std::string where = channel_name(c);
    if (!ch.segments.empty()) {
      detail::check_segmented(ch, c, n, where);
      continue;
    }
    if (ch.key_times.empty()) refuse(where + " has no keys");
    for (std::size_t k = 0; k < ch.key_times.size(); ++k) {
      const std::string key = where + " key " + std::to_string(k) + " time index " + std::to_string(ch.key_times[k]);
      if (ch.key_times[k] >= n) refuse(key + " is past the " + std::to_string(n) + " times");
      if (k > 0 && ch.key_times[k] <= ch.key_times[k - 1]) refuse(key + " does not follow " + std::to_string(ch.key_times[k - 1]));
      if (k > 0 && ch.key_times[k] / kCompressedTimesPerWord - ch.key_times[k - 1] / kCompressedTimesPerWord > 1) {
        refuse(key + " is more than a word of " + std::to_string(kCompressedTimesPerWord) + " times after " +
               std::to_string(ch.key_times[k - 1]));
      }
    }
    for (std::size_t i = 0; i < 3; ++i) {
      if (ch.bits[i] > kCompressedMaxBits) {
        refuse(where + " component " + std::to_string(i) + " has " + std::to_string(ch.bits[i]) + " bits, more than " +
               std::to_string(kCompressedMaxBits));
      }
    }
    if (ch.uniform && (c % 3 != 2 || ch.bits[1] != 0 || ch.bits[2] != 0)) {
      refuse(where + " is uniform but is not a scale stored as x alone");
    }
    const unsigned width = compressed_key_width(ch.bits, c);
    const std::size_t bytes = (ch.key_times.size() * width + 7) / 8;
    if (ch.packed.size() != bytes) {
      refuse(where + " has " + std::to_string(ch.packed.size()) + " bytes of keys, not " + std::to_string(bytes) + " (" +
             std::to_string(ch.key_times.size()) + " keys of " + std::to_string(width) + " bits)");
    }
    const bool rotation = c % 3 == 1;
    for (std::size_t i = 0; i < 3; ++i) {
      const double levels = static_cast<double>((std::uint32_t{1} << ch.bits[i]) - 1);
      const double lo = ch.min[i], step = ch.step[i], hi = lo + levels * step;
      const std::string range = where + " range " + std::to_string(i) + " (min " + std::to_string(ch.min[i]) + ", step " +
                                std::to_string(ch.step[i]) + ")";
      if (!std::isfinite(lo) || !std::isfinite(step)) refuse(range + " is not finite");
      if (step < 0) refuse(range + " has a negative step");
      if (!std::isfinite(static_cast<float>(hi))) refuse(range + " ends past the largest float");
      // A unit quaternion's components lie in [-1, 1] (the kept ones even in [-0.71, 0.71]).
      if (rotation && (lo < -1 || hi > 1)) refuse(range + " leaves [-1, 1], where a rotation's components lie");
    }
  }
}

// The channel's directory: its keys' bits, and per word the keys before it and how far back
// (forward) the nearest key before (after) it lies, at most a word away (check() made sure).
void fill_directory(const std::vector<std::uint16_t>& key_times, std::size_t words, detail::CompressedParts& s) {
  constexpr std::size_t kWord = detail::kTimesPerWord;
  const std::size_t begin = s.words.size();
  s.words.resize(begin + words, detail::KeyWord{0, 0, 0, 0});
  detail::KeyWord* out = s.words.data() + begin;
  for (std::uint16_t t : key_times) out[t / kWord].bits |= std::uint32_t{1} << (t % kWord);
  std::size_t rank = 0, k = 0;
  for (std::size_t w = 0; w < words; ++w) {
    out[w].rank = static_cast<std::uint16_t>(rank);
    while (k < key_times.size() && key_times[k] < (w + 1) * kWord) ++k;
    // Keys before the word: key_times[rank - 1]; after it: key_times[k].
    if (rank > 0 && key_times[rank - 1] + kWord >= w * kWord) {
      out[w].back = static_cast<std::uint8_t>(w * kWord - 1 - key_times[rank - 1]);
    }
    if (k < key_times.size() && key_times[k] < (w + 2) * kWord) {
      out[w].forward = static_cast<std::uint8_t>(key_times[k] - (w + 1) * kWord);
    }
    rank = k;
  }
}

// A grid when the times lie on one, else the short form when they span less than 2^31 ticks,
// else the times as they are.
void fill_times(const std::vector<Ticks>& times, detail::CompressedParts& out) {
  out.first = times.front().count();
  out.time_count = times.size();
  if (const std::optional<detail::TimeGrid> grid = detail::find_time_grid(times)) {
    out.grid = *grid;
    return;
  }
  if (times.back().count() - out.first <= std::numeric_limits<std::int32_t>::max()) {
    out.since.reserve(times.size());
    for (Ticks t : times) out.since.push_back(static_cast<std::int32_t>(t.count() - out.first));
    return;
  }
  out.wide.reserve(times.size());
  for (Ticks t : times) out.wide.push_back(t.count());
}

// The lanes of `mask` that differ, bit for bit (the others are never read).
unsigned other_lanes(const detail::ConstantLanes& a, const detail::ConstantLanes& b, unsigned mask = 0xffu) noexcept {
  unsigned other = 0;
  for (unsigned m = mask; m != 0; m &= m - 1) {
    const auto l = static_cast<std::size_t>(std::countr_zero(m));
    bool same = a.key_time[l] == b.key_time[l] && a.dropped[l] == b.dropped[l];
    for (std::size_t i = 0; i < 3; ++i) same = same && std::memcmp(&a.value[i][l], &b.value[i][l], sizeof(float)) == 0;
    if (!same) other |= 1u << l;
  }
  return other;
}

}  // namespace

std::shared_ptr<const CompressedRestPose> compressed_rest_pose(std::span<const glm::mat4> rest_locals) {
  auto rest = std::make_shared<CompressedRestPose>();
  const std::size_t joints = rest_locals.size();
  rest->joints = joints;
  rest->lanes.resize(3 * pose_block_count(joints));
  for (std::size_t b = 0; b < pose_block_count(joints); ++b) {
    for (std::size_t l = 0; l < kPoseLanes; ++l) {
      // Padding lanes repeat the last joint, as make_compressed_clip's blocks do.
      const glm::mat4& m = rest_locals[std::min(b * kPoseLanes + l, joints - 1)];
      // A non-finite rest matches no clip (make_compressed_clip refuses non-finite values).
      const Trs trs = is_finite(m) ? decompose_trs(m) : Trs{glm::vec3(NAN), glm::quat(NAN, NAN, NAN, NAN), glm::vec3(NAN)};
      const double values[3][4] = {{trs.translation.x, trs.translation.y, trs.translation.z, 0},
                                   {trs.rotation.x, trs.rotation.y, trs.rotation.z, trs.rotation.w},
                                   {trs.scale.x, trs.scale.y, trs.scale.z, 0}};
      for (std::size_t c = 0; c < 3; ++c) {
        const detail::ConstantKey key = detail::constant_key(c == 1, values[c]);
        detail::ConstantLanes& lanes = rest->lanes[3 * b + c];
        for (std::size_t i = 0; i < 3; ++i) lanes.value[i][l] = key.value[i];
        lanes.key_time[l] = 0;
        lanes.dropped[l] = key.dropped;
      }
    }
  }
  return rest;
}

namespace {

// One key of no field bits: a constant.
bool is_constant(const CompressedChannel& ch) {
  return ch.key_times.size() == 1 && ch.bits[0] == 0 && ch.bits[1] == 0 && ch.bits[2] == 0;
}

// make_compressed_clip's blocks of eight joints, channel by channel, into the parts.
class BlockBuilder {
 public:
  BlockBuilder(const CompressedClipData& data, const std::shared_ptr<const CompressedRestPose>& rest, detail::CompressedParts& s)
      : data_(data), rest_(rest), s_(s), joints_(data.animated.size()),
        pose_(std::all_of(data.channels.begin(), data.channels.end(), [](const CompressedChannel& ch) { return is_constant(ch); })) {}

  void build() {
    add_directories();
    for (std::size_t b = 0; b < s_.blocks.size() && joints_ > 0; ++b) {
      for (std::size_t c = 0; c < 3; ++c) {
        const BlockChannel kind = block_channel(b, c);
        if (kind.segmented != 0) {
          add_segmented(b, c, kind.segmented);
        } else if (kind.constant) {
          detail::ConstantLanes lanes;
          for (std::size_t l = 0; l < kPoseLanes; ++l) constant_lane(channel_of(b, l, c), l, lanes);
          std::tie(s_.blocks[b].kind[c], s_.blocks[b].index[c]) = store_constant(lanes, b, c, real_lanes(b));
        } else {
          add_keyed(b, c);
        }
      }
    }
  }

 private:
  // How block channel c of block b is kept: its lanes of segmented channels (real lanes only),
  // and whether every lane is a constant; with neither, its lanes' keys are found (kKeysChannel).
  struct BlockChannel {
    unsigned segmented = 0;
    bool constant = true;
  };

  // Channel c of lane l of block b; padding lanes repeat the last joint (their output is ignored).
  std::size_t channel_of(std::size_t b, std::size_t l, std::size_t c) const {
    const std::size_t lane = b * kPoseLanes + l;
    return 3 * (lane < joints_ ? lane : joints_ - 1) + c;
  }

  // The lanes of block b that are joints (padding lanes' outputs are ignored: none reads them).
  unsigned real_lanes(std::size_t b) const { return (1u << std::min(kPoseLanes, joints_ - b * kPoseLanes)) - 1u; }

  BlockChannel block_channel(std::size_t b, std::size_t c) const {
    BlockChannel out;
    for (std::size_t l = 0; l < kPoseLanes; ++l) {
      const CompressedChannel& ch = data_.channels[channel_of(b, l, c)];
      out.constant = out.constant && is_constant(ch);
      if (!ch.segments.empty() && b * kPoseLanes + l < joints_) out.segmented |= 1u << l;
    }
    return out;
  }

  // The channels of keyed block channels get directories and packed keys; channels with the same
  // keys share a directory.
  void add_directories() {
    std::vector<char> keyed(data_.channels.size(), 0);
    std::size_t bytes = 0;
    for (std::size_t b = 0; b < s_.blocks.size() && joints_ > 0; ++b) {
      for (std::size_t c = 0; c < 3; ++c) {
        const BlockChannel kind = block_channel(b, c);
        if (kind.segmented != 0 || kind.constant) continue;
        for (std::size_t l = 0; l < kPoseLanes; ++l) {
          const std::size_t channel = channel_of(b, l, c);
          if (!keyed[channel]) bytes += data_.channels[channel].packed.size();
          keyed[channel] = 1;
        }
      }
    }
    if (bytes > std::numeric_limits<std::uint32_t>::max() - detail::kPackedPadding) refuse("has too many keys");
    s_.packed.reserve(bytes + detail::kPackedPadding);
    std::map<std::vector<std::uint16_t>, std::uint32_t> directories;
    word_of_.assign(data_.channels.size(), 0);
    byte_of_.assign(data_.channels.size(), 0);
    for (std::size_t c = 0; c < data_.channels.size(); ++c) {
      if (!keyed[c]) continue;
      const CompressedChannel& ch = data_.channels[c];
      const auto [it, fresh] = directories.emplace(ch.key_times, static_cast<std::uint32_t>(s_.words.size()));
      if (fresh) fill_directory(ch.key_times, s_.words_per_channel, s_);
      word_of_[c] = it->second;
      byte_of_[c] = static_cast<std::uint32_t>(s_.packed.size());
      s_.packed.insert(s_.packed.end(), ch.packed.begin(), ch.packed.end());
    }
    if (!s_.packed.empty()) s_.packed.resize(s_.packed.size() + detail::kPackedPadding, 0);
  }

  // A constant channel's lane.
  void constant_lane(std::size_t channel, std::size_t l, detail::ConstantLanes& lanes) const {
    const CompressedChannel& ch = data_.channels[channel];
    for (std::size_t i = 0; i < 3; ++i) lanes.value[i][l] = ch.min[ch.uniform ? 0 : i];
    lanes.key_time[l] = ch.key_times[0];
    lanes.dropped[l] = channel % 3 == 1 ? static_cast<std::uint8_t>(ch.packed[0] & 3u) : 0;
  }

  // A block's constant lanes as the identity, as the rest, in a pose as either of them with some
  // lanes of their own (PatchedLanes), else as values of their own; `read`: the lanes the kernels
  // read from them (a segmented block channel's constant lanes).
  std::pair<std::uint8_t, std::uint32_t> store_constant(const detail::ConstantLanes& lanes, std::size_t b, std::size_t c,
                                                        unsigned read = 0xffu) {
    const auto rest_index = static_cast<std::uint32_t>(3 * b + c);
    const unsigned off_identity = other_lanes(lanes, detail::kIdentityLanes[c], read);
    const unsigned off_rest = rest_ != nullptr ? other_lanes(lanes, rest_->lanes[rest_index], read) : 0x1ffu;
    if (off_identity == 0) return {detail::kIdentityChannel, 0};
    if (off_rest == 0) {
      s_.rest = rest_;  // kept only by a clip that reads it
      return {detail::kRestChannel, rest_index};
    }
    // A pose's: over the base with fewer lanes of their own, when each of those has its key at time
    // index 0 (the bases' time; a track that starts later keeps its own).
    const bool on_rest = std::popcount(off_rest) < std::popcount(off_identity);
    const unsigned own = on_rest ? off_rest : off_identity;
    bool patch = pose_;
    for (unsigned m = own; m != 0; m &= m - 1) patch = patch && lanes.key_time[std::countr_zero(m)] == 0;
    if (patch) {
      detail::PatchedLanes p;
      p.values = static_cast<std::uint32_t>(s_.ranges.size());
      p.base = on_rest ? rest_index : 0;
      p.base_kind = on_rest ? detail::kRestChannel : detail::kIdentityChannel;
      p.lanes = static_cast<std::uint8_t>(own);
      for (unsigned m = own; m != 0; m &= m - 1) {
        const auto l = static_cast<unsigned>(std::countr_zero(m));
        for (std::size_t i = 0; i < 3; ++i) s_.ranges.push_back(lanes.value[i][l]);
        p.dropped = static_cast<std::uint16_t>(p.dropped | unsigned{lanes.dropped[l]} << (2 * l));
      }
      if (on_rest) s_.rest = rest_;
      s_.patched.push_back(p);
      return {detail::kPatchedChannel, static_cast<std::uint32_t>(s_.patched.size() - 1)};
    }
    s_.constants.push_back(lanes);
    return {detail::kConstantChannel, static_cast<std::uint32_t>(s_.constants.size() - 1)};
  }

  // A block channel with segmented lanes: every other lane must be a constant.
  void add_segmented(std::size_t b, std::size_t c, unsigned lanes) {
    const CompressedChannel* channels[kPoseLanes];
    detail::ConstantLanes constants = detail::kIdentityLanes[c];
    for (std::size_t l = 0; l < kPoseLanes; ++l) {
      const std::size_t channel = channel_of(b, l, c);
      channels[l] = &data_.channels[channel];
      if ((lanes >> l & 1u) != 0 || b * kPoseLanes + l >= joints_) continue;
      if (!is_constant(data_.channels[channel])) {
        refuse(channel_name(channel) + " has keys to find in a block of segmented channels (joints " + std::to_string(b * kPoseLanes) +
               " to " + std::to_string(b * kPoseLanes + kPoseLanes - 1) + ")");
      }
      constant_lane(channel, l, constants);
    }
    s_.segments = compressed_segments(data_.times.size());
    detail::SegmentedLanes sl = detail::segmented_lanes(channels, lanes, data_.times.size(), s_);
    // Only the real lanes outside `lanes` are read from the constants: the identity or the rest
    // serves when they match it.
    std::tie(sl.constant_kind, sl.constant) = store_constant(constants, b, c, real_lanes(b) & ~lanes);
    s_.blocks[b].kind[c] = detail::kSegmentedChannel;
    s_.blocks[b].index[c] = static_cast<std::uint32_t>(s_.segmented.size());
    s_.segmented.push_back(sl);
  }

  void add_keyed(std::size_t b, std::size_t c) {
    s_.blocks[b].kind[c] = detail::kKeysChannel;
    s_.blocks[b].index[c] = static_cast<std::uint32_t>(s_.animated.size());
    detail::ChannelLanes& lanes = s_.animated.emplace_back();
    for (std::size_t l = 0; l < kPoseLanes; ++l) {
      const std::size_t channel = channel_of(b, l, c);
      const CompressedChannel& ch = data_.channels[channel];
      lanes.word[l] = word_of_[channel];
      lanes.byte[l] = byte_of_[channel];
      lanes.count[l] = static_cast<std::uint16_t>(ch.key_times.size());
      unsigned shift = 0;
      for (std::size_t i = 0; i < 3; ++i) {
        // A uniform scale reads its x field, range included, for y and z.
        const std::size_t from = ch.uniform ? 0 : i;
        lanes.bits[i][l] = ch.bits[from];
        lanes.shift[i][l] = static_cast<std::uint8_t>(ch.uniform ? 0 : shift);
        lanes.min[i][l] = ch.min[from];
        lanes.step[i][l] = ch.step[from];
        shift += ch.bits[i];
      }
    }
  }

  const CompressedClipData& data_;
  const std::shared_ptr<const CompressedRestPose>& rest_;
  detail::CompressedParts& s_;
  const std::size_t joints_;
  // Every channel a constant: a pose. Only a pose's constant channels are patched (PatchedLanes):
  // they are the whole clip there, while in a clip that moves they are a few percent of its bytes
  // and reading a patched channel in the sampling loop costs it (measured: 14 % on CesiumMan).
  const bool pose_;
  std::vector<std::uint32_t> word_of_, byte_of_;  // per channel of a keyed block channel
};

}  // namespace

RuntimeClip make_compressed_clip(std::string name, Ticks duration, const CompressedClipData& data,
                                 std::shared_ptr<const CompressedRestPose> rest) {
  check(data);
  const std::size_t joints = data.animated.size();
  if (rest != nullptr && rest->joints != joints) {
    refuse("has " + std::to_string(joints) + " joints, its rest pose " + std::to_string(rest->joints));
  }
  detail::CompressedParts s;
  s.joints = joints;
  s.animated_joints = data.animated;
  fill_times(data.times, s);
  s.words_per_channel = (data.times.size() + detail::kTimesPerWord - 1) / detail::kTimesPerWord;
  s.blocks.resize(pose_block_count(joints));
  for (const CompressedChannel& ch : data.channels) {
    s.keys += ch.key_times.size();
    for (std::size_t seg = 0; seg < ch.segments.size(); ++seg) {
      s.keys += compressed_segment_samples(compressed_segment_intervals(data.times.size(), seg), ch.segments[seg].stride);
    }
  }
  BlockBuilder(data, rest, s).build();
  // The kernels read eight entries of a row and sixteen bytes of samples at a time.
  if (!s.segmented.empty()) {
    s.segment_data.resize(s.segment_data.size() + detail::kPackedPadding, 0);
    s.ranges.resize(s.ranges.size() + kPoseLanes, 0.f);
  }
  RuntimeClip out;
  out.id_ = detail::next_clip_id();
  out.name_ = std::move(name);
  out.duration_ = duration;
  out.joints_ = static_cast<std::uint32_t>(joints);
  out.compressed_ = detail::pack(s);
  return out;
}

CompressedClipData compressed_clip_data(const RuntimeClip& clip) {
  if (!clip.compressed_) throw std::invalid_argument("compressed_clip_data: clip '" + clip.name() + "' is not compressed");
  const detail::CompressedStorage& s = *clip.compressed_;
  CompressedClipData data;
  const detail::TimeView times = s.times();
  for (std::size_t i = 0; i < times.size(); ++i) data.times.push_back(Ticks{times.at(i)});
  data.animated.assign(s.animated_joints(), s.animated_joints() + s.joints);
  data.channels.resize(3 * s.joints);
  for (std::size_t j = 0; j < s.joints; ++j) {
    const detail::JointBlock& block = s.blocks()[j / kPoseLanes];
    const std::size_t l = j % kPoseLanes;
    for (std::size_t c = 0; c < 3; ++c) {
      CompressedChannel& ch = data.channels[3 * j + c];
      const detail::SegmentedLanes* sl =
          block.kind[c] == detail::kSegmentedChannel ? &s.segmented_lanes()[block.index[c]] : nullptr;
      if (sl != nullptr && (sl->lanes >> l & 1u) != 0) {
        ch = detail::segmented_channel(s, times.size(), *sl, l);
        continue;
      }
      if (block.kind[c] != detail::kKeysChannel) {
        // One key of no bits (a segmented block channel's other lanes too): its values; a
        // rotation's key is its two bits of dropped index.
        detail::ConstantLanes scratch;
        const detail::ConstantLanes& lanes = sl != nullptr ? detail::constant_lanes(s, sl->constant_kind, sl->constant, static_cast<int>(c), scratch)
                                                           : detail::constant_lanes(s, block, static_cast<int>(c), scratch);
        ch.key_times.push_back(lanes.key_time[l]);
        for (std::size_t i = 0; i < 3; ++i) ch.min[i] = lanes.value[i][l];
        if (c == 1) ch.packed.push_back(lanes.dropped[l]);
        continue;
      }
      const detail::ChannelLanes& lanes = s.animated()[block.index[c]];
      for (std::size_t w = 0; w < s.words_per_channel; ++w) {
        for (std::uint32_t bits = s.words()[lanes.word[l] + w].bits; bits != 0; bits &= bits - 1) {
          ch.key_times.push_back(static_cast<std::uint16_t>(w * detail::kTimesPerWord + static_cast<std::size_t>(std::countr_zero(bits))));
        }
      }
      // Uniform: x read three times (a channel of its own never has two fields at bit 0 unless
      // the first has no bits).
      const std::uint8_t(&bits)[3][kPoseLanes] = lanes.bits;
      ch.uniform = c == 2 && bits[0][l] > 0 && bits[1][l] == bits[0][l] && bits[2][l] == bits[0][l] &&
                   lanes.shift[1][l] == 0 && lanes.shift[2][l] == 0;
      for (std::size_t i = 0; i < 3; ++i) {
        const bool copy = ch.uniform && i > 0;
        ch.bits[i] = copy ? 0 : lanes.bits[i][l];
        ch.min[i] = copy ? 0.f : lanes.min[i][l];
        ch.step[i] = copy ? 0.f : lanes.step[i][l];
      }
      const std::uint8_t* first = s.packed() + lanes.byte[l];
      ch.packed.assign(first, first + (std::size_t{lanes.count[l]} * compressed_key_width(ch.bits, c) + 7) / 8);
    }
  }
  return data;
}

}  // namespace marrow
