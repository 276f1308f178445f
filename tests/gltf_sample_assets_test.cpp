// The real sample files under ../shared/assets/gltf: every .gltf and .glb parses, its buffers
// load, every accessor reads, and writing the document back gives the same document.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gltf_test_util.hpp"
#include "marrow/io/gltf/detail/accessor_reader.hpp"
#include "marrow/io/gltf/detail/gltf_buffers.hpp"

namespace marrow {
namespace {

const std::filesystem::path kGltfAssets = std::filesystem::path(MARROW_SHARED_ASSETS) / "gltf";

std::vector<std::byte> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(chars.size());
  std::copy(chars.begin(), chars.end(), reinterpret_cast<char*>(out.data()));
  return out;
}

struct Loaded {
  gltf::GltfAsset asset;
  std::vector<Diagnostic> diagnostics;
};

Loaded load(const std::filesystem::path& path) {
  Loaded l;
  const std::vector<std::byte> bytes = read_file(path);
  const std::filesystem::path folder = path.parent_path();
  gltf::BufferSources sources;
  sources.base_dir = &folder;
  l.asset = gltf::read_gltf_asset(bytes, sources, {}, l.diagnostics);  // as the file holds it: nothing decoded
  return l;
}

std::vector<std::filesystem::path> sample_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kGltfAssets)) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".gltf" || ext == ".glb")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

#define SKIP_WITHOUT_ASSETS()                                                                             \
  if (!std::filesystem::is_directory(kGltfAssets)) {                                                      \
    GTEST_SKIP() << "sample assets not found at " << kGltfAssets << " (../shared/assets is not present)"; \
  }

TEST(GltfSampleAssets, EveryFileParsesAndEveryAccessorReads) {
  SKIP_WITHOUT_ASSETS();
  const std::vector<std::filesystem::path> files = sample_files();
  EXPECT_GE(files.size(), 9u);
  for (const std::filesystem::path& path : files) {
    SCOPED_TRACE(path.string());
    Loaded l;
    ASSERT_NO_THROW(l = load(path));
    const gltf::Document& d = l.asset.document;
    std::vector<float> values;
    for (std::uint32_t a = 0; a < d.accessors.size(); ++a) {
      ASSERT_NO_THROW(gltf::read_accessor_floats(l.asset, a, {}, values)) << "accessor " << a;
      EXPECT_EQ(values.size(), d.accessors[a].count * gltf::component_count(d.accessors[a].type));
      const gltf::ComponentType t = d.accessors[a].component_type;
      if (t != gltf::ComponentType::Float && !d.accessors[a].normalized) {
        std::vector<std::uint32_t> ints;
        ASSERT_NO_THROW(gltf::read_accessor_uints(l.asset, a, {}, ints)) << "accessor " << a;
      }
    }
    // Written and read back: the same document.
    EXPECT_TRUE(test::reparse(d) == d);
  }
}

TEST(GltfSampleAssets, FoxReadsStridedAnimationAndSkinData) {
  SKIP_WITHOUT_ASSETS();
  const Loaded l = load(kGltfAssets / "Fox" / "Fox.gltf");
  const gltf::Document& d = l.asset.document;
  ASSERT_EQ(d.skins.size(), 1u);
  EXPECT_EQ(d.skins[0].joints.size(), 24u);
  const Diagnostic* note = find_diagnostic(l.diagnostics, "byte-stride-on-non-vertex-data");
  ASSERT_NE(note, nullptr);
  std::vector<float> ibm;
  gltf::read_accessor_floats(l.asset, d.skins[0].inverse_bind_matrices, {}, ibm);
  EXPECT_EQ(ibm.size(), 24u * 16u);
  for (std::size_t m = 0; m < 24; ++m) EXPECT_FLOAT_EQ(ibm[m * 16 + 15], 1.f) << "matrix " << m;
  // Animation end times from the file's accessor max values: 3.4167, 0.7083, 1.1583 s.
  ASSERT_EQ(d.animations.size(), 3u);
  for (const gltf::Animation& animation : d.animations) {
    float last = 0.f;
    for (const gltf::AnimationSampler& s : animation.samplers) {
      std::vector<float> times;
      gltf::read_accessor_floats(l.asset, s.input, {}, times);
      ASSERT_FALSE(times.empty());
      EXPECT_TRUE(std::is_sorted(times.begin(), times.end()));
      last = std::max(last, times.back());
      std::vector<float> values;
      gltf::read_accessor_floats(l.asset, s.output, {}, values);
      if (d.accessors[s.output].type == gltf::AccessorType::Vec4) {  // unit quaternions
        for (std::size_t k = 0; k + 3 < values.size(); k += 4) {
          const float len2 = values[k] * values[k] + values[k + 1] * values[k + 1] + values[k + 2] * values[k + 2] +
                             values[k + 3] * values[k + 3];
          EXPECT_NEAR(len2, 1.f, 1e-3f);
        }
      }
    }
    EXPECT_NEAR(last,
                animation.name == "Survey" ? 3.4167f
                : animation.name == "Walk" ? 0.7083f
                                           : 1.1583f,
                1e-3f)
        << animation.name;
  }
}

TEST(GltfSampleAssets, CesiumManHasANodeMatrix) {
  SKIP_WITHOUT_ASSETS();
  const Loaded l = load(kGltfAssets / "CesiumMan" / "cesium_man.gltf");
  const gltf::Document& d = l.asset.document;
  ASSERT_FALSE(d.nodes.empty());
  EXPECT_TRUE(d.nodes[0].has_matrix);
  EXPECT_EQ(d.texture_count, 1u);
  ASSERT_EQ(d.images.size(), 1u);
  EXPECT_EQ(d.images[0].uri.rfind("data:image/jpeg;base64,", 0), 0u);
}

TEST(GltfSampleAssets, SimpleSparseAccessorSubstitutesThreeVertices) {
  SKIP_WITHOUT_ASSETS();
  const Loaded l = load(kGltfAssets / "SimpleSparseAccessor" / "SimpleSparseAccessor.gltf");
  ASSERT_TRUE(l.asset.document.accessors[1].sparse.has_value());
  std::vector<float> positions;
  gltf::read_accessor_floats(l.asset, 1, {}, positions);
  ASSERT_EQ(positions.size(), 14u * 3u);
  auto vertex = [&](std::size_t i) {
    return std::vector<float>(positions.begin() + long(i * 3), positions.begin() + long(i * 3 + 3));
  };
  EXPECT_EQ(vertex(7), (std::vector<float>{0, 1, 0}));  // untouched
  EXPECT_EQ(vertex(8), (std::vector<float>{1, 2, 0}));
  EXPECT_EQ(vertex(10), (std::vector<float>{3, 3, 0}));
  EXPECT_EQ(vertex(12), (std::vector<float>{5, 4, 0}));
  EXPECT_EQ(vertex(13), (std::vector<float>{6, 1, 0}));
}

TEST(GltfSampleAssets, TriangleReadsAnExternalBinFile) {
  SKIP_WITHOUT_ASSETS();
  const Loaded l = load(kGltfAssets / "Triangle" / "triangle.gltf");
  EXPECT_EQ(l.asset.document.buffers[0].uri, "triangle.bin");
  EXPECT_EQ(l.asset.buffers[0].size(), l.asset.document.buffers[0].byte_length);
}

TEST(GltfSampleAssets, GlbHandsHaveBinChunks) {
  SKIP_WITHOUT_ASSETS();
  for (const char* name : {"left.glb", "right.glb"}) {
    const Loaded l = load(kGltfAssets / "WebXRGenericHand" / name);
    EXPECT_FALSE(l.asset.document.skins.empty()) << name;
    EXPECT_TRUE(l.asset.document.buffers[0].uri.empty()) << name;
  }
}

}  // namespace
}  // namespace marrow
