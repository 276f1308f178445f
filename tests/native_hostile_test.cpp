// io/native_format against hostile files: truncation at every byte, random corruption, bad
// magic/version/framing, counts beyond limits, bad indices and inconsistent content.
#include <gtest/gtest.h>

#include "native_test_util.hpp"

namespace marrow {
namespace {

namespace fs = std::filesystem;
using namespace test;

// ---------------------------------------------------------------------------------------------
// Hostile files.

TEST(NativeFormat, TruncationAtEveryByteOffsetIsRefused) {
  const Bytes bytes = write_native(make_demo_character());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    try {
      read_native(std::span<const std::byte>(bytes.data(), n));
      ADD_FAILURE() << "a file cut to " << n << " bytes loaded";
      return;
    } catch (const ImportError& e) {
      if (e.code() != ImportErrorCode::InvalidContainer) {
        ADD_FAILURE() << "cut to " << n << ": " << e.what();
        return;
      }
    }
  }
}

// Cutting inside a section while keeping the framing right (header length, section lengths)
// reaches every field read of every section.
TEST(NativeFormat, TruncationInsideEverySectionAtEveryByteIsRefused) {
  const Bytes bytes = write_native(small_model());
  const std::vector<Section> sections = split(bytes);
  std::size_t variants = 0;
  for (std::size_t s = 0; s < sections.size(); ++s) {
    for (std::size_t cut = 0; cut < sections[s].payload.size(); ++cut) {
      std::vector<Section> copy = sections;
      copy[s].payload.resize(cut);
      const Bytes file = join(bytes, copy);
      ++variants;
      try {
        read_native(file);
        ADD_FAILURE() << "section " << s << " cut to " << cut << " bytes loaded";
        return;
      } catch (const ImportError& e) {
        if (e.code() != ImportErrorCode::InvalidContainer) {
          ADD_FAILURE() << "section " << s << " cut to " << cut << ": " << e.what();
          return;
        }
      }
    }
  }
  EXPECT_GT(variants, 1000u);
}

TEST(NativeFormat, RandomCorruptionLoadsAValidModelOrThrowsImportError) {
  const Bytes small = write_native(small_model());
  const Bytes demo = write_native(make_demo_character());
  const Bytes compressed = write_native(compressed_demo());
  std::mt19937 rng(20240521);
  int loaded_count = 0;
  for (int variant = 0; variant < 2000; ++variant) {
    // Mostly the small file (every field is near every other); some on the demo character, plain
    // and with compressed clips.
    Bytes file = variant % 8 == 7 ? demo : variant % 8 == 6 ? compressed : small;
    const int kind = variant % 4;
    std::uniform_int_distribution<std::size_t> where(0, file.size() - 1);
    if (kind == 0) {
      file[where(rng)] ^= std::byte{static_cast<unsigned char>(1u << (rng() % 8))};  // one bit
    } else if (kind == 1) {
      for (int i = 0; i < 4; ++i) file[where(rng)] = std::byte{static_cast<unsigned char>(rng())};  // random bytes
    } else if (kind == 2) {
      const std::size_t at = where(rng) & ~std::size_t{3};  // a 32-bit field set to an extreme
      const std::uint32_t values[] = {0u, 1u, 0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 100'001u};
      if (at + 4 <= file.size()) put(file, at, values[rng() % 6]);
    } else {
      const std::size_t at = where(rng);  // a 64-bit field set to an extreme
      const std::uint64_t values[] = {0u, 1u, ~std::uint64_t{0}, std::uint64_t{1} << 40, std::uint64_t{1} << 31};
      if (at + 8 <= file.size()) put(file, at, values[rng() % 5]);
    }
    bool loaded = false;
    ASSERT_TRUE(loads_or_refuses(file, &loaded)) << "variant " << variant;
    loaded_count += loaded ? 1 : 0;
  }
  // Most single flips in vertex data or key values are still valid models.
  EXPECT_GT(loaded_count, 0);
}

TEST(NativeFormat, WrongMagicIsRefused) {
  Bytes bytes = write_native(small_model());
  bytes[0] = std::byte{'X'};
  EXPECT_FALSE(is_native(bytes));
  EXPECT_TRUE(refuses([&] { read_native(bytes); }, ImportErrorCode::InvalidContainer, {"magic"}));
  EXPECT_TRUE(refuses([&] { read_native(Bytes{}); }, ImportErrorCode::InvalidContainer, {"magic"}));
  const std::string glb = "glTF\x02";
  EXPECT_FALSE(is_native(std::as_bytes(std::span(glb))));
}

TEST(NativeFormat, UnknownVersionIsRefused) {
  Bytes bytes = write_native(small_model());
  put(bytes, 4, std::uint32_t{4});
  EXPECT_TRUE(refuses([&] { read_native(bytes); }, ImportErrorCode::VersionMismatch, {"version 4", "versions 1 to 3"}));
  put(bytes, 4, std::uint32_t{0});
  EXPECT_TRUE(refuses([&] { read_native(bytes); }, ImportErrorCode::VersionMismatch, {"version 0"}));
}

TEST(NativeFormat, BadHeaderIsRefused) {
  Bytes bytes = write_native(small_model());
  EXPECT_TRUE(refuses([&] { read_native(std::span<const std::byte>(bytes.data(), 20)); }, ImportErrorCode::InvalidContainer,
                      {"header"}));
  Bytes longer = bytes;
  put(longer, 16, static_cast<std::uint64_t>(bytes.size() + 1));
  EXPECT_TRUE(refuses([&] { read_native(longer); }, ImportErrorCode::InvalidContainer, {"file length"}));
  Bytes padded = bytes;
  padded.push_back(std::byte{0});
  EXPECT_TRUE(refuses([&] { read_native(padded); }, ImportErrorCode::InvalidContainer, {"file length"}));
  Bytes sections = bytes;
  put(sections, 12, std::uint32_t{3});
  EXPECT_TRUE(refuses([&] { read_native(sections); }, ImportErrorCode::InvalidContainer, {"declares 3 sections"}));
}

TEST(NativeFormat, SectionLengthOutsideTheFileIsRefused) {
  const Bytes bytes = write_native(small_model());
  for (std::uint64_t length : {std::uint64_t{1} << 40, ~std::uint64_t{0}, static_cast<std::uint64_t>(bytes.size())}) {
    Bytes file = bytes;
    put(file, 24 + 8, length);  // the first section's length
    EXPECT_TRUE(refuses([&] { read_native(file); }, ImportErrorCode::InvalidContainer, {"'MATL'", "exceeds"}));
  }
  // A section shorter than its content: the next section's header is read as payload.
  std::vector<Section> sections = split(bytes);
  sections[2].payload.push_back(std::byte{0});
  EXPECT_TRUE(refuses([&] { read_native(join(bytes, sections)); }, ImportErrorCode::InvalidContainer,
                      {"section 'BONE'", "left over"}));
}

TEST(NativeFormat, UnknownSectionsAreSkippedUnlessRequired) {
  const Bytes bytes = write_native(small_model());
  std::vector<Section> sections = split(bytes);
  sections.insert(sections.begin() + 3, Section{tag_of("XTRA"), 0, Bytes(100, std::byte{0xAB})});
  const Model loaded = read_native(join(bytes, sections));
  expect_same_model(small_model(), loaded);
  sections[3].flags = 1;
  EXPECT_TRUE(refuses([&] { read_native(join(bytes, sections)); }, ImportErrorCode::VersionMismatch,
                      {"'XTRA'", "required"}));
}

TEST(NativeFormat, MissingOrDuplicatedSectionsAreRefused) {
  const Bytes bytes = write_native(small_model());
  std::vector<Section> missing = split(bytes);
  missing.erase(missing.begin() + 6);  // MESH
  EXPECT_TRUE(refuses([&] { read_native(join(bytes, missing)); }, ImportErrorCode::InvalidContainer,
                      {"section 'MESH' is missing"}));
  std::vector<Section> twice = split(bytes);
  twice.push_back(twice[2]);
  EXPECT_TRUE(refuses([&] { read_native(join(bytes, twice)); }, ImportErrorCode::InvalidContainer,
                      {"'BONE' appears twice"}));
  // Sections may come in any order.
  std::vector<Section> reversed = split(bytes);
  std::reverse(reversed.begin(), reversed.end());
  expect_same_model(small_model(), read_native(join(bytes, reversed)));
}

TEST(NativeFormat, HugeCountInASmallFileIsRefusedWithoutAllocating) {
  Bytes bytes = write_native(small_model());
  ASSERT_LT(bytes.size(), 8192u);  // a few kilobytes
  const std::size_t part = find_unique(bytes, kPrimitiveSentinel);
  const std::size_t vertex_count = part + 4 + 4 + 40;  // source_vertex_count, layout (version 2)
  ASSERT_EQ(get<std::uint64_t>(bytes, vertex_count), 3u);
  put(bytes, vertex_count, std::uint64_t{1} << 40);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(refuses([&] { read_native(bytes); }, ImportErrorCode::LimitExceeded,
                      {"mesh 0 part 0", "vertex_count 1099511627776", "max_accessor_elements"}));
  // With limits that allow it, the bytes that remain still refuse it before any allocation (an
  // allocation of 2^40 vertices would throw bad_alloc, or abort under AddressSanitizer).
  ImportLimits generous;
  generous.max_accessor_elements = ~std::uint64_t{0};
  generous.max_total_bytes = ~std::uint64_t{0};
  EXPECT_TRUE(refuses([&] { read_native(bytes, generous); }, ImportErrorCode::InvalidContainer,
                      {"vertex_count 1099511627776", "remain"}));
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(ms, 100.0);
  // The same for an index count and a key count.
  Bytes indices = write_native(small_model());
  const std::size_t stride = small_model().meshes[0].parts[0].layout.stride;
  const std::size_t index_count = part + 4 + 4 + 40 + 8 + 3 * stride;  // after the 3 vertices
  ASSERT_EQ(get<std::uint64_t>(indices, index_count), 3u);
  put(indices, index_count, std::uint64_t{1} << 40);
  EXPECT_TRUE(refuses([&] { read_native(indices, generous); }, ImportErrorCode::InvalidContainer, {"index count"}));
}

TEST(NativeFormat, LimitsAreEnforced) {
  const Bytes bytes = write_native(make_demo_character());
  ImportLimits keys;
  keys.max_animation_keys = 100;
  EXPECT_TRUE(refuses([&] { read_native(bytes, keys); }, ImportErrorCode::LimitExceeded, {"max_animation_keys"}));
  ImportLimits total;
  total.max_total_bytes = 10'000;
  EXPECT_TRUE(refuses([&] { read_native(bytes, total); }, ImportErrorCode::LimitExceeded, {"max_total_bytes"}));
  ImportLimits nodes;
  nodes.max_nodes = 5;
  EXPECT_TRUE(refuses([&] { read_native(bytes, nodes); }, ImportErrorCode::LimitExceeded, {"max_nodes"}));
  ImportLimits elements;
  elements.max_accessor_elements = 100;
  EXPECT_TRUE(refuses([&] { read_native(bytes, elements); }, ImportErrorCode::LimitExceeded, {"max_accessor_elements"}));
  ImportLimits file;
  file.max_file_bytes = 1000;
  EXPECT_TRUE(refuses([&] { read_native(bytes, file); }, ImportErrorCode::LimitExceeded, {"max_file_bytes"}));
}

TEST(NativeFormat, LongStringsAreRefused) {
  Bytes bytes = write_native(small_model());
  const std::size_t name = after_string(bytes, "MeshSentinel") - 12 - 4;
  put(bytes, name, std::uint32_t{70'000});
  EXPECT_TRUE(refuses([&] { read_native(bytes); }, ImportErrorCode::LimitExceeded, {"mesh 0", "70000", "65536"}));
  put(bytes, name, std::uint32_t{60'000});  // within the cap, beyond the section
  EXPECT_TRUE(refuses([&] { read_native(bytes); }, ImportErrorCode::InvalidContainer, {"mesh 0", "name"}));
  Model model = small_model();
  model.meshes[0].name.assign(70'000, 'x');
  EXPECT_THROW(write_native(model), std::invalid_argument);
}

TEST(NativeFormat, ParentNotBeforeOwnIndexIsRefused) {
  Bytes bytes = write_native(small_model());
  const std::size_t parent = find_unique(bytes, kNodeSentinel + 3) - 64 - 4;
  ASSERT_EQ(get<std::int32_t>(bytes, parent), 2);
  put(bytes, parent, std::int32_t{3});
  EXPECT_TRUE(refuses([&] { read_native(bytes); }, ImportErrorCode::IndexOutOfRange,
                      {"section 'BONE' bone 3", "parent 3"}));
  put(bytes, parent, std::int32_t{5});
  EXPECT_TRUE(refuses([&] { read_native(bytes); }, ImportErrorCode::IndexOutOfRange, {"parent 5"}));
  // A joint's parent in the skin's hierarchy.
  Bytes joints = write_native(small_model());
  const std::size_t hierarchy = after_string(joints, "SkinSentinel") + 8;
  ASSERT_EQ(get<std::int32_t>(joints, hierarchy + 4), 0);
  put(joints, hierarchy + 4, std::int32_t{1});
  EXPECT_TRUE(refuses([&] { read_native(joints); }, ImportErrorCode::IndexOutOfRange,
                      {"skin 0", "skeleton_hierarchy[1] = 1"}));
}

TEST(NativeFormat, BadIndicesAreRefused) {
  const Bytes bytes = write_native(small_model());
  const std::size_t part = find_unique(bytes, kPrimitiveSentinel);
  const std::size_t material = part - 18;
  const std::size_t skinned = part - 14;
  ASSERT_EQ(get<std::int32_t>(bytes, material), 0);
  ASSERT_EQ(get<std::int32_t>(bytes, skinned), 0);
  for (std::int32_t bad : {2, 1000, -2}) {
    Bytes file = bytes;
    put(file, material, bad);
    EXPECT_TRUE(refuses([&] { read_native(file); }, ImportErrorCode::IndexOutOfRange,
                        {"mesh 0 part 0", "material " + std::to_string(bad) + " names no material"}));
    file = bytes;
    put(file, skinned, bad);
    EXPECT_TRUE(refuses([&] { read_native(file); }, ImportErrorCode::IndexOutOfRange, {"skinned_material"}));
  }
  const std::size_t mesh = after_string(bytes, "MeshSentinel");
  Bytes node = bytes;
  put(node, mesh, std::int32_t{6});
  EXPECT_TRUE(refuses([&] { read_native(node); }, ImportErrorCode::IndexOutOfRange, {"mesh 0", "node 6"}));
  Bytes skin = bytes;
  put(skin, mesh + 4, std::int32_t{2});
  EXPECT_TRUE(refuses([&] { read_native(skin); }, ImportErrorCode::IndexOutOfRange, {"mesh 0", "skin 2"}));
  Bytes channel = bytes;
  const std::size_t channel_mesh = find_unique(bytes, kChannelTimeSentinel) - 8 - 8 - 1 - 4;
  ASSERT_EQ(get<std::int32_t>(channel, channel_mesh), 0);
  put(channel, channel_mesh, std::int32_t{3});
  EXPECT_TRUE(refuses([&] { read_native(channel); }, ImportErrorCode::IndexOutOfRange,
                      {"section 'ANIM' animation 0 morph channel 0", "mesh 3"}));
  // A skin listing a mesh it does not draw, or one that does not exist.
  Bytes listed = bytes;
  // Skin 0 ends with meshes {0}, scene_to_palette (6), palette_to_scene (2), source_joints (2), source_skin.
  const std::size_t source_skin = find_unique(bytes, kSkinSentinel);
  const std::size_t skin_meshes = source_skin - (8 + 4 * 2) - (8 + 4 * 2) - (8 + 4 * 6) - 4;
  ASSERT_EQ(get<std::uint64_t>(listed, skin_meshes - 8), 1u);
  ASSERT_EQ(get<std::int32_t>(listed, skin_meshes), 0);
  put(listed, skin_meshes, std::int32_t{1});
  EXPECT_TRUE(refuses([&] { read_native(listed); }, ImportErrorCode::InvalidDocument, {"skin 0", "lists mesh 1"}));
  put(listed, skin_meshes, std::int32_t{9});
  EXPECT_TRUE(refuses([&] { read_native(listed); }, ImportErrorCode::IndexOutOfRange, {"skin 0", "mesh 9"}));
}

TEST(NativeFormat, InconsistentContentIsRefusedAsInvalidDocument) {
  const Bytes bytes = write_native(small_model());
  const std::size_t part = find_unique(bytes, kPrimitiveSentinel);
  Bytes mode = bytes;
  put(mode, part - 10, std::uint8_t{7});
  EXPECT_TRUE(refuses([&] { read_native(mode); }, ImportErrorCode::InvalidDocument, {"mode 7"}));
  Bytes flag = bytes;
  put(flag, part - 9, std::uint8_t{2});
  EXPECT_TRUE(refuses([&] { read_native(flag); }, ImportErrorCode::InvalidDocument, {"has_morph is 2"}));
  // A vertex joint beyond the palette: validate(Model) has the last word.
  Bytes joint = bytes;
  const std::size_t first_vertex = part + 4 + 4 + 40 + 8;
  const std::size_t joints_offset = small_model().meshes[0].parts[0].layout.offset(VertexAttribute::Joints0);
  put(joint, first_vertex + joints_offset, std::uint16_t{2});
  EXPECT_TRUE(refuses([&] { read_native(joint); }, ImportErrorCode::InvalidDocument, {"joint 2"}));
  // Two keys further apart than a tick count can express (the sampler subtracts them).
  Model early = small_model();
  early.animations[0].scene_clip.tracks[0].keys[0].time = Ticks{-123'456'789};
  Bytes gap = write_native(early);
  put(gap, find_unique(gap, std::int64_t{-123'456'789}), std::numeric_limits<std::int64_t>::min());
  EXPECT_TRUE(refuses([&] { read_native(gap); }, ImportErrorCode::InvalidDocument,
                      {"animation 0", "track 0 key 1", "too far from the previous key"}));
  early.animations[0].scene_clip.tracks[0].keys[0].time = Ticks{std::numeric_limits<std::int64_t>::min()};
  EXPECT_THROW(write_native(early), std::invalid_argument);
  // Writer and reader agree: the writer refuses a model validate() refuses.
  Model bad = small_model();
  bad.nodes[2].parent = 4;
  EXPECT_THROW(write_native(bad), std::invalid_argument);
  Model palette_clip = small_model();
  palette_clip.animations[1].scene_clip.target_space = ClipTargetSpace::JointPalette;
  EXPECT_THROW(write_native(palette_clip), std::invalid_argument);
}

}  // namespace
}  // namespace marrow
