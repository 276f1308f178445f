// Compressed clips on the whole shared clip set of issue 31: the glTF assets, big_skinned, the
// BVH motion capture and the FBX skin clips, each in metres (BVH and FBX scaled at import), so
// the default bound, 1 mm at 10 cm, means the same everywhere.
//
// With MARROW_ACL_RAW_DIR set, the export test also writes every clip as ACL probe input
// (../shared/tools/acl-probe/README.md: the source clip sampled at its key rate, root prefix
// folded into the roots so both sides measure in the same model space) and one line per clip
// to index.tsv there; tests/compression_vs_acl.py runs the probe on them for the table of
// docs/clip-compression.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "compression_test_util.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/runtime/offline/clip_compression.hpp"
#include "marrow/runtime/offline/compressed_clip_data.hpp"

namespace marrow {
namespace {

namespace fs = std::filesystem;

struct SetFile {
  fs::path path;
  float unit_scale = 1.f;  // to metres
};

// BVH files are in their capture's units (AnimatedDrawings: inches; three.js and Bandai Namco:
// centimetres), FBX in centimetres (UnitScaleFactor 1); glTF is metres by the spec.
std::vector<SetFile> shared_clip_set(bool with_gltf) {
  std::vector<SetFile> files;
  const fs::path root = fs::path(MARROW_SHARED_ASSETS);
  const auto add_tree = [&](const fs::path& dir, const std::string& ext, float scale) {
    if (!fs::is_directory(dir)) return;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      const std::string e = entry.path().extension().string();
      if (e == ext || (ext == ".gltf" && e == ".glb")) files.push_back({entry.path(), scale});
    }
  };
  if (with_gltf) {
    add_tree(root / "gltf", ".gltf", 1.f);
    if (fs::exists(root / "perf" / "big_skinned.glb")) files.push_back({root / "perf" / "big_skinned.glb", 1.f});
  }
  add_tree(root / "bvh", ".bvh", 0.01f);
  for (SetFile& f : files) {
    if (f.path.parent_path().filename() == "animateddrawings") f.unit_scale = 0.0254f;
  }
  add_tree(root / "fbx" / "pab", ".fbx", 0.01f);  // fbx/cube.fbx is FBX 6.1, which the importer refuses
  std::sort(files.begin(), files.end(), [](const SetFile& a, const SetFile& b) { return a.path < b.path; });
  return files;
}

Model load_in_metres(const SetFile& f) {
  ModelFileOptions options;
  options.import.max_palette = 256;
  options.import.unit_scale = f.unit_scale;
  return load_model_file(f.path, options);
}

std::string set_label(const fs::path& path) {
  return fs::relative(path, fs::path(MARROW_SHARED_ASSETS)).generic_string();
}

// Every skin clip of the files (each file loaded in metres), with its label in failures.
template <class Fn>
int for_each_set_clip(const std::vector<SetFile>& files, Fn fn) {
  int clips = 0;
  for (const SetFile& f : files) {
    const Model model = load_in_metres(f);
    for (const Skin& skin : model.skins) {
      for (const auto& [name, clip] : skin.data.animation_clips) {
        SCOPED_TRACE(set_label(f.path) + " clip " + name);
        fn(set_label(f.path), name, clip, skin.data);
        ++clips;
      }
    }
  }
  return clips;
}

// The clip's measured error, expected under the bound; returned for the report.
double expect_under_bound(const AnimationClip& clip, const SkinningData& skin, const RuntimeClip& compressed,
                          const ClipCompression& options, std::mt19937& rng) {
  int worst_joint = -1;
  const double worst = test::measured_error(clip, skin, compressed, options.distance, rng, &worst_joint);
  EXPECT_LT(worst, options.tolerance) << "joint " << worst_joint;
  return worst;
}

TEST(CompressedClipSet, X1_MotionCaptureStaysUnderTheBound) {
  const std::vector<SetFile> files = shared_clip_set(false);
  if (files.empty()) GTEST_SKIP() << "no BVH or FBX under " << MARROW_SHARED_ASSETS;
  const ClipCompression options;
  std::mt19937 rng(3);
  const int clips = for_each_set_clip(files, [&](const std::string& label, const std::string& name, const AnimationClip& clip,
                                                 const SkinningData& skin) {
    const RuntimeClip compressed = compress_clip(clip, skin, options);
    const double worst = expect_under_bound(clip, skin, compressed, options, rng);
    std::printf("[ measured ] %s '%s': %d joints, %zu bytes, max displacement %.3g\n", label.c_str(), name.c_str(), skin.bone_count,
                compressed.size_in_bytes(), worst);
  });
  EXPECT_GE(clips, 26);  // 2 + 24 BVH clips; the FBX skin clips
}

// X1 for segmented clips on every clip of the set, glTF and big_skinned included; each clip's
// bytes beside the keyed form's.
TEST(CompressedClipSet, X1_SegmentedClipsStayUnderTheBound) {
  const std::vector<SetFile> files = shared_clip_set(true);
  if (files.empty()) GTEST_SKIP() << "no shared assets under " << MARROW_SHARED_ASSETS;
  ClipCompression options;
  options.segmented = true;
  std::mt19937 rng(5);
  const int clips = for_each_set_clip(files, [&](const std::string& label, const std::string& name, const AnimationClip& clip,
                                                 const SkinningData& skin) {
    const RuntimeClip compressed = compress_clip(clip, skin, options);
    const double worst = expect_under_bound(clip, skin, compressed, options, rng);
    EXPECT_FALSE(compressed.caches_keys());
    const RuntimeClip keyed = compress_clip(clip, skin, ClipCompression{});
    std::printf("[ segmented ] %s '%s': %zu bytes (keyed %zu), max displacement %.3g\n", label.c_str(), name.c_str(),
                compressed.size_in_bytes(), keyed.size_in_bytes(), worst);
  });
  EXPECT_GE(clips, 59);
}

// The clip's own rate: its distinct key times, uniform (within 1 %) over their span, or the
// median gap between them (a STEP key pair a tick apart must not set the rate).
struct ClipSampling {
  Ticks first{0};
  double step = 0;  // ticks
  std::size_t count = 1;
};

ClipSampling clip_sampling(const AnimationClip& clip) {
  std::vector<std::int64_t> times;
  for (const BoneTrack& track : clip.tracks) {
    for (const Keyframe& key : track.keys) times.push_back(key.time.count());
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  ClipSampling s;
  if (times.size() < 2) return s;
  std::vector<std::int64_t> gaps;
  for (std::size_t i = 1; i < times.size(); ++i) gaps.push_back(times[i] - times[i - 1]);
  std::sort(gaps.begin(), gaps.end());
  const double span = static_cast<double>(times.back() - times.front());
  const bool uniform = gaps.back() - gaps.front() <= gaps.front() / 100;
  const double step = uniform ? span / static_cast<double>(gaps.size()) : static_cast<double>(gaps[gaps.size() / 2]);
  s.first = Ticks{times.front()};
  s.count = std::min<std::size_t>(static_cast<std::size_t>(std::llround(span / step)) + 1, 100000);
  s.step = span / static_cast<double>(s.count - 1);
  return s;
}

// The probe's raw format: u32 joints, u32 samples, f32 rate, i32 parents, then per joint per
// sample a rotation (x y z w), translation and scale, local to the parent (roots: to the model).
void write_raw(const fs::path& out, const AnimationClip& clip, const SkinningData& skin, const ClipSampling& s) {
  const RuntimeClip source = compile_clip(clip, skin);
  const auto joints = static_cast<std::size_t>(skin.bone_count);
  SamplingContext context(joints);
  std::vector<TrsBlock> pose(pose_block_count(joints));
  std::vector<float> values(joints * s.count * 10);
  for (std::size_t i = 0; i < s.count; ++i) {
    const Ticks t{s.first.count() + std::llround(s.step * static_cast<double>(i))};
    SamplingJob{&source, t, &context, pose}.run();
    for (std::size_t j = 0; j < joints; ++j) {
      Trs local = pose_joint(pose, j);
      if (skin.skeleton_hierarchy[j] < 0 && has_root_prefix(skin)) {
        local = decompose_trs(skin.skeleton_root_prefix[j] * compose_trs(local));
      }
      float* v = &values[(j * s.count + i) * 10];
      const float row[10] = {local.rotation.x,    local.rotation.y,    local.rotation.z,    local.rotation.w, local.translation.x,
                             local.translation.y, local.translation.z, local.scale.x,       local.scale.y,    local.scale.z};
      std::copy(row, row + 10, v);
    }
  }
  std::ofstream file(out, std::ios::binary);
  const auto n = static_cast<std::uint32_t>(joints), count = static_cast<std::uint32_t>(s.count);
  const float rate = s.step > 0 ? static_cast<float>(static_cast<double>(kTicksPerSecond) / s.step) : 30.f;
  file.write(reinterpret_cast<const char*>(&n), 4).write(reinterpret_cast<const char*>(&count), 4).write(reinterpret_cast<const char*>(&rate), 4);
  for (int parent : skin.skeleton_hierarchy) file.write(reinterpret_cast<const char*>(&parent), 4);
  file.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
}

// Where a compressed clip's bytes go, besides the per-joint blocks: packed keys, directories
// (8 bytes per 32 times per distinct key set), the time table (4 bytes a time when the times span
// less than 2^31 ticks, else 8).
std::string byte_layout(const RuntimeClip& clip) {
  const CompressedClipData data = compressed_clip_data(clip);
  std::size_t packed = 0;
  std::vector<std::vector<std::uint16_t>> sets;
  for (const CompressedChannel& ch : data.channels) {
    packed += ch.packed.size();
    if (std::find(sets.begin(), sets.end(), ch.key_times) == sets.end()) sets.push_back(ch.key_times);
  }
  const std::size_t words = (data.times.size() + kCompressedTimesPerWord - 1) / kCompressedTimesPerWord;
  return std::to_string(packed) + "\t" + std::to_string(sets.size() * words * 8) + "\t" + std::to_string(data.times.size() * (data.times.back() - data.times.front() < Ticks{std::int64_t{1} << 31} ? 4 : 8));
}

TEST(CompressedClipSet, ExportForTheAclProbe) {
  const char* dir = std::getenv("MARROW_ACL_RAW_DIR");
  if (dir == nullptr) GTEST_SKIP() << "MARROW_ACL_RAW_DIR not set";
  const ClipCompression options;
  std::mt19937 rng(4);
  std::ofstream index(fs::path(dir) / "index.tsv");
  index << "clip\tjoints\tsamples\trate\tmarrow_bytes\tmarrow_error\traw\tkeys\tdirectories\ttimes\n";
  int n = 0;
  for (const SetFile& f : shared_clip_set(true)) {
    const Model model = load_in_metres(f);
    for (const Skin& skin : model.skins) {
      for (const auto& [name, clip] : skin.data.animation_clips) {
        const RuntimeClip compressed = compress_clip(clip, skin.data, options);
        int worst_joint = -1;
        const double error = test::measured_error(clip, skin.data, compressed, options.distance, rng, &worst_joint);
        const ClipSampling s = clip_sampling(clip);
        const fs::path raw = fs::path(dir) / (std::to_string(n++) + ".raw");
        write_raw(raw, clip, skin.data, s);
        index << set_label(f.path) << " " << name << "\t" << skin.data.bone_count << "\t" << s.count << "\t"
              << (s.step > 0 ? static_cast<double>(kTicksPerSecond) / s.step : 0) << "\t" << compressed.size_in_bytes() << "\t"
              << error << "\t" << raw.string() << "\t" << byte_layout(compressed) << "\n";
      }
    }
  }
}

}  // namespace
}  // namespace marrow
