// Animator: the seven-step frame for one instance (G20), per-instance state, CPU posing.
#include <gtest/gtest.h>

#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "marrow/core/vertex_access.hpp"
#include "marrow/model/animator.hpp"
#include "demo/demo_character.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::near;

std::vector<glm::vec3> source_positions(const ModelMeshPart& part) {
  std::vector<glm::vec3> out(part.vertex_count());
  for (std::size_t v = 0; v < out.size(); ++v) {
    out[v] = read_attribute<glm::vec3>(part.vertex_bytes, part.layout, v, VertexAttribute::Position);
  }
  return out;
}

TEST(Animator, G20_LoadedPoseSkinsToTheBindShapeAndIgnoresTheMeshNode) {
  const Model model = make_demo_character();
  Animator animator(model);
  const ModelMeshPart& part = model.meshes[0].parts[0];
  std::vector<glm::vec3> posed(part.vertex_count());
  animator.pose_part(0, 0, posed);
  const auto bind = source_positions(part);
  for (std::size_t v = 0; v < posed.size(); v += 37) ASSERT_TRUE(near(posed[v], bind[v], 1e-5f)) << v;
  // The palette is the glTF joint matrix: inverse(W_meshNode) * W_joint * IBM = T(0, 0, -2) at bind.
  EXPECT_TRUE(near(animator.player(0).skin_transforms()[3], glm::translate(glm::mat4(1.f), glm::vec3(0, 0, -2))));
}

TEST(Animator, G20_UpdateRunsPlayersRigidClipAndMorphsInOneClock) {
  const Model model = make_demo_character();
  Animator animator(model);
  animator.play("Wave");
  animator.update(ticks_from_seconds(0.5));
  EXPECT_EQ(animator.current_time(), ticks_from_seconds(0.5));
  EXPECT_EQ(animator.player(0).current_time(), ticks_from_seconds(0.5));
  EXPECT_EQ(animator.player(0).current_clip(), &model.skins[0].data.animation_clips.at("Wave"));
  // Rigid clip: the buoy (scene node 12) bobs by 0.2 * sin(2 pi * 0.25) = 0.2 at t = 0.5.
  EXPECT_NEAR(animator.absolute_bone_transforms()[12][3].y, 0.45f, 1e-5f);
  EXPECT_NEAR(model.nodes[12].transform[3].y, 0.25f, 1e-7f) << "the shared model is untouched";
  // Morph weights from the animation's cubic channel.
  const auto expected = evaluate_morph_weights(model.animations[0].morph_channels[0].track, 0.5);
  ASSERT_EQ(animator.morph_weights(0).size(), 2u);
  EXPECT_EQ(animator.morph_weights(0)[0], expected[0]);
  EXPECT_EQ(animator.morph_weights(0)[1], expected[1]);
  // Looping wraps every part together.
  animator.update(ticks_from_seconds(2.0));
  EXPECT_EQ(animator.current_time(), ticks_from_seconds(0.5));
  EXPECT_EQ(animator.player(0).current_time(), ticks_from_seconds(0.5));
}

TEST(Animator, G20_MorphsAreBlendedOnlyWhenWeightsChange) {
  const Model model = make_demo_character();
  Animator animator(model);
  const std::uint64_t initial = animator.vertex_revision(0, 0);
  animator.play("Wave");  // weights at t = 0 are (0, 0), as loaded
  EXPECT_EQ(animator.vertex_revision(0, 0), initial);
  animator.update(ticks_from_seconds(0.25));
  EXPECT_EQ(animator.vertex_revision(0, 0), initial + 1);
  animator.update(Ticks{0});  // same time, same weights: no blend
  EXPECT_EQ(animator.vertex_revision(0, 0), initial + 1);
  animator.update(ticks_from_seconds(0.25));
  EXPECT_EQ(animator.vertex_revision(0, 0), initial + 2);
  EXPECT_NE(animator.vertex_bytes(0, 0).data(), model.meshes[0].parts[0].vertex_bytes.data())
      << "the instance blends into its own buffer";
}

TEST(Animator, G20_PalettesInstalledLastAndOnlyOnRequest) {
  const Model model = make_demo_character();
  const SkinnedMaterial& material = *model.meshes[0].parts[0].skinned_material;
  Animator animator(model);
  animator.play("Curl");
  const auto installs = material.install_count();
  animator.update(ticks_from_seconds(1.0));
  EXPECT_EQ(material.install_count(), installs) << "update() never touches shared materials";
  EXPECT_EQ(animator.install_palettes(), 1);
  EXPECT_EQ(material.install_count(), installs + 1);
  const auto skin = animator.player(0).skin_transforms();
  EXPECT_TRUE(std::equal(skin.begin(), skin.end(), material.bone_transforms().begin()));
}

// Two instances of one loaded model hold different poses; the shared material carries whichever
// palette was installed last, so each instance installs its own right before it is drawn.
TEST(Animator, G20_TwoInstancesOfOneModelHoldDifferentPoses) {
  const Model model = make_demo_character();
  Animator a(model), b(model);
  a.play("Wave");
  b.play("Curl");
  a.update(ticks_from_seconds(0.5));
  b.update(ticks_from_seconds(1.5));
  const SkinnedMaterial& shared = *model.meshes[0].parts[0].skinned_material;
  ASSERT_EQ(model.meshes[0].parts[0].skinned_material.get(), &shared);

  const auto draw = [&](const Animator& instance) {
    instance.install_palettes();  // step 4, immediately before this instance's draw
    std::vector<glm::mat4> seen;
    instance.draw([&](const DrawItem& item) {
      if (item.palette) seen.assign(item.palette->bone_transforms().begin(), item.palette->bone_transforms().begin() + 9);
    });
    return seen;
  };
  const auto drawn_a = draw(a);
  const auto drawn_b = draw(b);
  EXPECT_TRUE(std::equal(drawn_a.begin(), drawn_a.end(), a.player(0).skin_transforms().begin()));
  EXPECT_TRUE(std::equal(drawn_b.begin(), drawn_b.end(), b.player(0).skin_transforms().begin()));
  EXPECT_FALSE(near(drawn_a[8], drawn_b[8], 1e-3f)) << "the two poses differ";
  EXPECT_NE(a.morph_weights(0)[1], b.morph_weights(0)[1]);

  std::vector<glm::vec3> pa(model.meshes[0].parts[0].vertex_count()), pb(pa.size());
  a.pose_part(0, 0, pa);
  b.pose_part(0, 0, pb);
  EXPECT_FALSE(near(pa.back(), pb.back(), 1e-3f));
}

TEST(Animator, G20_PlayValidatesItsArgument) {
  const Model model = make_demo_character();
  Animator animator(model);
  EXPECT_THROW(animator.play(2), std::out_of_range);
  EXPECT_THROW(animator.play(-2), std::out_of_range);
  EXPECT_THROW(animator.play("Jump"), std::out_of_range);
  animator.play(1);
  animator.update(ticks_from_seconds(1.0));
  animator.play(-1);  // back to the loaded pose
  EXPECT_EQ(animator.player(0).current_clip(), nullptr);
  EXPECT_EQ(animator.morph_weights(0)[0], 0.f);
  EXPECT_NEAR(animator.absolute_bone_transforms()[12][3].y, 0.25f, 1e-7f);
}

TEST(Animator, G20_SkinnedVerticesFollowTheJointsNotTheMeshNode) {
  const Model model = make_demo_character();
  Animator animator(model);
  animator.play("Curl");
  animator.update(ticks_from_seconds(1.5));
  const ModelMeshPart& part = model.meshes[0].parts[0];
  std::vector<glm::vec3> posed(part.vertex_count()), normals(part.vertex_count());
  animator.pose_part(0, 0, posed, normals);
  // A vertex weighted fully to one joint moves rigidly with that joint's scene node:
  // W_joint(t) * IBM * v, whatever the mesh node's own transform.
  const auto bytes = animator.vertex_bytes(0, 0);
  int checked = 0;
  for (std::size_t v = 0; v < posed.size(); ++v) {
    const glm::vec4 w = read_attribute<glm::vec4>(bytes, part.layout, v, VertexAttribute::Weights0);
    if (w.x != 1.f) continue;
    const glm::u16vec4 j = read_attribute<glm::u16vec4>(bytes, part.layout, v, VertexAttribute::Joints0);
    const auto node = static_cast<std::size_t>(model.skins[0].palette_to_scene[j.x]);
    const glm::vec3 p = read_attribute<glm::vec3>(bytes, part.layout, v, VertexAttribute::Position);
    const glm::vec3 want = glm::vec3(animator.absolute_bone_transforms()[node] *
                                     model.skins[0].data.inverse_bind_pose[j.x] * glm::vec4(p, 1.f));
    ASSERT_TRUE(near(posed[v], want, 1e-5f)) << v;
    ASSERT_NEAR(glm::length(normals[v]), 1.f, 1e-5f);
    ++checked;
  }
  EXPECT_GT(checked, 0);
  // The tip joint really moved away from its bind position.
  EXPECT_FALSE(near(glm::vec3(animator.absolute_bone_transforms()[10][3]), glm::vec3(0, 6.25f, 0), 0.1f));
}

}  // namespace
}  // namespace marrow
