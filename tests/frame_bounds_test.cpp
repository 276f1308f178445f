// Per-frame bounds (S5): per-joint boxes made at load, SkinnedBoundsJob, Animator::bounds, and
// the one animated-bounds routine, checked against posed vertices (Animator::pose_part) on hand
// cases, the demo character (morph targets, a rigid mesh) and every shared asset that loads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "marrow/io/model_file.hpp"
#include "marrow/io/native/native_format.hpp"
#include "marrow/model/animated_bounds.hpp"
#include "marrow/model/animator.hpp"
#include "demo/demo_character.hpp"
#include "marrow/model/frame_bounds.hpp"
#include "marrow/model/loaded_pose_bounds.hpp"
#include "marrow/runtime/offline/joint_bounds_builder.hpp"
#include "marrow/runtime/skinned_bounds_job.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::random_rotation;
namespace fs = std::filesystem;
using test::near;

// Float slack: a few ulps of the coordinates involved (the box and where it sits).
float tolerance_of(const BoundingBox& box) {
  return 2e-5f * (glm::length(box.size()) + glm::length(box.center())) + 1e-6f;
}

// Every posed vertex of every part of the animator's current frame inside box; the first one
// outside as a failure message.
::testing::AssertionResult posed_inside(Animator& animator, const BoundingBox& box) {
  const Model& model = animator.model();
  const float tolerance = tolerance_of(box);
  std::vector<glm::vec3> posed;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    for (std::size_t p = 0; p < model.meshes[m].parts.size(); ++p) {
      posed.resize(model.meshes[m].parts[p].vertex_count());
      animator.pose_part(m, p, posed);
      for (std::size_t v = 0; v < posed.size(); ++v) {
        if (!box.contains(posed[v], tolerance)) {
          return ::testing::AssertionFailure()
                 << "mesh " << m << " part " << p << " vertex " << v << " at (" << posed[v].x << ", " << posed[v].y
                 << ", " << posed[v].z << ") outside (" << box.min.x << ", " << box.min.y << ", " << box.min.z
                 << ") - (" << box.max.x << ", " << box.max.y << ", " << box.max.z << ")";
        }
      }
    }
  }
  return ::testing::AssertionSuccess();
}

// A copy of model with one more animation "random": two keys per joint and per scene node,
// each a random rotation, a random translation (up to `reach`) and a random non-uniform scale,
// so playing it at random times gives random local poses of every joint.
Model with_random_animation(const Model& model, std::mt19937& rng, float reach) {
  Model out = model;
  std::uniform_real_distribution<float> u(-reach, reach), s(0.7f, 1.3f);
  const Ticks duration = ticks_from_seconds(1.0);
  const auto random_keys = [&](int index) {
    BoneTrack track{index, {}};
    for (const Ticks t : {Ticks{0}, duration}) {
      track.keys.push_back(Keyframe{t, glm::vec3(u(rng), u(rng), u(rng)), random_rotation(rng), glm::vec3(s(rng), s(rng), s(rng))});
    }
    return track;
  };
  ModelAnimation animation;
  animation.name = "random";
  animation.duration = duration;
  animation.scene_clip = AnimationClip{"random", duration, {}, ClipTargetSpace::SceneNode};
  for (std::size_t b = 1; b < out.nodes.size(); ++b) animation.scene_clip.tracks.push_back(random_keys(static_cast<int>(b)));
  for (Skin& skin : out.skins) {
    AnimationClip clip{"random", duration, {}, ClipTargetSpace::JointPalette};
    for (int j = 0; j < skin.data.bone_count; ++j) clip.tracks.push_back(random_keys(j));
    skin.data.animation_clips["random"] = std::move(clip);
  }
  out.animations.push_back(std::move(animation));
  return out;
}

// Every model file under the shared assets that loads (glTF, and Collada/FBX through Assimp).
std::vector<fs::path> shared_asset_files() {
  std::vector<fs::path> files;
  const fs::path root = MARROW_SHARED_ASSETS;
  if (!fs::is_directory(root)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".gltf" || ext == ".glb" || ext == ".dae" || ext == ".fbx") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::optional<Model> load_asset(const fs::path& file) {
  ModelFileOptions options;
  options.import.max_palette = 4096;  // the 200-joint perf character too
  try {
    return load_model_file(file, options);
  } catch (const std::exception&) {
    return std::nullopt;  // not every shared file is a model marrow loads
  }
}

TEST(SkinnedBoundsJob, S5_OneJointBoxTurnedAQuarterTurnGivesTheExpectedBox) {
  const std::vector<std::uint32_t> joints{1};
  const std::vector<glm::vec3> centers{{1.f, 0.f, 0.f}}, extents{{1.f, 0.5f, 0.25f}};
  // Joint 1 turned 90 degrees about +Z and moved up by 5; joint 0 (no box) is never read.
  const std::vector<glm::mat4> models{glm::mat4(0.f), glm::translate(glm::mat4(1.f), glm::vec3(0, 0, 5)) *
                                                          glm::rotate(glm::mat4(1.f), glm::radians(90.f), glm::vec3(0, 0, 1))};
  BoundingBox box;
  SkinnedBoundsJob job{joints, centers, extents, models, &box};
  ASSERT_TRUE(job.validate());
  ASSERT_TRUE(job.run());
  // Centre (1, 0, 0) -> (0, 1, 5); half extent (1, 0.5, 0.25) -> (0.5, 1, 0.25).
  EXPECT_TRUE(near(box.min, glm::vec3(-0.5f, 0.f, 4.75f), 1e-6f));
  EXPECT_TRUE(near(box.max, glm::vec3(0.5f, 2.f, 5.25f), 1e-6f));
  EXPECT_FALSE(box.empty);
  // 45 degrees: the box's diagonal reach, |cos| + |sin| per axis.
  const std::vector<glm::mat4> turned{glm::mat4(1.f), glm::rotate(glm::mat4(1.f), glm::radians(45.f), glm::vec3(0, 0, 1))};
  job.models = turned;
  ASSERT_TRUE(job.run());
  const float r = std::sqrt(0.5f);
  EXPECT_TRUE(near(box.max, glm::vec3(r + 1.5f * r, r + 1.5f * r, 0.25f), 1e-5f));
}

TEST(SkinnedBoundsJob, S5_RefusesBadInputsAndWritesNothing) {
  const std::vector<std::uint32_t> joints{0, 2};
  const std::vector<glm::vec3> two(2, glm::vec3(1.f)), one(1, glm::vec3(1.f));
  const std::vector<glm::mat4> models(2, glm::mat4(1.f));
  BoundingBox box{glm::vec3(7.f), glm::vec3(8.f), false};
  EXPECT_STREQ(SkinnedBoundsJob({joints, two, two, models, &box}).validate().field, "joints");  // 2 is outside models
  EXPECT_STREQ(SkinnedBoundsJob({joints, one, two, models, &box}).validate().field, "centers");
  EXPECT_STREQ(SkinnedBoundsJob({joints, two, one, models, &box}).validate().field, "extents");
  EXPECT_STREQ(SkinnedBoundsJob({joints, two, two, models, nullptr}).validate().field, "out");
  EXPECT_FALSE(SkinnedBoundsJob({joints, two, two, models, &box}).run());
  EXPECT_EQ(box.min, glm::vec3(7.f)) << "nothing written";
  // No joint with a box: an empty box.
  EXPECT_TRUE(SkinnedBoundsJob({{}, {}, {}, models, &box}).run());
  EXPECT_TRUE(box.empty);
}

TEST(JointBounds, S5_BoxesAreInJointSpaceAndJointsInfluencingNothingAreLeftOut) {
  // Joint 1 sits at x = 2 at bind: its inverse bind moves mesh points by -2 along x.
  const std::vector<glm::mat4> inverse_binds{glm::mat4(1.f), glm::translate(glm::mat4(1.f), glm::vec3(-2, 0, 0)),
                                             glm::mat4(1.f)};
  JointBoundsBuilder builder(inverse_binds);
  builder.add(1, glm::vec3(2, 1, 0));
  builder.add(1, glm::vec3(3, -1, 0));
  builder.add(0, glm::vec3(0, 0, 0), glm::vec3(1, 1, 1));  // a morph range: a box
  builder.add(9, glm::vec3(5, 5, 5));                      // outside the palette: ignored
  const JointBounds bounds = builder.finish();
  EXPECT_EQ(bounds.joint_count, 3u);
  ASSERT_EQ(bounds.joints, (std::vector<std::uint32_t>{0, 1}));  // joint 2 influences nothing
  EXPECT_TRUE(near(bounds.centers[0], glm::vec3(0.5f)));
  EXPECT_TRUE(near(bounds.extents[0], glm::vec3(0.5f)));
  EXPECT_TRUE(near(bounds.centers[1], glm::vec3(0.5f, 0.f, 0.f)));
  EXPECT_TRUE(near(bounds.extents[1], glm::vec3(0.5f, 1.f, 0.f)));
}

// The load-time walk over vertex rows (JointBoundsBuilder::add_vertices, every importer's) is
// one add() per influence whose weight is nonzero and whose joint lies in the palette, after
// the joint map, and the box of every position: the same boxes to the bit whatever runs of
// shared joints the walk batches, for every influence count, with and without a joint map.
TEST(JointBounds, S1_S5_VertexWalkIsOneAddPerNonzeroInfluence) {
  std::mt19937 rng(17);
  std::vector<glm::mat4> binds;
  for (int j = 0; j < 6; ++j) {
    binds.push_back(glm::translate(glm::mat4_cast(random_rotation(rng)), glm::vec3(j, -2.f * float(j), 0.5f)));
  }
  binds[0] = glm::mat4(1.f);  // identity: coordinates of 0 and -0 reach the boxes as they are
  // JOINTS values 0..7 through a map onto the palette: 6 and 7 past the palette, 8+ past the map.
  const std::vector<std::uint32_t> map{5, 4, 3, 2, 1, 0, 6, 99};
  const float coords[] = {0.f, -0.f, 1.f, -1.f, 2.5f, -3.25f, 1e-3f};
  std::uniform_int_distribution<int> pick(0, 6), joint(0, 9), run(1, 6), coin(0, 3);
  for (const std::uint32_t influences : {1u, 2u, 3u, 4u, 5u, 8u}) {
    for (const bool mapped : {false, true}) {
      const VertexLayout layout = VertexLayout::interleaved(
          {VertexAttribute::Position, VertexAttribute::Joints0, VertexAttribute::Weights0}, 4, influences);
      const std::uint32_t slots = 4 * layout.influence_sets();
      std::vector<std::byte> rows;
      JointBoundsBuilder reference(binds);
      BoundingBox positions;
      std::vector<std::uint16_t> joints(slots);
      std::vector<float> weights(slots);
      for (int v = 0; v < 600;) {
        // A run of vertices that share their joints and which weights are zero, then a change.
        for (std::uint32_t i = 0; i < slots; ++i) {
          joints[i] = i < influences ? static_cast<std::uint16_t>(joint(rng)) : 0;
          weights[i] = i < influences && coin(rng) != 0 ? 0.25f : 0.f;
        }
        if (coin(rng) == 0) weights[0] = -0.f;  // zero of either sign adds nothing
        for (int k = run(rng); k > 0 && v < 600; --k, ++v) {
          const glm::vec3 p(coords[pick(rng)], coords[pick(rng)], coords[pick(rng)]);
          const std::size_t at = rows.size();
          rows.resize(at + layout.stride);
          std::memcpy(&rows[at + layout.offset(VertexAttribute::Position)], &p, sizeof p);
          std::memcpy(&rows[at + layout.offset(VertexAttribute::Joints0)], joints.data(), 2 * slots);
          std::memcpy(&rows[at + layout.offset(VertexAttribute::Weights0)], weights.data(), 4 * slots);
          positions.extend(p);
          for (std::uint32_t i = 0; i < influences; ++i) {
            if (weights[i] == 0.f) continue;
            const std::uint32_t j = !mapped ? joints[i] : joints[i] < map.size() ? map[joints[i]] : 1000;
            reference.add(j, p);
          }
        }
      }
      JointBoundsBuilder walked(binds);
      const BoundingBox box = walked.add_vertices(rows, layout, mapped ? std::span<const std::uint32_t>(map)
                                                                       : std::span<const std::uint32_t>());
      const JointBounds want = reference.finish(), got = walked.finish();
      const std::string where = "influences " + std::to_string(influences) + (mapped ? ", mapped" : "");
      ASSERT_FALSE(want.joints.empty()) << where;
      EXPECT_EQ(got, want) << where;
      EXPECT_EQ(std::memcmp(got.centers.data(), want.centers.data(), want.centers.size() * sizeof(glm::vec3)), 0) << where;
      EXPECT_EQ(std::memcmp(got.extents.data(), want.extents.data(), want.extents.size() * sizeof(glm::vec3)), 0) << where;
      EXPECT_EQ(box.min, positions.min) << where;
      EXPECT_EQ(box.max, positions.max) << where;
    }
  }
}

TEST(AnimatorBounds, S5_DemoCharacterMorphsAndRigidMeshStayInsideEveryFrame) {
  const Model model = make_demo_character();
  ASSERT_TRUE(frame_bounds_ready(model));
  EXPECT_FALSE(model.meshes[1].local_bounds.empty) << "the rigid buoy has its local box";
  Animator animator(model);
  EXPECT_TRUE(posed_inside(animator, animator.bounds())) << "loaded pose";
  std::mt19937 rng(5);
  for (std::size_t a = 0; a < model.animations.size(); ++a) {
    animator.play(static_cast<int>(a));
    std::uniform_real_distribution<double> t(0.0, seconds_from_ticks(model.animations[a].duration));
    for (int k = 0; k < 40; ++k) {
      animator.update(ticks_from_seconds(t(rng)), false, false);
      ASSERT_TRUE(posed_inside(animator, animator.bounds())) << model.animations[a].name;
    }
  }
  // The morph range: a vertex moved by the bulge target lies beyond the bind shape's box, and
  // the box made at load includes it (weights in [0, 1] at least).
  const BoundingBox bind = [&] {
    Animator still(model);
    BoundingBox b;
    std::vector<glm::vec3> posed(model.meshes[0].parts[0].vertex_count());
    still.pose_part(0, 0, posed);
    for (const glm::vec3& p : posed) b.extend(p);
    return b;
  }();
  Animator loaded(model);
  const BoundingBox with_morphs = loaded.bounds();
  EXPECT_TRUE(with_morphs.contains(bind.min) && with_morphs.contains(bind.max));
}

TEST(AnimatorBounds, S5_RigidMeshWithoutSkinIsItsLocalBoxMovedByItsBone) {
  // One rigid triangle under node 1, which is turned 90 degrees about +Y and moved.
  Model model;
  model.nodes = {ModelNode{"root", -1, glm::mat4(1.f), -1},
                 ModelNode{"node", 0,
                           glm::translate(glm::mat4(1.f), glm::vec3(10, 0, 0)) *
                               glm::rotate(glm::mat4(1.f), glm::radians(90.f), glm::vec3(0, 1, 0)),
                           0}};
  ModelMeshPart part;
  part.layout = VertexLayout::interleaved({VertexAttribute::Position});
  const std::vector<glm::vec3> positions{{0, 0, 0}, {2, 0, 0}, {0, 1, 0}};
  part.vertex_bytes.resize(positions.size() * part.layout.stride);
  std::memcpy(part.vertex_bytes.data(), positions.data(), part.vertex_bytes.size());
  ModelMesh mesh;
  mesh.node = 1;
  mesh.parts.push_back(std::move(part));
  model.meshes.push_back(std::move(mesh));
  EXPECT_FALSE(frame_bounds_ready(model)) << "built in code: no boxes yet";
  {
    Animator own(model);  // makes its own boxes
    const BoundingBox box = own.bounds();
    EXPECT_TRUE(near(box.min, glm::vec3(10, 0, -2), 1e-5f));
    EXPECT_TRUE(near(box.max, glm::vec3(10, 1, 0), 1e-5f));
  }
  compute_frame_bounds(model);
  ASSERT_TRUE(frame_bounds_ready(model));
  EXPECT_TRUE(near(model.meshes[0].local_bounds.max, glm::vec3(2, 1, 0)));
  Animator animator(model);
  EXPECT_TRUE(near(animator.bounds().min, glm::vec3(10, 0, -2), 1e-5f));
  EXPECT_TRUE(posed_inside(animator, animator.bounds()));
}

TEST(AnimatorBounds, S5_DualQuaternionPartsArePosedAndContained) {
  Model model = make_demo_character();
  for (ModelMesh& mesh : model.meshes) {
    for (ModelMeshPart& part : mesh.parts) {
      if (mesh.skin >= 0) part.skinning = SkinningMode::DualQuaternion;
    }
  }
  std::mt19937 rng(9);
  const Model random = with_random_animation(model, rng, 0.3f);
  Animator posed(random);
  posed.play("random");
  std::uniform_real_distribution<double> t(0.0, 1.0);
  for (int k = 0; k < 20; ++k) {
    posed.update(ticks_from_seconds(t(rng)), false, false);
    ASSERT_TRUE(posed_inside(posed, posed.bounds())) << k;
  }
}

TEST(AnimatorBounds, S5_NativeFilesGetTheSameBoxesAtLoad) {
  const Model model = make_demo_character();
  const Model read = read_native(write_native(model));
  ASSERT_EQ(read.skins.size(), model.skins.size());
  EXPECT_EQ(read.skins[0].joint_bounds, model.skins[0].joint_bounds);
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    EXPECT_EQ(read.meshes[m].local_bounds.min, model.meshes[m].local_bounds.min);
    EXPECT_EQ(read.meshes[m].local_bounds.max, model.meshes[m].local_bounds.max);
  }
}

// What every importer finishes with, in one walk fewer: the same joint boxes, local boxes and
// loaded-pose spheres, to the bit, as the two walks apart, on every shared asset that loads and
// the demo character (morph targets: the spheres keep their own walk).
TEST(AnimatorBounds, S5_G17_ImportBoundsAreTheFrameBoundsAndSpheresMadeApart) {
  std::vector<Model> models{make_demo_character()};
  for (const fs::path& file : shared_asset_files()) {
    if (std::optional<Model> loaded = load_asset(file)) models.push_back(std::move(*loaded));
  }
  for (std::size_t i = 0; i < models.size(); ++i) {
    SCOPED_TRACE(i);
    Model apart = models[i], together = models[i];
    for (Model* m : {&apart, &together}) {
      for (ModelMesh& mesh : m->meshes) mesh.bounding_sphere = {}, mesh.local_bounds = {};
      for (Skin& skin : m->skins) skin.joint_bounds = {};
    }
    compute_loaded_pose_bounds(apart);
    compute_frame_bounds(apart);
    compute_import_bounds(together);
    for (std::size_t s = 0; s < apart.skins.size(); ++s) EXPECT_EQ(together.skins[s].joint_bounds, apart.skins[s].joint_bounds);
    for (std::size_t m = 0; m < apart.meshes.size(); ++m) {
      const ModelMesh &a = apart.meshes[m], &b = together.meshes[m];
      const auto same_bits = [](const auto& x, const auto& y) { return std::memcmp(&x, &y, sizeof x) == 0; };
      EXPECT_EQ(a.local_bounds.empty, b.local_bounds.empty) << "mesh " << m;
      EXPECT_TRUE(same_bits(a.local_bounds.min, b.local_bounds.min) && same_bits(a.local_bounds.max, b.local_bounds.max)) << "mesh " << m;
      EXPECT_TRUE(same_bits(a.bounding_sphere, b.bounding_sphere)) << "mesh " << m;
      // An importer made them the same way (the demo character is edited after it is built).
      if (i > 0) {
        EXPECT_TRUE(same_bits(b.bounding_sphere, models[i].meshes[m].bounding_sphere)) << "mesh " << m << ", as imported";
      }
    }
  }
  if (models.size() == 1) GTEST_SKIP() << "only the demo character: shared assets not found at " << MARROW_SHARED_ASSETS;
}

// The property over every shared asset: random local poses of every joint and node, and every
// clip at random times; the frame's box holds every posed vertex.
TEST(AnimatorBounds, S5_EveryPosedVertexOfEverySharedAssetIsInsideTheFrameBox) {
  const std::vector<fs::path> files = shared_asset_files();
  if (files.empty()) GTEST_SKIP() << "shared assets not found at " << MARROW_SHARED_ASSETS;
  std::size_t checked = 0;
  for (const fs::path& file : files) {
    const std::optional<Model> loaded = load_asset(file);
    if (!loaded) continue;
    SCOPED_TRACE(file.string());
    ASSERT_TRUE(frame_bounds_ready(*loaded));
    std::mt19937 rng(static_cast<unsigned>(checked + 1));
    float reach = 0.f;
    for (const ModelMesh& mesh : loaded->meshes) reach = std::max(reach, mesh.bounding_sphere.radius);
    const Model model = with_random_animation(*loaded, rng, 0.5f * reach + 0.1f);
    Animator animator(model);
    ASSERT_TRUE(posed_inside(animator, animator.bounds())) << "loaded pose";
    for (std::size_t a = 0; a < model.animations.size(); ++a) {
      animator.play(static_cast<int>(a));
      std::uniform_real_distribution<double> t(0.0, std::max(1e-3, seconds_from_ticks(model.animations[a].duration)));
      for (int k = 0; k < 8; ++k) {
        animator.update(ticks_from_seconds(t(rng)), false, false);
        ASSERT_TRUE(posed_inside(animator, animator.bounds())) << model.animations[a].name;
      }
    }
    ++checked;
  }
  EXPECT_GE(checked, 10u) << "most shared assets load";
}

// The one animated-bounds routine: every frame of every clip, at random times (not only the key
// times it samples), inside its box within a small share of the box (between keys the pose can
// swing slightly past both neighbours, animated_bounds.hpp); at key times exactly.
TEST(AnimatedBounds, S5_ContainsEveryFrameOfEveryClipAtRandomTimes) {
  std::vector<Model> models;
  models.push_back(make_demo_character());
  for (const fs::path& file : shared_asset_files()) {
    if (std::optional<Model> m = load_asset(file)) models.push_back(std::move(*m));
  }
  std::mt19937 rng(3);
  for (const Model& model : models) {
    const BoundingBox box = animated_bounds(model);
    Animator animator(model);
    bool vertices = false;
    for (const ModelMesh& mesh : model.meshes) {
      for (const ModelMeshPart& part : mesh.parts) vertices = vertices || part.vertex_count() > 0;
    }
    if (!vertices) continue;  // framed on its skeleton's joints instead
    ASSERT_FALSE(box.empty);
    EXPECT_TRUE(posed_inside(animator, box)) << "loaded pose";
    BoundingBox loose = box;
    loose.min -= 0.01f * box.size();
    loose.max += 0.01f * box.size();
    for (std::size_t a = 0; a < model.animations.size(); ++a) {
      animator.play(static_cast<int>(a));
      for (const Ticks t : animation_key_times(model, a)) {
        animator.update(t, false, false);
        ASSERT_TRUE(posed_inside(animator, box)) << model.animations[a].name << " key " << seconds_from_ticks(t);
      }
      std::uniform_real_distribution<double> t(0.0, seconds_from_ticks(model.animations[a].duration));
      for (int k = 0; k < 16; ++k) {
        animator.update(ticks_from_seconds(t(rng)), false, false);
        ASSERT_TRUE(posed_inside(animator, loose)) << model.animations[a].name;
      }
    }
  }
}

}  // namespace
}  // namespace marrow
