// Buffer sources: base64, data: URIs, files next to the .gltf (percent-decoding, refusal of paths
// that leave the folder and of other schemes), the GLB BIN chunk, and the byte limits.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "gltf_test_util.hpp"
#include "marrow/io/gltf/detail/gltf_buffers.hpp"

namespace marrow {
namespace {

using gltf::Buffer;
using gltf::BufferSources;
using gltf::Document;
using test::refuses;

std::vector<std::byte> bytes_of(std::string_view s) {
  std::vector<std::byte> out(s.size());
  if (!s.empty()) std::memcpy(out.data(), s.data(), s.size());
  return out;
}

// The vector decoders (AVX2 or SSSE3, whichever this machine runs) and the table decoder give
// the same bytes and the same refusal, naming the same character, for every input: random
// lengths across block boundaries, a random byte put anywhere, padding dropped or kept.
TEST(Base64, VectorAndTableDecodersAgree) {
  std::mt19937 rng(14);
  int compared = 0;
  for (int round = 0; round < 20000; ++round) {
    std::vector<std::byte> data(rng() % 300);
    for (std::byte& b : data) b = static_cast<std::byte>(rng() & 0xffu);
    std::string text = gltf::encode_base64(data);
    const bool corrupt = !text.empty() && rng() % 2 == 0;
    if (corrupt) text[rng() % text.size()] = static_cast<char>(rng() & 0xffu);
    if (rng() % 3 == 0) {
      while (!text.empty() && text.back() == '=') text.pop_back();
    }
    std::string vector_error, table_error;
    std::vector<std::byte> by_vector, by_table;
    try {
      by_vector = gltf::decode_base64(text);
    } catch (const ImportError& e) {
      vector_error = e.what();
    }
    try {
      by_table = gltf::detail::decode_base64_table(text);
    } catch (const ImportError& e) {
      table_error = e.what();
    }
    ASSERT_EQ(vector_error, table_error) << text;
    ASSERT_EQ(by_vector, by_table) << text;
    if (!corrupt && vector_error.empty()) {
      ASSERT_EQ(by_vector, data);
    }
    ++compared;
  }
  EXPECT_EQ(compared, 20000);
  // Every byte value at every position of a 64-character text (two AVX2 blocks).
  for (std::size_t at = 0; at < 64; ++at) {
    for (int c = 0; c < 256; ++c) {
      std::string text(64, 'A');
      text[at] = static_cast<char>(c);
      const bool alphabet = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
      bool accepted = true;
      try {
        gltf::decode_base64(text);
      } catch (const ImportError& e) {
        accepted = false;
        EXPECT_NE(std::string(e.what()).find("at position " + std::to_string(at)), std::string::npos) << e.what();
      }
      // '=' is padding only at the end.
      EXPECT_EQ(accepted, alphabet || (c == '=' && at == 63)) << "byte " << c << " at " << at;
    }
  }
  std::printf("base64 decoder on this machine: %s\n", gltf::detail::base64_decoder_name());
}

TEST(Base64, KnownVectorsOfRfc4648) {
  const std::vector<std::pair<std::string, std::string>> vectors{{"", ""},
                                                                 {"f", "Zg=="},
                                                                 {"fo", "Zm8="},
                                                                 {"foo", "Zm9v"},
                                                                 {"foob", "Zm9vYg=="},
                                                                 {"fooba", "Zm9vYmE="},
                                                                 {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(gltf::encode_base64(bytes_of(plain)), encoded);
    EXPECT_EQ(gltf::decode_base64(encoded), bytes_of(plain)) << encoded;
  }
  // Padding is optional.
  EXPECT_EQ(gltf::decode_base64("Zm9vYg"), bytes_of("foob"));
  EXPECT_EQ(gltf::decode_base64("Zm9vYmE"), bytes_of("fooba"));
}

TEST(Base64, RoundTripOfEveryByteValueAndLength) {
  std::vector<std::byte> data;
  for (int i = 0; i < 256 * 3 + 2; ++i) {
    data.push_back(static_cast<std::byte>((i * 131 + 7) & 0xff));
    const std::string text = gltf::encode_base64(data);
    ASSERT_EQ(text.size() % 4, 0u);
    ASSERT_EQ(gltf::decode_base64(text), data) << i;
  }
}

TEST(Base64, MalformedInputIsRefused) {
  using C = ImportErrorCode;
  EXPECT_TRUE(refuses([] { gltf::decode_base64("Zm9v!mFy"); }, C::InvalidUri, {"base64: invalid '!' at position 4"}));
  EXPECT_TRUE(refuses([] { gltf::decode_base64("Zm9v\nYmFy"); }, C::InvalidUri, {"byte 0x0A at position 4"}));
  EXPECT_TRUE(refuses([] { gltf::decode_base64("Zm9vY"); }, C::InvalidUri, {"5 characters cannot encode whole bytes"}));
  EXPECT_TRUE(refuses([] { gltf::decode_base64("Zg="); }, C::InvalidUri, {"padding"}));
  EXPECT_TRUE(refuses([] { gltf::decode_base64("Zg=a"); }, C::InvalidUri, {"invalid '='"}));
  EXPECT_TRUE(refuses([] { gltf::decode_base64("Z==="); }, C::InvalidUri, {"base64"}));
  EXPECT_TRUE(refuses([] { gltf::decode_base64("===="); }, C::InvalidUri, {"base64"}));
}

// A temporary folder with a model folder inside and a secret next to it.
class GltfBuffersFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() /
            ("marrow_buffers_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(root_);
    model_dir_ = root_ / "model";
    std::filesystem::create_directories(model_dir_ / "sub dir");
    write(model_dir_ / "data.bin", "0123456789abcdef");
    write(model_dir_ / "sub dir" / "a b#.bin", "ABCDEFGH");
    write(root_ / "secret.bin", "SECRETSECRET");
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  static void write(const std::filesystem::path& p, std::string_view content) {
    std::ofstream out(p, std::ios::binary);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
  }

  // Loads a document with one buffer of that uri and length.
  std::vector<std::vector<std::byte>> load(const std::string& uri, std::uint64_t length,
                                           const ImportLimits& limits = {}) {
    Document d;
    d.buffers.push_back(Buffer{uri, length, ""});
    BufferSources sources;
    sources.base_dir = &model_dir_;
    return gltf::load_gltf_buffers(d, sources, limits, diagnostics_);
  }

  std::filesystem::path root_, model_dir_;
  std::vector<Diagnostic> diagnostics_;
};

TEST_F(GltfBuffersFiles, RelativeFilesArePercentDecodedAndCutToByteLength) {
  EXPECT_EQ(load("data.bin", 16)[0], bytes_of("0123456789abcdef"));
  EXPECT_EQ(load("data.bin", 10)[0], bytes_of("0123456789"));
  EXPECT_NE(find_diagnostic(diagnostics_, "buffer-longer-than-byte-length"), nullptr);
  EXPECT_EQ(load("sub%20dir/a%20b%23.bin", 8)[0], bytes_of("ABCDEFGH"));
  EXPECT_EQ(load("./sub dir/../data.bin", 4)[0], bytes_of("0123"));
  EXPECT_EQ(load("sub%20dir\\..\\data.bin", 4)[0], bytes_of("0123"));  // Windows separators
  EXPECT_EQ(load("data.bin?version=2#frag", 4)[0], bytes_of("0123"));
}

TEST_F(GltfBuffersFiles, PathsLeavingTheFolderAreRefused) {
  using C = ImportErrorCode;
  for (const char* uri : {"../secret.bin", "sub dir/../../secret.bin", "%2e%2e/secret.bin", "..%2Fsecret.bin",
                          "..\\secret.bin", "./../model/../secret.bin"}) {
    EXPECT_TRUE(refuses([&] { load(uri, 4); }, C::InvalidUri, {"buffer 0: path", "leaves the folder"})) << uri;
  }
  EXPECT_TRUE(refuses([&] { load("/etc/passwd", 4); }, C::InvalidUri, {"buffer 0: absolute path '/etc/passwd'"}));
  EXPECT_TRUE(refuses([&] { load("%2Fetc/passwd", 4); }, C::InvalidUri, {"absolute path"}));
  EXPECT_TRUE(refuses([&] { load("//server/share/x.bin", 4); }, C::InvalidUri, {"absolute path"}));
  EXPECT_TRUE(refuses([&] { load(".", 4); }, C::InvalidUri, {"names no file"}));
  EXPECT_TRUE(refuses([&] { load("a%00b.bin", 4); }, C::InvalidUri, {"NUL"}));
  EXPECT_TRUE(refuses([&] { load("data%2.bin", 4); }, C::InvalidUri, {"bad percent-escape"}));
  EXPECT_TRUE(refuses([&] { load("data.bin%", 4); }, C::InvalidUri, {"bad percent-escape"}));
}

TEST_F(GltfBuffersFiles, OtherSchemesAreRefused) {
  using C = ImportErrorCode;
  EXPECT_TRUE(refuses([&] { load("http://example.com/x.bin", 4); }, C::InvalidUri,
                      {"buffer 0: URI scheme 'http:' is not read"}));
  EXPECT_TRUE(refuses([&] { load("https://example.com/x.bin", 4); }, C::InvalidUri, {"'https:'"}));
  EXPECT_TRUE(refuses([&] { load("file:///etc/passwd", 4); }, C::InvalidUri, {"'file:'"}));
  EXPECT_TRUE(refuses([&] { load("C:\\Windows\\x.bin", 4); }, C::InvalidUri, {"'C:'"}));
  EXPECT_TRUE(refuses([&] { load("svn+ssh://host/x", 4); }, C::InvalidUri, {"'svn+ssh:'"}));
}

TEST_F(GltfBuffersFiles, MissingOrShortFiles) {
  using C = ImportErrorCode;
  EXPECT_TRUE(refuses([&] { load("missing.bin", 4); }, C::IoError, {"buffer 0: cannot read", "missing.bin"}));
  EXPECT_TRUE(refuses([&] { load("sub%20dir", 4); }, C::IoError, {"not a regular file"}));
  EXPECT_TRUE(refuses([&] { load("data.bin", 17); }, C::AccessorOutOfBounds,
                      {"buffer 0: file", "has 16 bytes, byteLength is 17"}));
}

TEST_F(GltfBuffersFiles, LimitIsCheckedBeforeReading) {
  ImportLimits limits;
  limits.max_total_bytes = 20;
  Document d;
  d.buffers.push_back(Buffer{"data.bin", 16, ""});
  d.buffers.push_back(Buffer{"data.bin", 8, ""});
  BufferSources sources;
  sources.base_dir = &model_dir_;
  EXPECT_TRUE(refuses([&] { gltf::load_gltf_buffers(d, sources, limits, diagnostics_); },
                      ImportErrorCode::LimitExceeded,
                      {"buffer 1: byteLength 8 after 16 bytes of earlier buffers exceeds limit max_total_bytes 20"}));
  // A byteLength of exabytes is refused before any allocation.
  EXPECT_TRUE(refuses([&] { load("data.bin", 1ull << 60); }, ImportErrorCode::LimitExceeded, {"max_total_bytes"}));
}

TEST_F(GltfBuffersFiles, FilesNeedABaseFolder) {
  Document d;
  d.buffers.push_back(Buffer{"data.bin", 4, ""});
  EXPECT_TRUE(refuses([&] { gltf::load_gltf_buffers(d, BufferSources{}, {}, diagnostics_); },
                      ImportErrorCode::InvalidUri, {"buffer 0: external file 'data.bin' cannot be read"}));
}

std::vector<std::vector<std::byte>> load_data_uri(const std::string& uri, std::uint64_t length,
                                                  std::vector<Diagnostic>& diagnostics) {
  Document d;
  d.buffers.push_back(Buffer{uri, length, ""});
  return gltf::load_gltf_buffers(d, BufferSources{}, {}, diagnostics);
}

TEST(GltfBuffers, DataUris) {
  std::vector<Diagnostic> diagnostics;
  EXPECT_EQ(load_data_uri("data:application/octet-stream;base64,Zm9vYmFy", 6, diagnostics)[0], bytes_of("foobar"));
  EXPECT_EQ(load_data_uri("data:application/gltf-buffer;base64,Zm9vYmFy", 4, diagnostics)[0], bytes_of("foob"));
  EXPECT_EQ(load_data_uri("DATA:;BASE64,Zm9v", 3, diagnostics)[0], bytes_of("foo"));
  EXPECT_TRUE(diagnostics.empty());
  EXPECT_EQ(load_data_uri("data:application/octet-stream;base64,Zm9vYmFyZm9vYmFy", 2, diagnostics)[0].size(), 2u);
  EXPECT_NE(find_diagnostic(diagnostics, "buffer-longer-than-byte-length"), nullptr);
}

TEST(GltfBuffers, BadDataUrisAreRefused) {
  using C = ImportErrorCode;
  std::vector<Diagnostic> diagnostics;
  EXPECT_TRUE(refuses([&] { load_data_uri("data:application/octet-stream;base64,Zm9v!mFy", 6, diagnostics); },
                      C::InvalidUri, {"buffer 0: data: URI base64: invalid '!' at position 4"}));
  EXPECT_TRUE(refuses([&] { load_data_uri("data:text/plain,hello", 5, diagnostics); }, C::InvalidUri,
                      {"buffer 0: data: URI", "is not base64"}));
  EXPECT_TRUE(refuses([&] { load_data_uri("data:application/octet-stream;base64", 5, diagnostics); }, C::InvalidUri,
                      {"has no ','"}));
  EXPECT_TRUE(refuses([&] { load_data_uri("data:application/octet-stream;base64,Zm9v", 4, diagnostics); },
                      C::AccessorOutOfBounds, {"buffer 0: data: URI holds 3 bytes, byteLength is 4"}));
}

TEST(GltfBuffers, GlbBinChunk) {
  using C = ImportErrorCode;
  std::vector<Diagnostic> diagnostics;
  const std::vector<std::byte> bin = bytes_of("0123456789ab");
  Document d;
  d.buffers.push_back(Buffer{"", 10, ""});
  BufferSources sources;
  sources.glb_bin = bin;
  sources.has_glb_bin = true;
  EXPECT_EQ(gltf::load_gltf_buffers(d, sources, {}, diagnostics)[0], bytes_of("0123456789"));
  EXPECT_TRUE(diagnostics.empty());  // up to 3 bytes of chunk padding are normal

  d.buffers[0].byte_length = 13;
  EXPECT_TRUE(refuses([&] { gltf::load_gltf_buffers(d, sources, {}, diagnostics); }, C::AccessorOutOfBounds,
                      {"buffer 0: GLB BIN chunk has 12 bytes, byteLength is 13"}));

  d.buffers[0].byte_length = 4;
  d.buffers.push_back(Buffer{"", 4, ""});
  EXPECT_TRUE(refuses([&] { gltf::load_gltf_buffers(d, sources, {}, diagnostics); }, C::InvalidDocument,
                      {"buffer 1: has no uri"}));
  d.buffers.pop_back();
  sources.has_glb_bin = false;
  EXPECT_TRUE(refuses([&] { gltf::load_gltf_buffers(d, sources, {}, diagnostics); }, C::InvalidDocument,
                      {"buffer 0: has no uri"}));
}

TEST(GltfBuffers, EmbeddedAssetRoundTrip) {
  const gltf::GltfAsset asset = test::sample_asset();
  const std::string json = gltf::write_gltf_embedded(asset);
  std::vector<Diagnostic> diagnostics;
  const Document d = test::parse_json(json, diagnostics);
  ASSERT_EQ(d.buffers.size(), 1u);
  EXPECT_EQ(d.buffers[0].uri.rfind("data:application/octet-stream;base64,", 0), 0u);
  const auto buffers = gltf::load_gltf_buffers(d, BufferSources{}, {}, diagnostics);
  EXPECT_EQ(buffers, asset.buffers);
  EXPECT_TRUE(diagnostics.empty());
}

}  // namespace
}  // namespace marrow
