// The native files of the malformed corpus: compressed clips (CCLP) and stored frame bounds
// (FBND), each wrong in one way.
#include <cstring>
#include <functional>
#include <limits>
#include <string>

#include "malformed_corpus.hpp"
#include "marrow/io/native/native_format.hpp"
#include "marrow/model/compress_model_clips.hpp"
#include "demo/demo_character.hpp"
#include "demo/demo_motion_database.hpp"

namespace marrow::test {

namespace {

using C = ImportErrorCode;

// Native files with compressed clips (section CCLP): the built-in character's skeleton and clips
// (no meshes), compressed at the default tolerance, with the offsets of the CCLP fields.
struct NativeCclp {
  std::vector<std::byte> file;
  std::size_t payload = 0;  // offset of the CCLP payload
  std::size_t skin_count = 0, first_key = 0, second_key = 0, time_count = 0, times = 0, joint_count = 0, animated = 0;
  std::size_t joints = 0, n_times = 0;
  struct Channel {
    std::size_t bits, uniform, min, step, key_count, key_times, packed_count;
    std::size_t keys;
    std::size_t extent = 0, segment_count = 0, segments = 0;  // a segmented channel's (form 2)
  };
  std::vector<Channel> channels;  // of the first clip
};

template <class T>
T get(const std::vector<std::byte>& b, std::size_t at) {
  T v;
  std::memcpy(&v, b.data() + at, sizeof(T));
  return v;
}
template <class T>
void put(std::vector<std::byte>& b, std::size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof(T));
}

NativeCclp native_cclp(bool segmented = false) {
  Model model = make_demo_character();
  model.meshes.clear();
  for (Skin& skin : model.skins) skin.meshes.clear();
  for (ModelAnimation& a : model.animations) a.morph_channels.clear();
  ClipCompression options;
  options.segmented = segmented;
  compress_model_clips(model, options);
  NativeCclp n;
  n.file = write_native(model);
  const std::vector<std::byte>& b = n.file;
  std::size_t pos = 24;
  while (get<std::uint32_t>(b, pos) != 0x504C4343u) pos += 16 + get<std::uint64_t>(b, pos + 8);  // "CCLP"
  n.payload = pos + 16;
  std::size_t at = n.payload;
  n.skin_count = at;
  at += 8 + 8;  // skin count, clip count of skin 0
  const auto skip_string = [&] { at += 4 + get<std::uint32_t>(b, at); };
  n.first_key = at;
  skip_string();
  skip_string();  // name
  at += 8;        // duration
  n.time_count = at;
  n.n_times = get<std::uint64_t>(b, at);
  n.times = at + 8;
  at = n.times + 8 * n.n_times;
  n.joint_count = at;
  n.joints = get<std::uint64_t>(b, at);
  n.animated = at + 8;
  at = n.animated + n.joints;
  for (std::size_t c = 0; c < 3 * n.joints; ++c) {
    NativeCclp::Channel ch{};
    ch.bits = at;
    ch.uniform = at + 3;
    ch.min = at + 4;
    ch.step = at + 16;
    ch.key_count = at + 28;
    if (get<std::uint8_t>(b, ch.uniform) == 2) {  // extent, then the segments before the keys
      ch.extent = at + 28;
      ch.segment_count = at + 40;
      ch.segments = at + 48;
      ch.key_count = ch.segments + 11 * get<std::uint64_t>(b, ch.segment_count);
    }
    ch.keys = get<std::uint64_t>(b, ch.key_count);
    ch.key_times = ch.key_count + 8;
    ch.packed_count = ch.key_times + 2 * ch.keys;
    at = ch.packed_count + 8 + get<std::uint64_t>(b, ch.packed_count);
    n.channels.push_back(ch);
  }
  n.second_key = at;
  return n;
}

// The first rotation channel of the first clip with at least `keys` keys.
const NativeCclp::Channel& rotation_channel(const NativeCclp& n, std::size_t keys) {
  for (std::size_t c = 1; c < n.channels.size(); c += 3) {
    if (n.channels[c].keys >= keys) return n.channels[c];
  }
  throw std::logic_error("malformed corpus: the demo character has no rotation channel of " + std::to_string(keys) + " keys");
}

// The first segmented channel of the first clip.
const NativeCclp::Channel& segmented_channel(const NativeCclp& n) {
  for (const NativeCclp::Channel& ch : n.channels) {
    if (ch.segments != 0) return ch;
  }
  throw std::logic_error("malformed corpus: the demo character has no segmented channel");
}

std::vector<std::byte> edited_native(const std::function<void(const NativeCclp&, std::vector<std::byte>&)>& edit,
                                     bool segmented = false) {
  const NativeCclp n = native_cclp(segmented);
  std::vector<std::byte> b = n.file;
  edit(n, b);
  return b;
}

// The built-in character's native file with the offset of its FBND payload (frame bounds: skin
// count, then per skin joint_count, box count, joints, centres, extents; mesh count, mesh boxes).
std::vector<std::byte> edited_native_bounds(const std::function<void(std::size_t, std::vector<std::byte>&)>& edit) {
  std::vector<std::byte> b = write_native(make_demo_character());
  std::size_t pos = 24;
  while (get<std::uint32_t>(b, pos) != 0x444E4246u) pos += 16 + get<std::uint64_t>(b, pos + 8);  // "FBND"
  edit(pos + 16, b);
  return b;
}

// The built-in character with a made-up motion database (demo_motion_database.hpp) and the
// offsets of its MMDB fields: rate, feature count, mean, scale, range count, per range its name,
// animation, first_row, rows and frames, then the row count and the rows.
struct NativeMmdb {
  std::vector<std::byte> file;
  std::size_t rate = 0, columns = 0, mean = 0, scale = 0, range_count = 0, row_count = 0, rows = 0;
  struct Range {
    std::size_t animation, first_row, rows, frames;
  };
  std::vector<Range> ranges;
};

NativeMmdb native_mmdb() {
  NativeMmdb n;
  n.file = write_native(make_demo_character_with_motion_database());
  const std::vector<std::byte>& b = n.file;
  std::size_t pos = 24;
  while (get<std::uint32_t>(b, pos) != 0x42444D4Du) pos += 16 + get<std::uint64_t>(b, pos + 8);  // "MMDB"
  n.rate = pos + 16;
  n.columns = n.rate + 8;
  n.mean = n.columns + 8;
  n.scale = n.mean + 27 * 4;
  n.range_count = n.scale + 27 * 4;
  std::size_t at = n.range_count + 8;
  for (std::uint64_t k = 0; k < get<std::uint64_t>(b, n.range_count); ++k) {
    at += 4 + get<std::uint32_t>(b, at);  // the name
    n.ranges.push_back({at, at + 4, at + 12, at + 20});
    at += 28;
  }
  n.row_count = at;
  n.rows = at + 8;
  return n;
}

std::vector<std::byte> edited_native_mmdb(const std::function<void(const NativeMmdb&, std::vector<std::byte>&)>& edit) {
  const NativeMmdb n = native_mmdb();
  std::vector<std::byte> b = n.file;
  edit(n, b);
  return b;
}

}  // namespace

// Motion databases (MMDB) over the built-in character's clips (Wave 2 s, Curl 3 s: 61 and 121
// rows at 60 Hz), each wrong in one way; NativeMotionDatabase.MalformedSectionsNameTheField
// checks that each message names the field.
void append_malformed_motion_databases(std::vector<MalformedFile>& out) {
  const auto add = [&](std::string name, std::vector<std::byte> bytes, C code, std::string why) {
    out.push_back(MalformedFile{std::move(name), std::move(bytes), code, std::move(why)});
  };
  using M = NativeMmdb;
  constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
  add("native_mmdb_rate_nan.marrow",
      edited_native_mmdb([](const M& n, auto& b) { put<double>(b, n.rate, std::numeric_limits<double>::quiet_NaN()); }),
      C::InvalidDocument, "a motion database sampled at NaN frames per second");
  add("native_mmdb_frames_not_duration.marrow", edited_native_mmdb([](const M& n, auto& b) { put<double>(b, n.rate, 120.0); }),
      C::InvalidDocument, "a motion database at 120 Hz whose ranges count frames at 60 Hz");
  add("native_mmdb_feature_count.marrow", edited_native_mmdb([](const M& n, auto& b) { put<std::uint64_t>(b, n.columns, 26); }),
      C::InvalidDocument, "26 features per row (there are 27)");
  add("native_mmdb_mean_inf.marrow",
      edited_native_mmdb([](const M& n, auto& b) { put<float>(b, n.mean, std::numeric_limits<float>::infinity()); }),
      C::InvalidDocument, "an infinite feature mean");
  add("native_mmdb_scale_negative.marrow", edited_native_mmdb([](const M& n, auto& b) { put<float>(b, n.scale + 12, -1.f); }),
      C::InvalidDocument, "a negative feature scale");
  add("native_mmdb_range_count_huge.marrow",
      edited_native_mmdb([](const M& n, auto& b) { put<std::uint64_t>(b, n.range_count, std::uint64_t{1} << 40); }),
      C::LimitExceeded, "2^40 ranges");
  add("native_mmdb_row_count_huge.marrow",
      edited_native_mmdb([](const M& n, auto& b) { put<std::uint64_t>(b, n.row_count, std::uint64_t{1} << 40); }),
      C::LimitExceeded, "2^40 rows");
  add("native_mmdb_rows_short.marrow",
      edited_native_mmdb([](const M& n, auto& b) { put<std::uint64_t>(b, n.row_count, get<std::uint64_t>(b, n.row_count) + 1); }),
      C::InvalidContainer, "one row more than the section holds");
  add("native_mmdb_first_row_gap.marrow",
      edited_native_mmdb([](const M& n, auto& b) { put<std::uint64_t>(b, n.ranges[1].first_row, 62); }), C::InvalidDocument,
      "the second range starts a row after the first one ends");
  add("native_mmdb_rows_past_end.marrow",
      edited_native_mmdb([](const M& n, auto& b) { put<std::uint64_t>(b, n.ranges[1].rows, 122); }), C::InvalidDocument,
      "the last range runs a row past the rows");
  add("native_mmdb_rows_not_frames.marrow",
      edited_native_mmdb([](const M& n, auto& b) { put<std::uint64_t>(b, n.ranges[0].rows, 60); }), C::InvalidDocument,
      "a range of 60 rows over 121 frames (not 61)");
  add("native_mmdb_feature_nan.marrow",
      edited_native_mmdb([&](const M& n, auto& b) { put<float>(b, n.rows + (5 * 27 + 7) * 4, kNan); }), C::InvalidDocument,
      "a NaN feature");
  add("native_mmdb_animation_index.marrow",
      edited_native_mmdb([](const M& n, auto& b) { put<std::int32_t>(b, n.ranges[1].animation, 7); }), C::IndexOutOfRange,
      "a range naming animation 7 of 2");
}

void append_malformed_native(std::vector<MalformedFile>& out) {
  const auto add = [&](std::string name, std::vector<std::byte> bytes, C code, std::string why) {
    out.push_back(MalformedFile{std::move(name), std::move(bytes), code, std::move(why)});
  };
  // Native files with compressed clips (section CCLP): the reader goes through
  // make_compressed_clip, which checks every count, bit width, index and range.
  using N = NativeCclp;
  add("native_version_4.marrow", edited_native([](const N&, auto& b) { put<std::uint32_t>(b, 4, 4); }), C::VersionMismatch,
      "native version 4 (this reader reads 1 to 3)");
  add("native_cclp_truncated.marrow", edited_native([](const N& n, auto& b) {
        // The CCLP payload ends inside a channel's key times; the framing (section and file
        // lengths) says so, so the reader meets the end of the section.
        const std::size_t cut = n.channels[4].key_times + 1;
        const std::size_t end = n.payload + get<std::uint64_t>(b, n.payload - 8);
        b.erase(b.begin() + static_cast<std::ptrdiff_t>(cut), b.begin() + static_cast<std::ptrdiff_t>(end));
        put<std::uint64_t>(b, n.payload - 8, cut - n.payload);
        put<std::uint64_t>(b, 16, b.size());
      }),
      C::InvalidContainer, "CCLP ends inside the first clip's channels (section and file lengths agree)");
  add("native_cclp_skin_count.marrow", edited_native([](const N& n, auto& b) { put<std::uint64_t>(b, n.skin_count, 2); }),
      C::InvalidDocument, "CCLP lists 2 skins, SKIN has 1");
  add("native_cclp_time_count_huge.marrow",
      edited_native([](const N& n, auto& b) { put<std::uint64_t>(b, n.time_count, std::uint64_t{1} << 40); }),
      C::LimitExceeded, "2^40 key times (at most 65535)");
  add("native_cclp_times_not_increasing.marrow",
      edited_native([](const N& n, auto& b) { put<std::int64_t>(b, n.times + 8, get<std::int64_t>(b, n.times)); }),
      C::InvalidDocument, "the second key time equals the first");
  add("native_cclp_times_span_2_52.marrow",
      edited_native([](const N& n, auto& b) {
        put<std::int64_t>(b, n.times + 8 * (n.n_times - 1), get<std::int64_t>(b, n.times) + (std::int64_t{1} << 52));
      }),
      C::InvalidDocument, "the last key time is 2^52 ticks (14 years) after the first");
  add("native_cclp_joint_count.marrow",
      edited_native([](const N& n, auto& b) { put<std::uint64_t>(b, n.joint_count, n.joints + 1); }), C::InvalidDocument,
      "a compressed clip of one joint more than its skin");
  add("native_cclp_animated_flag.marrow", edited_native([](const N& n, auto& b) { b[n.animated] = std::byte{7}; }),
      C::InvalidDocument, "a joint's animated flag is 7");
  add("native_cclp_bits_19.marrow", edited_native([](const N& n, auto& b) { b[rotation_channel(n, 1).bits] = std::byte{19}; }),
      C::InvalidDocument, "a rotation component of 19 bits (at most 18)");
  add("native_cclp_packed_size.marrow", edited_native([](const N& n, auto& b) {
        // Another width: with 8 keys or more, another count of packed bytes.
        const N::Channel& ch = rotation_channel(n, 8);
        b[ch.bits] = std::byte{static_cast<unsigned char>((std::to_integer<unsigned>(b[ch.bits]) + 4) % 19)};
      }),
      C::InvalidDocument, "a bit width that does not match the channel's packed bytes");
  add("native_cclp_uniform_translation.marrow", edited_native([](const N& n, auto& b) { b[n.channels[0].uniform] = std::byte{1}; }),
      C::InvalidDocument, "a translation channel marked uniform (only scales are)");
  add("native_cclp_uniform_flag.marrow", edited_native([](const N& n, auto& b) { b[n.channels[2].uniform] = std::byte{3}; }),
      C::InvalidDocument, "a channel form of 3 (0 keyed, 1 keyed uniform, 2 segmented)");
  // Segmented channels (form 2): their segments are checked by make_compressed_clip too.
  add("native_cclp_segment_stride.marrow",
      edited_native([](const N& n, auto& b) { b[segmented_channel(n).segments + 9] = std::byte{6}; }, true), C::InvalidDocument,
      "a segment sampled every 64 times (stride 6; at most 5)");
  add("native_cclp_segment_range.marrow", edited_native([](const N& n, auto& b) {
        b[segmented_channel(n).segments] = std::byte{200};      // low
        b[segmented_channel(n).segments + 3] = std::byte{100};  // extent
      }, true),
      C::InvalidDocument, "a segment's range past its channel's (200 + 100 255ths)");
  add("native_cclp_segment_count.marrow", edited_native([](const N& n, auto& b) {
        put<std::uint64_t>(b, segmented_channel(n).segment_count, get<std::uint64_t>(b, segmented_channel(n).segment_count) + 1);
      }, true),
      C::LimitExceeded, "a segmented channel of one segment more than its clip's times make");
  add("native_cclp_segment_bits.marrow", edited_native([](const N& n, auto& b) {
        const std::size_t at = segmented_channel(n).segments + 6;  // the first segment's first width
        b[at] = std::byte{static_cast<unsigned char>((std::to_integer<unsigned>(b[at]) + 9) % 19)};
      }, true),
      C::InvalidDocument, "a segment's bit width that does not match the channel's packed bytes");
  add("native_cclp_segment_extent_nan.marrow", edited_native([](const N& n, auto& b) {
        put<float>(b, segmented_channel(n).extent, std::numeric_limits<float>::quiet_NaN());
      }, true),
      C::InvalidDocument, "a segmented channel's range of NaN extent");
  add("native_cclp_nan_range.marrow",
      edited_native([](const N& n, auto& b) { put<float>(b, n.channels[0].min, std::numeric_limits<float>::quiet_NaN()); }),
      C::InvalidDocument, "a NaN range minimum");
  add("native_cclp_negative_step.marrow", edited_native([](const N& n, auto& b) { put<float>(b, n.channels[0].step, -1.f); }),
      C::InvalidDocument, "a negative quantisation step");
  add("native_cclp_rotation_range.marrow",
      edited_native([](const N& n, auto& b) { put<float>(b, rotation_channel(n, 1).min, -2.f); }), C::InvalidDocument,
      "a rotation range starting at -2 (components lie in [-1, 1])");
  add("native_cclp_key_count.marrow", edited_native([](const N& n, auto& b) {
        put<std::uint64_t>(b, rotation_channel(n, 1).key_count, n.n_times + 1);
      }),
      C::InvalidDocument, "a channel of more keys than the clip has times");
  add("native_cclp_key_past_times.marrow", edited_native([](const N& n, auto& b) {
        const N::Channel& ch = rotation_channel(n, 1);
        put<std::uint16_t>(b, ch.key_times + 2 * (ch.keys - 1), static_cast<std::uint16_t>(n.n_times));
      }),
      C::InvalidDocument, "a key time index past the clip's times");
  add("native_cclp_keys_not_increasing.marrow", edited_native([](const N& n, auto& b) {
        const N::Channel& ch = rotation_channel(n, 2);
        put<std::uint16_t>(b, ch.key_times + 2, get<std::uint16_t>(b, ch.key_times));
      }),
      C::InvalidDocument, "a channel's second key at its first key's time");
  add("native_cclp_stored_twice.marrow", edited_native([](const N& n, auto& b) {
        // The second clip takes the first one's key (the demo's clip keys have the same length).
        std::memcpy(b.data() + n.second_key, b.data() + n.first_key, 4 + get<std::uint32_t>(b, n.first_key));
      }),
      C::InvalidDocument, "two compressed clips under one key");

  // Stored frame bounds (FBND): skin 0's fields start 8 bytes in (after the skin count).
  const auto fbnd = [](std::size_t payload, const std::vector<std::byte>& b) {
    struct {
      std::size_t joint_count, box_count, joints, centers, extents, n;
    } s{};
    s.joint_count = payload + 8;
    s.box_count = payload + 16;
    s.n = get<std::uint64_t>(b, s.box_count);
    s.joints = payload + 24;
    s.centers = s.joints + 4 * s.n;
    s.extents = s.centers + 12 * s.n;
    return s;
  };
  add("native_fbnd_joint_count.marrow", edited_native_bounds([&](std::size_t p, auto& b) {
        put<std::uint64_t>(b, fbnd(p, b).joint_count, get<std::uint64_t>(b, fbnd(p, b).joint_count) + 1);
      }),
      C::InvalidDocument, "frame bounds made for one joint more than the skin has");
  add("native_fbnd_box_count.marrow", edited_native_bounds([&](std::size_t p, auto& b) {
        put<std::uint64_t>(b, fbnd(p, b).box_count, get<std::uint64_t>(b, fbnd(p, b).joint_count) + 1);
      }),
      C::LimitExceeded, "more joint boxes than the skin has joints");
  add("native_fbnd_joints_not_ascending.marrow", edited_native_bounds([&](std::size_t p, auto& b) {
        const auto s = fbnd(p, b);
        put<std::uint32_t>(b, s.joints + 4, get<std::uint32_t>(b, s.joints));
      }),
      C::InvalidDocument, "the second joint box names the first one's joint");
  add("native_fbnd_negative_extent.marrow",
      edited_native_bounds([&](std::size_t p, auto& b) { put<float>(b, fbnd(p, b).extents, -1.f); }), C::InvalidDocument,
      "a joint box of negative extent");
  add("native_fbnd_nan_center.marrow", edited_native_bounds([&](std::size_t p, auto& b) {
        put<float>(b, fbnd(p, b).centers + 4, std::numeric_limits<float>::quiet_NaN());
      }),
      C::InvalidDocument, "a joint box with a NaN centre");
  add("native_fbnd_empty_mesh_box.marrow", edited_native_bounds([&](std::size_t p, auto& b) {
        const auto s = fbnd(p, b);
        b[s.extents + 12 * s.n + 8] = std::byte{1};  // after the mesh count: mesh 0's empty flag
      }),
      C::InvalidDocument, "an empty box for a mesh with vertices (the character has one skin)");
}

}  // namespace marrow::test
