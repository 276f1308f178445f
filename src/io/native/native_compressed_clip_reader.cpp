#include "native_compressed_clip_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "marrow/runtime/offline/clip_compression.hpp"
#include "marrow/runtime/offline/compressed_clip_data.hpp"

namespace marrow::native {

namespace {

constexpr std::size_t kSegmentRecordBytes = 11;  // low, extent and bits per component, stride, dropped

// One compressed clip of a skin of `joints` joints: the arrays are checked against the bytes and
// limits here, their content by make_compressed_clip (every count, bit width, index and range).
RuntimeClip read_compressed_clip(SectionReader& r, int joints, const std::shared_ptr<const CompressedRestPose>& rest) {
  std::string name = r.string("clip name");
  const Ticks duration{r.i64("duration")};
  CompressedClipData data;
  const std::size_t times = r.count("time count", kCompressedMaxTimes, nullptr, 8);
  r.copy_into(data.times, times, "times");
  const std::uint64_t n = r.u64("joint count");
  if (n != static_cast<std::uint64_t>(joints)) {
    r.fail(ImportErrorCode::InvalidDocument,
           "joint count " + std::to_string(n) + " is not the skin's bone_count " + std::to_string(joints));
  }
  r.fits("joint count", n, kCompressedJointMinBytes);
  // The sampler's key directories: at worst one word of 8 bytes per 32 times for every channel.
  r.charge("key directories", 3 * n * ((times + kCompressedTimesPerWord - 1) / kCompressedTimesPerWord) * 8);
  r.copy_into(data.animated, static_cast<std::size_t>(n), "animated");
  for (std::size_t j = 0; j < data.animated.size(); ++j) {
    if (data.animated[j] > 1) {
      const auto scope = r.enter("joint", j);
      r.fail(ImportErrorCode::InvalidDocument, "animated is " + std::to_string(data.animated[j]) + ", not 0 or 1");
    }
  }
  data.channels.resize(3 * static_cast<std::size_t>(n));
  for (std::size_t c = 0; c < data.channels.size(); ++c) {
    const auto scope = r.enter("channel", c);
    CompressedChannel& ch = data.channels[c];
    for (std::uint8_t& b : ch.bits) b = r.u8("bits");
    const std::uint8_t form = r.u8("form");
    if (form > 2) r.fail(ImportErrorCode::InvalidDocument, "form " + std::to_string(form) + " is not 0 (keyed), 1 (keyed, uniform) or 2 (segmented)");
    ch.uniform = form == 1;
    for (float& v : ch.min) v = r.f32("min");
    for (float& v : ch.step) v = r.f32("step");
    if (form == 2) {
      for (float& v : ch.extent) v = r.f32("extent");
      const std::size_t segments = r.count("segment count", compressed_segments(times), "the clip's segments", kSegmentRecordBytes);
      ch.segments.resize(segments);
      for (CompressedSegment& seg : ch.segments) {
        for (std::uint8_t& v : seg.low) v = r.u8("segment low");
        for (std::uint8_t& v : seg.extent) v = r.u8("segment extent");
        for (std::uint8_t& v : seg.bits) v = r.u8("segment bits");
        seg.stride = r.u8("segment stride");
        seg.dropped = r.u8("segment dropped");
      }
      r.charge_keys("segment count", (kCompressedSegmentLength + 1) * segments);
      r.charge("segment headers", 10 * segments);
    }
    const std::uint64_t keys = r.u64("key count");
    if (keys > times) {
      r.fail(ImportErrorCode::InvalidDocument,
             "key count " + std::to_string(keys) + " exceeds the clip's " + std::to_string(times) + " times");
    }
    r.fits("key count", keys, 2);
    r.charge_keys("key count", keys);
    r.copy_into(ch.key_times, static_cast<std::size_t>(keys), "key times");
    // make_compressed_clip checks the exact size; this only keeps the count within the section.
    const std::uint64_t bytes = r.u64("packed byte count");
    r.fits("packed byte count", bytes, 1);
    r.copy_into(ch.packed, static_cast<std::size_t>(bytes), "packed keys");
  }
  try {
    return make_compressed_clip(std::move(name), duration, data, rest);
  } catch (const std::invalid_argument& e) {
    r.fail(ImportErrorCode::InvalidDocument, e.what());
  }
}

}  // namespace

// Version 2: per skin, its compressed clips; each also becomes the skin's authored clip of its
// key (what it plays), which SKIN left out.
void read_compressed_clips(SectionReader& r, Model& model) {
  read_skin_count(r, model);
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    const auto scope = r.enter("skin", s);
    Skin& skin = model.skins[s];
    const std::size_t clips = object_count(r, "clip count", kCompressedClipMinBytes);
    // The skin's rest pose, shared by its clips (none when the skin's sizes disagree: its clips
    // are then refused for their joint count anyway).
    const auto rest = clips > 0 && skin.data.bind_pose.size() == static_cast<std::size_t>(skin.data.bone_count)
                          ? compressed_rest_pose(skin.data.bind_pose)
                          : nullptr;
    for (std::size_t c = 0; c < clips; ++c) {
      const auto clip_scope = r.enter("compressed clip", c);
      std::string key = r.string("clip key");
      if (skin.data.animation_clips.count(key) != 0) {
        r.fail(ImportErrorCode::InvalidDocument, "clip '" + key + "' is also stored uncompressed, or twice");
      }
      RuntimeClip clip = read_compressed_clip(r, skin.data.bone_count, rest);
      // Rebuilding the authored clip makes at most one key per channel key (counted above).
      r.charge("decompressed keys", clip.key_count() * sizeof(Keyframe));
      AnimationClip authored = decompress_clip(clip);
      authored.target_space = ClipTargetSpace::JointPalette;
      skin.data.animation_clips.emplace(key, std::move(authored));
      skin.compressed_clips.emplace(std::move(key), std::move(clip));
    }
  }
}

}  // namespace marrow::native
