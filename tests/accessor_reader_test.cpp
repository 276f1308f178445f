// read_accessor_floats / read_accessor_uints: every component type, normalized decoding, strides,
// matrix column padding, sparse substitution, missing bufferViews, and refusals of accessors
// that do not fit (on documents edited by hand, which the reader must not trust).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "gltf_test_util.hpp"
#include "marrow/io/gltf/detail/accessor_reader.hpp"

namespace marrow {
namespace {

using gltf::AccessorType;
using gltf::ComponentType;
using gltf::GltfAsset;
using gltf::GltfBuilder;
using gltf::kNone;
using test::refuses;

std::vector<float> floats(const GltfAsset& asset, std::uint32_t accessor, const ImportLimits& limits = {}) {
  std::vector<float> out;
  gltf::read_accessor_floats(asset, accessor, limits, out);
  return out;
}

std::vector<std::uint32_t> uints(const GltfAsset& asset, std::uint32_t accessor) {
  std::vector<std::uint32_t> out;
  gltf::read_accessor_uints(asset, accessor, {}, out);
  return out;
}

// The asset written and read back through JSON, so the parser validates it too.
GltfAsset through_json(const GltfAsset& asset) { return GltfAsset{test::reparse(asset.document), asset.buffers}; }

TEST(AccessorReader, EveryComponentTypeAsIs) {
  GltfBuilder b;
  const std::vector<float> f{1.5f, -2.25f, 3e10f};
  const std::vector<std::int8_t> i8{-128, 0, 127};
  const std::vector<std::uint8_t> u8{0, 128, 255};
  const std::vector<std::int16_t> i16{-32768, -1, 32767};
  const std::vector<std::uint16_t> u16{0, 1, 65535};
  const std::vector<std::uint32_t> u32{0, 70000, 4000000000u};
  b.add_floats(f, AccessorType::Scalar);
  b.add_int8(i8, AccessorType::Scalar);
  b.add_uint8(u8, AccessorType::Scalar);
  b.add_int16(i16, AccessorType::Scalar);
  b.add_uint16(u16, AccessorType::Scalar);
  b.add_uint32(u32, AccessorType::Scalar);
  const GltfAsset asset = through_json(b.finish());
  EXPECT_EQ(floats(asset, 0), f);
  EXPECT_EQ(floats(asset, 1), (std::vector<float>{-128, 0, 127}));
  EXPECT_EQ(floats(asset, 2), (std::vector<float>{0, 128, 255}));
  EXPECT_EQ(floats(asset, 3), (std::vector<float>{-32768, -1, 32767}));
  EXPECT_EQ(floats(asset, 4), (std::vector<float>{0, 1, 65535}));
  EXPECT_EQ(floats(asset, 5), (std::vector<float>{0, 70000, 4e9f}));
  EXPECT_EQ(uints(asset, 2), (std::vector<std::uint32_t>{0, 128, 255}));
  EXPECT_EQ(uints(asset, 4), (std::vector<std::uint32_t>{0, 1, 65535}));
  EXPECT_EQ(uints(asset, 5), u32);
  // min/max per component from the builder.
  EXPECT_EQ(asset.document.accessors[3].min, (std::vector<double>{-32768}));
  EXPECT_EQ(asset.document.accessors[3].max, (std::vector<double>{32767}));
}

TEST(AccessorReader, NormalizedDecodingFollowsTheSpec) {
  GltfBuilder b;
  const std::vector<std::int8_t> i8{-128, -127, 0, 64, 127};
  const std::vector<std::uint8_t> u8{0, 51, 255};
  const std::vector<std::int16_t> i16{-32768, -32767, 0, 32767};
  const std::vector<std::uint16_t> u16{0, 13107, 65535};
  b.add_int8(i8, AccessorType::Scalar, true);
  b.add_uint8(u8, AccessorType::Scalar, true);
  b.add_int16(i16, AccessorType::Scalar, true);
  b.add_uint16(u16, AccessorType::Scalar, true);
  const GltfAsset asset = through_json(b.finish());
  EXPECT_EQ(floats(asset, 0), (std::vector<float>{-1.f, -1.f, 0.f, 64.f / 127.f, 1.f}));
  EXPECT_EQ(floats(asset, 1), (std::vector<float>{0.f, 0.2f, 1.f}));
  EXPECT_EQ(floats(asset, 2), (std::vector<float>{-1.f, -1.f, 0.f, 1.f}));
  EXPECT_EQ(floats(asset, 3), (std::vector<float>{0.f, 0.2f, 1.f}));
}

TEST(AccessorReader, UintsRefuseFloatNormalizedAndNegativeData) {
  GltfBuilder b;
  const std::vector<float> f{1.f};
  const std::vector<std::uint8_t> u8{1};
  const std::vector<std::int16_t> i16{5, -2};
  const std::vector<std::int8_t> i8{0, 7};
  b.add_floats(f, AccessorType::Scalar);
  b.add_uint8(u8, AccessorType::Scalar, true);
  b.add_int16(i16, AccessorType::Scalar);
  b.add_int8(i8, AccessorType::Scalar);
  GltfAsset asset = b.finish();
  asset.document.accessors.push_back(gltf::Accessor{});  // float, no bufferView
  asset.document.accessors.back().count = 2;
  using C = ImportErrorCode;
  EXPECT_TRUE(refuses([&] { uints(asset, 0); }, C::InvalidAccessor, {"accessor 0: FLOAT data"}));
  EXPECT_TRUE(refuses([&] { uints(asset, 4); }, C::InvalidAccessor, {"accessor 4: FLOAT data"}));
  EXPECT_TRUE(refuses([&] { uints(asset, 1); }, C::InvalidAccessor, {"accessor 1: normalized data"}));
  EXPECT_TRUE(refuses([&] { uints(asset, 2); }, C::InvalidAccessor, {"accessor 2: the value -2 is negative"}));
  EXPECT_EQ(uints(asset, 3), (std::vector<std::uint32_t>{0, 7}));
}

TEST(AccessorReader, InterleavedDataHonoursTheStride) {
  // position (3 floats) + normal (3 floats) per vertex: stride 24.
  const std::vector<float> interleaved{0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0};
  GltfBuilder b;
  const std::uint32_t view = b.add_buffer_view(test::as_bytes(interleaved), 24, 34962);
  gltf::Document& d = b.document();
  d.accessors.push_back({view, 0, ComponentType::Float, false, 3, AccessorType::Vec3, {}, {}, {}, "position"});
  d.accessors.push_back({view, 12, ComponentType::Float, false, 3, AccessorType::Vec3, {}, {}, {}, "normal"});
  const GltfAsset asset = through_json(b.finish());
  EXPECT_EQ(floats(asset, 0), (std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(floats(asset, 1), (std::vector<float>{0, 0, 1, 0, 1, 0, 1, 0, 0}));
}

TEST(AccessorReader, StrideOnAnimationDataIsHonoured) {
  // Fox.gltf: key times in a bufferView with byteStride 8 (every other float is another value).
  const std::vector<float> data{0.f, 99.f, 0.5f, 99.f, 1.f};
  GltfBuilder b;
  const std::uint32_t view = b.add_buffer_view(test::as_bytes(data), 8);
  b.document().accessors.push_back({view, 0, ComponentType::Float, false, 3, AccessorType::Scalar, {}, {}, {}, ""});
  EXPECT_EQ(floats(through_json(b.finish()), 0), (std::vector<float>{0.f, 0.5f, 1.f}));
}

TEST(AccessorReader, MatrixColumnsArePaddedToFourBytes) {
  GltfBuilder b;
  const std::vector<std::uint8_t> mat2{1, 2, 3, 4, 5, 6, 7, 8};  // two mat2
  const std::vector<std::int8_t> mat3{1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<std::int16_t> mat3s{-1, -2, -3, -4, -5, -6, -7, -8, -9};
  const std::vector<std::uint16_t> mat2s{10, 20, 30, 40};
  b.add_uint8(mat2, AccessorType::Mat2);
  b.add_int8(mat3, AccessorType::Mat3);
  b.add_int16(mat3s, AccessorType::Mat3);
  b.add_uint16(mat2s, AccessorType::Mat2);
  const GltfAsset asset = through_json(b.finish());
  const gltf::Document& d = asset.document;
  // Byte layout: columns start on 4-byte boundaries.
  EXPECT_EQ(d.buffer_views[0].byte_length, 16u);  // 2 elements * 2 columns * 4 bytes
  EXPECT_EQ(d.buffer_views[1].byte_length, 12u);  // 3 columns * 4 bytes
  EXPECT_EQ(d.buffer_views[2].byte_length, 24u);  // 3 columns * 8 bytes
  EXPECT_EQ(d.buffer_views[3].byte_length, 8u);   // 2 columns * 4 bytes, no padding needed
  const std::byte* m2 = asset.buffers[0].data() + d.buffer_views[0].byte_offset;
  EXPECT_EQ(m2[0], std::byte{1});
  EXPECT_EQ(m2[1], std::byte{2});
  EXPECT_EQ(m2[4], std::byte{3});  // second column after 2 bytes of padding
  EXPECT_EQ(floats(asset, 0), (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(floats(asset, 1), (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(floats(asset, 2), (std::vector<float>{-1, -2, -3, -4, -5, -6, -7, -8, -9}));
  EXPECT_EQ(floats(asset, 3), (std::vector<float>{10, 20, 30, 40}));
}

TEST(AccessorReader, MissingBufferViewReadsZeros) {
  gltf::GltfAsset asset;
  asset.document.accessors.push_back({kNone, 0, ComponentType::Float, false, 2, AccessorType::Vec3, {}, {}, {}, ""});
  asset.document.accessors.push_back(
      {kNone, 0, ComponentType::UnsignedShort, false, 3, AccessorType::Scalar, {}, {}, {}, ""});
  asset = through_json(asset);
  EXPECT_EQ(floats(asset, 0), std::vector<float>(6, 0.f));
  EXPECT_EQ(uints(asset, 1), std::vector<std::uint32_t>(3, 0u));
}

// An accessor of 5 VEC2 (base values 10*i, 10*i+1), and sparse data replacing elements 1 and 4.
GltfAsset sparse_asset(bool with_buffer_view, ComponentType index_type) {
  GltfBuilder b;
  std::vector<float> base;
  for (int i = 0; i < 5; ++i) {
    base.push_back(float(10 * i));
    base.push_back(float(10 * i + 1));
  }
  const std::uint32_t base_accessor = b.add_floats(base, AccessorType::Vec2);
  std::vector<std::byte> indices;
  if (index_type == ComponentType::UnsignedByte) indices = test::as_bytes(std::vector<std::uint8_t>{1, 4});
  if (index_type == ComponentType::UnsignedShort) indices = test::as_bytes(std::vector<std::uint16_t>{1, 4});
  if (index_type == ComponentType::UnsignedInt) indices = test::as_bytes(std::vector<std::uint32_t>{1, 4});
  const std::uint32_t index_view = b.add_buffer_view(indices);
  const std::uint32_t value_view = b.add_buffer_view(test::as_bytes(std::vector<float>{-1, -2, -3, -4}));
  gltf::Accessor& a = b.document().accessors[base_accessor];
  if (!with_buffer_view) a.buffer_view = kNone;
  a.min.clear();
  a.max.clear();
  a.sparse = gltf::SparseAccessor{2, index_view, 0, index_type, value_view, 0};
  return through_json(b.finish());
}

TEST(AccessorReader, SparseValuesReplaceElements) {
  for (ComponentType t : {ComponentType::UnsignedByte, ComponentType::UnsignedShort, ComponentType::UnsignedInt}) {
    EXPECT_EQ(floats(sparse_asset(true, t), 0), (std::vector<float>{0, 1, -1, -2, 20, 21, 30, 31, -3, -4}));
  }
}

TEST(AccessorReader, SparseWithoutBufferViewStartsFromZeros) {
  EXPECT_EQ(floats(sparse_asset(false, ComponentType::UnsignedShort), 0),
            (std::vector<float>{0, 0, -1, -2, 0, 0, 0, 0, -3, -4}));
}

TEST(AccessorReaderRefusal, SparseProblems) {
  using C = ImportErrorCode;
  GltfAsset asset = sparse_asset(true, ComponentType::UnsignedShort);
  const std::size_t index_offset = asset.document.buffer_views[1].byte_offset;
  auto set_index = [&](int entry, std::uint16_t value) {
    std::memcpy(asset.buffers[0].data() + index_offset + std::size_t(entry) * 2, &value, 2);
  };
  set_index(1, 5);
  EXPECT_TRUE(refuses([&] { floats(asset, 0); }, C::InvalidAccessor,
                      {"accessor 0: sparse: index 5 (entry 1) is not below count 5"}));
  set_index(1, 1);
  EXPECT_TRUE(refuses([&] { floats(asset, 0); }, C::InvalidAccessor,
                      {"accessor 0: sparse: index 1 (entry 1) does not increase after 1"}));
  set_index(1, 4);
  EXPECT_EQ(floats(asset, 0).size(), 10u);

  GltfAsset edited = asset;
  edited.document.accessors[0].sparse->count = 3;
  EXPECT_TRUE(
      refuses([&] { floats(edited, 0); }, C::AccessorOutOfBounds,
              {"accessor 0: sparse: indices: byteOffset 0 + count 3 * stride 2 exceeds bufferView 1 (4 bytes)"}));
  edited = asset;
  edited.document.accessors[0].sparse->values_byte_offset = 4;
  EXPECT_TRUE(
      refuses([&] { floats(edited, 0); }, C::AccessorOutOfBounds,
              {"accessor 0: sparse: values: byteOffset 4 + count 2 * stride 8 exceeds bufferView 2 (16 bytes)"}));
  edited = asset;
  edited.document.accessors[0].sparse->indices_component_type = ComponentType::Float;
  EXPECT_TRUE(
      refuses([&] { floats(edited, 0); }, C::InvalidAccessor, {"accessor 0: sparse: indices componentType 5126"}));
  edited = asset;
  edited.document.accessors[0].sparse->count = 6;
  EXPECT_TRUE(refuses([&] { floats(edited, 0); }, C::InvalidAccessor,
                      {"accessor 0: sparse: count 6 exceeds accessor count 5"}));
  edited = asset;
  edited.document.accessors[0].sparse->values_buffer_view = 9;
  EXPECT_TRUE(refuses([&] { floats(edited, 0); }, C::IndexOutOfRange,
                      {"accessor 0: sparse: values: bufferView 9 of 3 bufferViews"}));
}

TEST(AccessorReaderRefusal, AccessorsThatDoNotFit) {
  using C = ImportErrorCode;
  const GltfAsset asset = test::sample_asset();
  auto edited = [&](auto&& change) {
    GltfAsset copy = asset;
    change(copy);
    return copy;
  };
  EXPECT_TRUE(refuses([&] { floats(asset, 7); }, C::IndexOutOfRange, {"accessor 7 of 7 accessors"}));
  EXPECT_TRUE(refuses([&] { floats(edited([](GltfAsset& a) { a.document.accessors[0].count = 300; }), 0); },
                      C::AccessorOutOfBounds,
                      {"accessor 0: byteOffset 0 + count 300 * stride 12 exceeds bufferView 0 (36 bytes)"}));
  EXPECT_TRUE(refuses([&] { floats(edited([](GltfAsset& a) { a.document.accessors[0].byte_offset = 4096; }), 0); },
                      C::AccessorOutOfBounds,
                      {"accessor 0: byteOffset 4096 + count 3 * stride 12 exceeds bufferView 0 (36 bytes)"}));
  EXPECT_TRUE(refuses(
      [&] {
        floats(
            edited([](GltfAsset& a) { a.document.accessors[0].count = std::numeric_limits<std::uint64_t>::max() / 2; }),
            0, ImportLimits{.max_total_bytes = ~0ull, .max_accessor_elements = ~0ull});
      },
      C::AccessorOutOfBounds, {"accessor 0: byteOffset 0 + count 9223372036854775807 * stride 12"}));
  EXPECT_TRUE(refuses([&] { floats(edited([](GltfAsset& a) { a.document.buffer_views[0].byte_stride = 8; }), 0); },
                      C::InvalidAccessor,
                      {"accessor 0: bufferView 0 byteStride 8 is smaller than one element (12 bytes)"}));
  EXPECT_TRUE(refuses([&] { floats(edited([](GltfAsset& a) { a.document.accessors[0].buffer_view = 9; }), 0); },
                      C::IndexOutOfRange, {"accessor 0: bufferView 9 of 7 bufferViews"}));
  EXPECT_TRUE(refuses([&] { floats(edited([](GltfAsset& a) { a.document.buffer_views[0].buffer = 3; }), 0); },
                      C::IndexOutOfRange, {"bufferView 0: buffer 3 of 1 loaded buffers"}));
  EXPECT_TRUE(refuses([&] { floats(edited([](GltfAsset& a) { a.buffers[0].resize(200); }), 6); },
                      C::AccessorOutOfBounds,
                      {"bufferView 6: byteOffset 232 + byteLength 48 exceeds buffer 0 (200 bytes)"}));
  EXPECT_TRUE(refuses([&] { floats(edited([](GltfAsset& a) { a.buffers.clear(); }), 0); }, C::IndexOutOfRange,
                      {"bufferView 0: buffer 0 of 0 loaded buffers"}));
  EXPECT_TRUE(refuses(
      [&] {
        floats(edited([](GltfAsset& a) { a.document.accessors[0].component_type = static_cast<ComponentType>(7); }), 0);
      },
      C::InvalidAccessor, {"accessor 0: componentType 7"}));
  EXPECT_TRUE(refuses(
      [&] { floats(edited([](GltfAsset& a) { a.document.accessors[0].type = static_cast<AccessorType>(42); }), 0); },
      C::InvalidAccessor, {"accessor 0: type 42"}));
  EXPECT_TRUE(refuses([&] { floats(edited([](GltfAsset& a) { a.document.accessors[0].normalized = true; }), 0); },
                      C::InvalidAccessor, {"accessor 0: normalized"}));
}

TEST(AccessorReaderRefusal, LimitsBeforeAllocating) {
  using C = ImportErrorCode;
  gltf::GltfAsset asset;
  // No bufferView: nothing bounds the count but the limits. 2^40 MAT4 floats = 64 TiB.
  asset.document.accessors.push_back(
      {kNone, 0, ComponentType::Float, false, 1ull << 40, AccessorType::Mat4, {}, {}, {}, ""});
  EXPECT_TRUE(refuses([&] { floats(asset, 0); }, C::LimitExceeded,
                      {"accessor 0: count 1099511627776 exceeds limit max_accessor_elements 268435456"}));
  // Within the element limit but above the byte limit: 2^28 MAT4 = 16 GiB of floats.
  asset.document.accessors[0].count = 1ull << 28;
  EXPECT_TRUE(
      refuses([&] { floats(asset, 0); }, C::LimitExceeded, {"accessor 0: count 268435456 * 64", "max_total_bytes"}));
  ImportLimits small;
  small.max_accessor_elements = 10;
  asset.document.accessors[0].count = 11;
  EXPECT_TRUE(refuses([&] { floats(asset, 0, small); }, C::LimitExceeded, {"max_accessor_elements 10"}));
}

TEST(AccessorReader, UnalignedOffsetsAreReadWithADiagnostic) {
  // Floats starting at byte 1 of their bufferView: against the spec, but unambiguous.
  std::vector<std::byte> bytes(1 + 8);
  const float values[2] = {1.25f, -7.f};
  std::memcpy(bytes.data() + 1, values, sizeof values);
  GltfBuilder b;
  const std::uint32_t view = b.add_buffer_view(bytes);
  b.document().accessors.push_back({view, 1, ComponentType::Float, false, 2, AccessorType::Scalar, {}, {}, {}, ""});
  const GltfAsset built = b.finish();
  std::vector<Diagnostic> diagnostics;
  const GltfAsset asset{test::parse_json(gltf::serialize_gltf_json(built.document), diagnostics), built.buffers};
  ASSERT_NE(find_diagnostic(diagnostics, "accessor-unaligned"), nullptr);
  EXPECT_EQ(floats(asset, 0), (std::vector<float>{1.25f, -7.f}));
}

TEST(AccessorReader, EmptyAccessorReadsNothing) {
  gltf::GltfAsset asset = test::sample_asset();
  asset.document.accessors[0].count = 0;
  asset.document.accessors[0].byte_offset = 1000;  // never dereferenced
  EXPECT_TRUE(floats(asset, 0).empty());
}

TEST(GltfBuilder, StartsWithAnAssetAndOneBuffer) {
  GltfBuilder b;
  EXPECT_EQ(b.document().asset.version, "2.0");
  EXPECT_EQ(b.document().asset.generator, "marrow");
  ASSERT_EQ(b.document().buffers.size(), 1u);
  const std::vector<std::uint8_t> three{1, 2, 3};
  b.add_uint8(three, AccessorType::Scalar);
  const std::vector<float> one{5.f};
  b.add_floats(one, AccessorType::Scalar);
  const GltfAsset asset = b.finish();
  EXPECT_EQ(asset.document.buffer_views[1].byte_offset, 4u);  // aligned after 3 bytes
  EXPECT_EQ(asset.document.buffers[0].byte_length, 8u);
  EXPECT_EQ(asset.buffers[0].size(), 8u);
  EXPECT_TRUE(asset.document.buffers[0].uri.empty());
  // The builder starts over after finish().
  EXPECT_TRUE(b.document().accessors.empty());
  EXPECT_TRUE(b.bin().empty());
}

TEST(GltfBuilder, EmptyBuilderHasNoBuffer) {
  GltfBuilder b;
  b.document().nodes.emplace_back();
  const GltfAsset asset = b.finish();
  EXPECT_TRUE(asset.document.buffers.empty());
  EXPECT_TRUE(asset.buffers.empty());
  EXPECT_NO_THROW(test::reparse(asset.document));
}

TEST(GltfBuilder, RefusesBadInputAsProgrammingErrors) {
  GltfBuilder b;
  const std::vector<float> four{1, 2, 3, 4};
  EXPECT_THROW(b.add_floats(four, AccessorType::Vec3), std::invalid_argument);
  EXPECT_THROW(b.add_floats({}, AccessorType::Scalar), std::invalid_argument);
  const std::vector<float> nan{std::numeric_limits<float>::quiet_NaN()};
  EXPECT_THROW(b.add_floats(nan, AccessorType::Scalar), std::invalid_argument);
  EXPECT_THROW(b.add_buffer_view({}), std::invalid_argument);
}

TEST(GltfBuilder, MinMaxPerComponent) {
  GltfBuilder b;
  const std::vector<float> v{1, -5, 3, -2, 7, 0};
  b.add_floats(v, AccessorType::Vec3);
  const GltfAsset asset = b.finish();
  EXPECT_EQ(asset.document.accessors[0].min, (std::vector<double>{-2, -5, 0}));
  EXPECT_EQ(asset.document.accessors[0].max, (std::vector<double>{1, 7, 3}));
}

}  // namespace
}  // namespace marrow
