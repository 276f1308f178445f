// The GLB container: writing, reading back, and refusing malformed headers and chunks.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gltf_test_util.hpp"
#include "marrow/io/gltf/detail/accessor_reader.hpp"
#include "marrow/io/gltf/detail/glb.hpp"
#include "marrow/io/gltf/detail/gltf_buffers.hpp"

namespace marrow {
namespace {

using test::refuses;

std::vector<std::byte> bytes_of(std::initializer_list<int> values) {
  std::vector<std::byte> out;
  for (int v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

void put_u32(std::vector<std::byte>& data, std::size_t offset, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) data[offset + std::size_t(i)] = static_cast<std::byte>((v >> (8 * i)) & 0xffu);
}

void append_u32(std::vector<std::byte>& data, std::uint32_t v) {
  data.resize(data.size() + 4);
  put_u32(data, data.size() - 4, v);
}

// A GLB assembled by hand: header then the given chunks (type, payload), lengths as given.
std::vector<std::byte> glb_of(const std::vector<std::pair<std::uint32_t, std::vector<std::byte>>>& chunks) {
  std::vector<std::byte> out;
  append_u32(out, 0x46546C67);
  append_u32(out, 2);
  append_u32(out, 0);
  for (const auto& [type, payload] : chunks) {
    append_u32(out, static_cast<std::uint32_t>(payload.size()));
    append_u32(out, type);
    out.insert(out.end(), payload.begin(), payload.end());
  }
  put_u32(out, 8, static_cast<std::uint32_t>(out.size()));
  return out;
}

std::vector<std::byte> text_bytes(std::string_view s) {
  std::vector<std::byte> out(s.size());
  if (!s.empty()) std::memcpy(out.data(), s.data(), s.size());
  return out;
}

constexpr std::uint32_t kJson = 0x4E4F534A;
constexpr std::uint32_t kBin = 0x004E4942;

TEST(Glb, WriteThenParseGivesTheChunksBack) {
  const std::string json = R"({"asset":{"version":"2.0"}})";  // 27 bytes: padded to 28
  const std::vector<std::byte> bin = bytes_of({1, 2, 3, 4, 5});
  const std::vector<std::byte> file = gltf::write_glb(json, bin);
  ASSERT_EQ(file.size(), 12u + 8 + 28 + 8 + 8);
  EXPECT_TRUE(gltf::is_glb(file));
  const gltf::GlbChunks chunks = gltf::parse_glb(file);
  EXPECT_EQ(chunks.json, json + " ");  // padded with a space
  ASSERT_TRUE(chunks.has_bin);
  ASSERT_EQ(chunks.bin.size(), 8u);  // padded with zeros
  EXPECT_EQ(std::vector<std::byte>(chunks.bin.begin(), chunks.bin.begin() + 5), bin);
  EXPECT_EQ(chunks.bin[7], std::byte{0});
}

TEST(Glb, EmptyBinChunkIsOmitted) {
  const std::vector<std::byte> file = gltf::write_glb(R"({"asset":{"version":"2.0"}})", {});
  const gltf::GlbChunks chunks = gltf::parse_glb(file);
  EXPECT_FALSE(chunks.has_bin);
  EXPECT_TRUE(chunks.bin.empty());
}

TEST(Glb, AssetRoundTripThroughWriteGlbAsset) {
  const gltf::GltfAsset asset = test::sample_asset();
  const std::vector<std::byte> file = gltf::write_glb_asset(asset);
  const gltf::GlbChunks chunks = gltf::parse_glb(file);
  const gltf::Document d = test::parse_json(std::string(chunks.json));
  EXPECT_TRUE(d == asset.document);
  std::vector<Diagnostic> diagnostics;
  gltf::BufferSources sources;
  sources.glb_bin = chunks.bin;
  sources.has_glb_bin = chunks.has_bin;
  gltf::GltfAsset loaded{d, gltf::load_gltf_buffers(d, sources, {}, diagnostics)};
  EXPECT_TRUE(loaded == asset);
  std::vector<float> times;
  gltf::read_accessor_floats(loaded, 2, {}, times);
  EXPECT_EQ(times, (std::vector<float>{0.f, 0.5f, 1.f}));
}

TEST(Glb, UnknownChunksAreSkippedAndTrailingBytesIgnored) {
  std::vector<std::byte> file = glb_of(
      {{kJson, text_bytes("{}  ")}, {kBin, bytes_of({9, 9, 9, 9})}, {0x12345678, bytes_of({0, 0, 0, 0, 0, 0, 0, 0})}});
  file.push_back(std::byte{0x55});  // beyond the declared length
  const gltf::GlbChunks chunks = gltf::parse_glb(file);
  EXPECT_EQ(chunks.json, "{}  ");
  EXPECT_EQ(chunks.bin.size(), 4u);
}

TEST(Glb, UnpaddedJsonChunkIsTolerated) {
  const std::vector<std::byte> file = glb_of({{kJson, text_bytes("{}")}});
  EXPECT_EQ(gltf::parse_glb(file).json, "{}");
}

TEST(Glb, ZeroPaddingOfTheJsonChunkIsDropped) {
  std::vector<std::byte> json = text_bytes("{}");
  json.resize(4, std::byte{0});
  EXPECT_EQ(gltf::parse_glb(glb_of({{kJson, json}})).json, "{}");
}

TEST(GlbRefusal, HeaderProblems) {
  using C = ImportErrorCode;
  EXPECT_TRUE(refuses(
      [] {
        gltf::parse_glb(bytes_of({0x67, 0x6C, 0x54, 0x46, 2}));
      },
      C::InvalidContainer, {"GLB: 5 bytes, shorter than the 12-byte header"}));
  std::vector<std::byte> file = gltf::write_glb("{}", {});
  std::vector<std::byte> bad = file;
  bad[0] = std::byte{'G'};
  EXPECT_FALSE(gltf::is_glb(bad));
  EXPECT_TRUE(refuses([&] { gltf::parse_glb(bad); }, C::InvalidContainer, {"magic"}));
  bad = file;
  put_u32(bad, 4, 1);
  EXPECT_TRUE(refuses([&] { gltf::parse_glb(bad); }, C::InvalidContainer, {"GLB: container version 1, expected 2"}));
  bad = file;
  put_u32(bad, 8, static_cast<std::uint32_t>(file.size() + 4));
  EXPECT_TRUE(
      refuses([&] { gltf::parse_glb(bad); }, C::InvalidContainer,
              {"header length " + std::to_string(file.size() + 4), "exceeds the " + std::to_string(file.size())}));
  bad = file;
  put_u32(bad, 8, 16);
  EXPECT_TRUE(refuses([&] { gltf::parse_glb(bad); }, C::InvalidContainer, {"header length 16"}));
}

TEST(GlbRefusal, EveryTruncationIsRefused) {
  const std::vector<std::byte> file = gltf::write_glb_asset(test::sample_asset());
  for (std::size_t n = 0; n < file.size(); ++n) {
    const std::span<const std::byte> cut(file.data(), n);
    EXPECT_TRUE(refuses([&] { gltf::parse_glb(cut); }, ImportErrorCode::InvalidContainer, {"GLB"})) << n;
  }
}

TEST(GlbRefusal, ChunkProblems) {
  using C = ImportErrorCode;
  // A chunk length beyond the file.
  std::vector<std::byte> file = glb_of({{kJson, text_bytes("{}  ")}, {kBin, bytes_of({1, 2, 3, 4})}});
  put_u32(file, 24, 400);
  EXPECT_TRUE(refuses([&] { gltf::parse_glb(file); }, C::InvalidContainer,
                      {"GLB: chunk 1 length 400 at byte 32 overruns the 36-byte file"}));
  // The largest length: no wrap-around in the bounds check.
  put_u32(file, 24, 0xffffffffu);
  EXPECT_TRUE(refuses([&] { gltf::parse_glb(file); }, C::InvalidContainer, {"chunk 1 length 4294967295"}));
  put_u32(file, 12, 0xfffffffcu);
  EXPECT_TRUE(refuses([&] { gltf::parse_glb(file); }, C::InvalidContainer, {"chunk 0 length 4294967292"}));
  // A BIN chunk whose length is not a multiple of 4.
  EXPECT_TRUE(refuses(
      [] {
        gltf::parse_glb(glb_of({{kJson, text_bytes("{}  ")}, {kBin, bytes_of({1, 2, 3})}}));
      },
      C::InvalidContainer, {"GLB: chunk 1 length 3 is not a multiple of 4"}));
  // A chunk header cut short inside the declared length.
  std::vector<std::byte> short_header = glb_of({{kJson, text_bytes("{}  ")}});
  short_header.insert(short_header.end(), {std::byte{4}, std::byte{0}, std::byte{0}, std::byte{0}});
  put_u32(short_header, 8, static_cast<std::uint32_t>(short_header.size()));
  EXPECT_TRUE(refuses([&] { gltf::parse_glb(short_header); }, C::InvalidContainer,
                      {"GLB: chunk 1 header at byte 24 overruns the 28-byte file"}));
  // Order: BIN first, a second JSON chunk, BIN after an unknown chunk.
  EXPECT_TRUE(refuses(
      [] {
        gltf::parse_glb(glb_of({{kBin, bytes_of({1, 2, 3, 4})}}));
      },
      C::InvalidContainer, {"GLB: the first chunk is not JSON (type 0x004E4942)"}));
  EXPECT_TRUE(refuses(
      [] {
        gltf::parse_glb(glb_of({{kJson, text_bytes("{}  ")}, {kJson, text_bytes("{}  ")}}));
      },
      C::InvalidContainer, {"GLB: chunk 1 is a second JSON chunk"}));
  EXPECT_TRUE(refuses(
      [] {
        gltf::parse_glb(
            glb_of({{kJson, text_bytes("{}  ")}, {0x11, bytes_of({0, 0, 0, 0})}, {kBin, bytes_of({1, 2, 3, 4})}}));
      },
      C::InvalidContainer, {"GLB: BIN chunk at position 2"}));
  EXPECT_TRUE(refuses(
      [] {
        gltf::parse_glb(glb_of({{kJson, text_bytes("{}  ")}, {kBin, {}}, {kBin, {}}}));
      },
      C::InvalidContainer, {"BIN chunk at position 2"}));
}

// Random corruption of a valid file: every stage either accepts or throws ImportError, and
// nothing reads out of bounds (run under the sanitizers).
TEST(GlbRefusal, CorruptedFilesNeverCrash) {
  const std::vector<std::byte> original = gltf::write_glb_asset(test::sample_asset());
  std::mt19937 rng(42);
  int refused = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<std::byte> file = original;
    const int flips = 1 + int(rng() % 4);
    for (int f = 0; f < flips; ++f) {
      file[rng() % file.size()] = static_cast<std::byte>(rng() & 0xffu);
    }
    try {
      const gltf::GlbChunks chunks = gltf::parse_glb(file);
      std::vector<Diagnostic> diagnostics;
      gltf::GltfAsset asset;
      asset.document = gltf::parse_gltf_json(chunks.json, {}, diagnostics);
      gltf::BufferSources sources;
      sources.glb_bin = chunks.bin;
      sources.has_glb_bin = chunks.has_bin;
      asset.buffers = gltf::load_gltf_buffers(asset.document, sources, {}, diagnostics);
      std::vector<float> floats;
      for (std::uint32_t a = 0; a < asset.document.accessors.size(); ++a) {
        gltf::read_accessor_floats(asset, a, {}, floats);
      }
    } catch (const ImportError&) {
      ++refused;
    }
  }
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace marrow
