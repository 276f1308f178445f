// The native reader's compressed clips (section CCLP): the input is a CCLP payload, placed in a
// valid file of the demo character's skeleton and clips (meshes left out, so runs stay fast),
// then read and played, and every compressed clip sampled along a fixed schedule of times by a
// context that caches decoded keys and one that does not: their poses must be the same bits
// (X1: the cache never changes a result). Seeds: with MARROW_FUZZ_SEED_DIR set, the target first writes there the
// payloads of the demo's clips compressed at three tolerances, keyed and segmented, and as poses
// (each track held at its middle key, read back with patched channels) (scripts/fuzz-run does
// this).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include "fuzz_options.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/native/native_format.hpp"
#include "marrow/model/compress_model_clips.hpp"
#include "marrow/runtime/sampling_job.hpp"
#include "demo/demo_character.hpp"
#include "simd_choice.hpp"

namespace {

using Bytes = std::vector<std::byte>;

constexpr std::size_t kHeader = 24, kSectionHeader = 16;

std::uint32_t tag(const char (&s)[5]) {
  std::uint32_t t;
  std::memcpy(&t, s, 4);
  return t;
}

marrow::Model base_model(float tolerance, bool segmented = false, bool poses = false) {
  marrow::Model model = marrow::make_demo_character();
  model.meshes.clear();
  for (marrow::Skin& skin : model.skins) {
    skin.meshes.clear();
    if (!poses) continue;
    for (auto& [name, clip] : skin.data.animation_clips)
      for (marrow::BoneTrack& track : clip.tracks) track.keys = {track.keys[track.keys.size() / 2]};
  }
  for (marrow::ModelAnimation& a : model.animations) a.morph_channels.clear();
  marrow::compress_model_clips(model, marrow::ClipCompression{tolerance, 0.1f, segmented});
  return model;
}

// The file's sections as (tag, flags, payload) in order; the writer's output is well framed.
struct Section {
  std::uint32_t tag, flags;
  Bytes payload;
};
std::vector<Section> split(const Bytes& file) {
  std::vector<Section> out;
  for (std::size_t pos = kHeader; pos < file.size();) {
    Section s;
    std::uint64_t length;
    std::memcpy(&s.tag, file.data() + pos, 4);
    std::memcpy(&s.flags, file.data() + pos + 4, 4);
    std::memcpy(&length, file.data() + pos + 8, 8);
    s.payload.assign(file.begin() + static_cast<std::ptrdiff_t>(pos + kSectionHeader),
                     file.begin() + static_cast<std::ptrdiff_t>(pos + kSectionHeader + length));
    pos += kSectionHeader + length;
    out.push_back(std::move(s));
  }
  return out;
}

// The base file with the CCLP payload replaced.
Bytes with_payload(const Bytes& base, const std::vector<Section>& sections, std::span<const std::byte> payload) {
  Bytes out(base.begin(), base.begin() + kHeader);
  for (const Section& s : sections) {
    const bool cclp = s.tag == tag("CCLP");
    const std::uint64_t length = cclp ? payload.size() : s.payload.size();
    const std::size_t at = out.size();
    out.resize(at + kSectionHeader);
    std::memcpy(out.data() + at, &s.tag, 4);
    std::memcpy(out.data() + at + 4, &s.flags, 4);
    std::memcpy(out.data() + at + 8, &length, 8);
    if (cclp) out.insert(out.end(), payload.begin(), payload.end());
    else out.insert(out.end(), s.payload.begin(), s.payload.end());
  }
  const std::uint64_t length = out.size();
  std::memcpy(out.data() + 16, &length, 8);
  return out;
}

const Bytes& base_file() {
  static const Bytes file = marrow::write_native(base_model(0.001f));
  return file;
}

// Forward in small steps, backwards, seeks, and the far ends of time, cached against uncached.
void compare_cached(const marrow::RuntimeClip& clip) {
  using marrow::Ticks;
  marrow::SamplingContext cached(clip), plain(clip.joint_count());
  std::vector<marrow::TrsBlock> a(marrow::pose_block_count(clip.joint_count())), b(a.size());
  // Unsigned arithmetic: a hostile duration only makes other times (no overflow).
  const auto d = static_cast<std::uint64_t>(clip.duration().count());
  const std::uint64_t step = std::max<std::uint64_t>(d / 37, 1);
  std::vector<std::int64_t> times;
  for (std::uint64_t i = 0; i < 40; ++i) times.push_back(static_cast<std::int64_t>((i - 1) * step));
  for (std::uint64_t i = 0; i < 14; ++i) times.push_back(static_cast<std::int64_t>(d - 3 * i * step));
  for (std::int64_t t : {std::int64_t{0}, static_cast<std::int64_t>(d / 2), INT64_MIN, INT64_MAX, std::int64_t{-1}}) {
    times.push_back(t);
  }
  for (std::int64_t t : times) {
    if (!marrow::SamplingJob{&clip, Ticks{t}, &cached, a}.run() || !marrow::SamplingJob{&clip, Ticks{t}, &plain, b}.run()) {
      std::abort();
    }
    if (std::memcmp(a.data(), b.data(), a.size() * sizeof(marrow::TrsBlock)) != 0) std::abort();
  }
}

const std::vector<Section>& base_sections() {
  static const std::vector<Section> sections = split(base_file());
  return sections;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("MARROW_FUZZ_SEED_DIR")) {
    // The model's CCLP payload as seed `name`.
    const auto seed = [dir](const std::string& name, const marrow::Model& model) {
      for (const Section& s : split(marrow::write_native(model))) {
        if (s.tag != tag("CCLP")) continue;
        std::ofstream out(std::string(dir) + "/" + name, std::ios::binary);
        out.write(reinterpret_cast<const char*>(s.payload.data()), static_cast<std::streamsize>(s.payload.size()));
      }
    };
    for (bool segmented : {false, true}) {
      for (float tolerance : {0.01f, 0.001f, 0.00002f})
        seed((segmented ? "demo_cclp_segmented_" : "demo_cclp_") + std::to_string(tolerance), base_model(tolerance, segmented));
    }
    seed("demo_cclp_pose", base_model(0.001f, false, true));
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  marrow::fuzz::use_simd_choice_of(size);
  const Bytes file = with_payload(base_file(), base_sections(), {reinterpret_cast<const std::byte*>(data), size});
  marrow::Model model;
  try {
    model = marrow::read_native(file, marrow::fuzz::options().limits);
  } catch (const marrow::ImportError&) {
    return 0;
  }
  for (const marrow::Skin& skin : model.skins) {
    for (const auto& [name, clip] : skin.compressed_clips) compare_cached(clip);
  }
  marrow::fuzz::work_out(model);
  return 0;
}
