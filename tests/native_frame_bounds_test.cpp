// S5 in the native format: the frame bounds (per-joint boxes and mesh boxes, frame_bounds.hpp)
// are stored in the optional FBND section, so a load reads them instead of walking every vertex;
// files without it (older writers) make them at load, and stored boxes are checked as read.
#include <gtest/gtest.h>

#include "native_test_util.hpp"

namespace marrow {
namespace {

using namespace test;

std::size_t index_of(const std::vector<Section>& sections, const char (&tag)[5]) {
  for (std::size_t i = 0; i < sections.size(); ++i) {
    if (sections[i].tag == tag_of(tag)) return i;
  }
  ADD_FAILURE() << "no section " << tag;
  return 0;
}

void expect_same_bounds(const Model& a, const Model& b) {
  ASSERT_EQ(a.skins.size(), b.skins.size());
  for (std::size_t s = 0; s < a.skins.size(); ++s) {
    const JointBounds &x = a.skins[s].joint_bounds, &y = b.skins[s].joint_bounds;
    EXPECT_EQ(x.joint_count, y.joint_count) << "skin " << s;
    EXPECT_EQ(x.joints, y.joints) << "skin " << s;
    EXPECT_TRUE(same_bits(x.centers, y.centers)) << "skin " << s;
    EXPECT_TRUE(same_bits(x.extents, y.extents)) << "skin " << s;
  }
  ASSERT_EQ(a.meshes.size(), b.meshes.size());
  for (std::size_t m = 0; m < a.meshes.size(); ++m) {
    const BoundingBox &x = a.meshes[m].local_bounds, &y = b.meshes[m].local_bounds;
    EXPECT_EQ(x.empty, y.empty) << "mesh " << m;
    EXPECT_TRUE(same_bits(x.min, y.min) && same_bits(x.max, y.max)) << "mesh " << m;
  }
}

TEST(NativeFrameBounds, S5_TheWriterStoresTheBoundsAsAnOptionalSection) {
  const std::vector<Section> sections = split(write_native(make_demo_character()));
  const Section& fbnd = sections[index_of(sections, "FBND")];
  EXPECT_EQ(fbnd.flags, 0u) << "not required: older version-3 readers skip it";
  EXPECT_GT(index_of(sections, "FBND"), index_of(sections, "MESH"));
}

TEST(NativeFrameBounds, S5_ALoadReadsTheStoredBoundsBitForBit) {
  const Model original = make_demo_character();  // its bounds made by compute_frame_bounds
  const Model loaded = read_native(write_native(original));
  expect_same_bounds(original, loaded);
  EXPECT_TRUE(frame_bounds_ready(loaded));
}

// The stored boxes are what the model gets, not boxes made again from its vertices: a file
// whose first joint box is twice as wide loads with that box.
TEST(NativeFrameBounds, S5_TheStoredBoxesAreUsedNotMadeAgain) {
  const Model original = make_demo_character();
  Bytes bytes = write_native(original);
  std::vector<Section> sections = split(bytes);
  Section& fbnd = sections[index_of(sections, "FBND")];
  const std::size_t boxes = get<std::uint64_t>(fbnd.payload, 16);
  ASSERT_GT(boxes, 0u);
  const std::size_t extents = 24 + 4 * boxes + 12 * boxes;
  put<float>(fbnd.payload, extents, 2.f * get<float>(fbnd.payload, extents));
  const Model loaded = read_native(join(bytes, sections));
  EXPECT_EQ(loaded.skins[0].joint_bounds.extents[0].x, 2.f * original.skins[0].joint_bounds.extents[0].x);
  EXPECT_EQ(loaded.skins[0].joint_bounds.extents[0].y, original.skins[0].joint_bounds.extents[0].y);
}

// A file of an older writer (no FBND) makes the boxes at load, the same ones.
TEST(NativeFrameBounds, S5_AFileWithoutTheSectionMakesTheBoundsAtLoad) {
  const Model original = make_demo_character();
  const Bytes bytes = write_native(original);
  std::vector<Section> sections = split(bytes);
  sections.erase(sections.begin() + static_cast<std::ptrdiff_t>(index_of(sections, "FBND")));
  const Model loaded = read_native(join(bytes, sections));
  expect_same_bounds(original, loaded);
}

// A model without bounds (built in code, compute_frame_bounds never called) is written with the
// bounds make_frame_bounds makes for it.
TEST(NativeFrameBounds, S5_AModelWithoutBoundsIsWrittenWithTheBoundsItWouldGet) {
  Model model = make_demo_character();
  for (Skin& skin : model.skins) skin.joint_bounds = JointBounds{};
  for (ModelMesh& mesh : model.meshes) mesh.local_bounds = BoundingBox{};
  ASSERT_FALSE(frame_bounds_ready(model));
  const Model loaded = read_native(write_native(model));
  expect_same_bounds(make_demo_character(), loaded);
}

TEST(NativeFrameBounds, S5_StoredBoundsThatNoModelCouldHaveAreRefused) {
  const Model original = make_demo_character();
  const Bytes bytes = write_native(original);
  const auto edited = [&](auto edit) {
    std::vector<Section> sections = split(bytes);
    edit(sections[index_of(sections, "FBND")].payload);
    return join(bytes, sections);
  };
  const std::vector<Section> sections = split(bytes);
  const std::uint64_t joints = get<std::uint64_t>(sections[index_of(sections, "FBND")].payload, 8);
  EXPECT_TRUE(refuses([&] { read_native(edited([&](Bytes& p) { put<std::uint64_t>(p, 0, 2); })); },
                      ImportErrorCode::InvalidDocument, {"section 'FBND'", "skin count 2 differs"}));
  EXPECT_TRUE(refuses([&] { read_native(edited([&](Bytes& p) { put<std::uint64_t>(p, 8, joints + 1); })); },
                      ImportErrorCode::InvalidDocument, {"section 'FBND' skin 0", "joint_count"}));
  EXPECT_TRUE(refuses([&] { read_native(edited([&](Bytes& p) { put<std::uint64_t>(p, 16, joints + 1); })); },
                      ImportErrorCode::LimitExceeded, {"section 'FBND' skin 0", "box count"}));
  EXPECT_TRUE(refuses([&] { read_native(edited([&](Bytes& p) { put<std::uint32_t>(p, 24, static_cast<std::uint32_t>(joints)); })); },
                      ImportErrorCode::InvalidDocument, {"section 'FBND' skin 0", "box 0: joint"}));
  // Bytes left over, and a section cut short, as in every section.
  EXPECT_TRUE(refuses([&] { read_native(edited([&](Bytes& p) { p.push_back(std::byte{0}); })); },
                      ImportErrorCode::InvalidContainer, {"section 'FBND'", "left over"}));
  EXPECT_TRUE(refuses([&] { read_native(edited([&](Bytes& p) { p.pop_back(); })); }, ImportErrorCode::InvalidContainer,
                      {"section 'FBND'", "mesh count 2 needs"}));
}

}  // namespace
}  // namespace marrow
