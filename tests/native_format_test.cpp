// io/native_format: exact round trips (demo character, every shared glTF asset, compressed
// clips), version 1 files still loading, G18 unit scale,
// G21 (bone range, the optional prefix block) and a hostile-file suite: truncation at every byte,
// random corruption, bad magic/version/framing, counts beyond limits, bad indices.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <limits>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_precision.hpp>

#include "gltf_test_util.hpp"
#include "marrow/runtime/animation_player.hpp"
#include "marrow/core/vertex_access.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/io/file_bytes.hpp"
#include "marrow/io/native/native_format.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/compiled_animations.hpp"
#include "marrow/model/compress_model_clips.hpp"
#include "marrow/model/demo_character.hpp"
#include "marrow/model/unit_scale.hpp"
#include "marrow/runtime/compressed_clip_data.hpp"

namespace marrow {
namespace {

namespace fs = std::filesystem;
using test::refuses;

const fs::path kAssets = MARROW_SHARED_ASSETS;

// ---------------------------------------------------------------------------------------------
// Exact comparison (floats bitwise) of two models, sharing structure included.

template <class T>
bool same_bits(const T& a, const T& b) {
  static_assert(std::is_trivially_copyable_v<T>);
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  static_assert(std::is_trivially_copyable_v<T>);
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool same_keys(const std::vector<Keyframe>& a, const std::vector<Keyframe>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k].time != b[k].time || !same_bits(a[k].translation, b[k].translation) ||
        !same_bits(a[k].rotation, b[k].rotation) || !same_bits(a[k].scale, b[k].scale)) {
      return false;
    }
  }
  return true;
}

void expect_same_clip(const AnimationClip& a, const AnimationClip& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.duration, b.duration);
  EXPECT_EQ(a.target_space, b.target_space);
  ASSERT_EQ(a.tracks.size(), b.tracks.size());
  for (std::size_t t = 0; t < a.tracks.size(); ++t) {
    EXPECT_EQ(a.tracks[t].bone_index, b.tracks[t].bone_index) << "track " << t;
    EXPECT_TRUE(same_keys(a.tracks[t].keys, b.tracks[t].keys)) << "track " << t;
  }
}

void expect_same_compressed_clip(const RuntimeClip& a, const RuntimeClip& b) {
  ASSERT_TRUE(a.compressed());
  ASSERT_TRUE(b.compressed());
  EXPECT_EQ(a.name(), b.name());
  EXPECT_EQ(a.duration(), b.duration());
  const CompressedClipData x = compressed_clip_data(a), y = compressed_clip_data(b);
  EXPECT_EQ(x.times, y.times);
  EXPECT_EQ(x.animated, y.animated);
  ASSERT_EQ(x.channels.size(), y.channels.size());
  for (std::size_t c = 0; c < x.channels.size(); ++c) {
    const CompressedChannel& u = x.channels[c];
    const CompressedChannel& v = y.channels[c];
    EXPECT_TRUE(u.key_times == v.key_times && u.bits == v.bits && u.uniform == v.uniform && same_bits(u.min, v.min) &&
                same_bits(u.step, v.step) && u.packed == v.packed)
        << "channel " << c;
  }
}

void expect_same_track(const MorphWeightTrack& a, const MorphWeightTrack& b) {
  EXPECT_EQ(a.interpolation, b.interpolation);
  EXPECT_EQ(a.weight_count, b.weight_count);
  EXPECT_TRUE(same_bits(a.times, b.times));
  EXPECT_TRUE(same_bits(a.values, b.values));
  EXPECT_TRUE(same_bits(a.in_tangents, b.in_tangents));
  EXPECT_TRUE(same_bits(a.out_tangents, b.out_tangents));
}

void expect_same_deltas(const std::vector<std::vector<glm::vec3>>& a, const std::vector<std::vector<glm::vec3>>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t t = 0; t < a.size(); ++t) EXPECT_TRUE(same_bits(a[t], b[t])) << "target " << t;
}

// Pointers of one model map one-to-one onto pointers of the other.
template <class T>
class SharingMap {
 public:
  void expect(const T* a, const T* b) {
    ASSERT_EQ(a == nullptr, b == nullptr);
    if (a == nullptr) return;
    const auto [it, added] = forward_.try_emplace(a, b);
    EXPECT_EQ(it->second, b) << "one object became two";
    const auto [jt, added_back] = backward_.try_emplace(b, a);
    EXPECT_EQ(jt->second, a) << "two objects became one";
  }

 private:
  std::map<const T*, const T*> forward_;
  std::map<const T*, const T*> backward_;
};

void expect_same_model(const Model& a, const Model& b) {
  ASSERT_EQ(a.bones.size(), b.bones.size());
  for (std::size_t i = 0; i < a.bones.size(); ++i) {
    SCOPED_TRACE("bone " + std::to_string(i));
    EXPECT_EQ(a.bones[i].name, b.bones[i].name);
    EXPECT_EQ(a.bones[i].parent, b.bones[i].parent);
    EXPECT_TRUE(same_bits(a.bones[i].transform, b.bones[i].transform));
    EXPECT_EQ(a.bones[i].source_node, b.bones[i].source_node);
  }
  SharingMap<Material> materials;
  SharingMap<SkinnedMaterial> skinned;
  ASSERT_EQ(a.meshes.size(), b.meshes.size());
  for (std::size_t m = 0; m < a.meshes.size(); ++m) {
    SCOPED_TRACE("mesh " + std::to_string(m));
    const ModelMesh& x = a.meshes[m];
    const ModelMesh& y = b.meshes[m];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.parent_bone, y.parent_bone);
    EXPECT_EQ(x.skin, y.skin);
    EXPECT_TRUE(same_bits(x.bounding_sphere.center, y.bounding_sphere.center));
    EXPECT_TRUE(same_bits(x.bounding_sphere.radius, y.bounding_sphere.radius));
    EXPECT_TRUE(same_bits(x.morph_weights, y.morph_weights));
    EXPECT_EQ(x.source_mesh, y.source_mesh);
    ASSERT_EQ(x.parts.size(), y.parts.size());
    for (std::size_t p = 0; p < x.parts.size(); ++p) {
      SCOPED_TRACE("part " + std::to_string(p));
      const ModelMeshPart& u = x.parts[p];
      const ModelMeshPart& v = y.parts[p];
      EXPECT_TRUE(same_bits(u.vertex_bytes, v.vertex_bytes));
      EXPECT_EQ(u.layout, v.layout);
      EXPECT_EQ(u.indices, v.indices);
      EXPECT_EQ(u.mode, v.mode);
      materials.expect(u.material.get(), v.material.get());
      if (u.material && v.material) {
        EXPECT_EQ(u.material->name, v.material->name);
        EXPECT_TRUE(same_bits(u.material->base_color, v.material->base_color));
        EXPECT_EQ(u.material->double_sided, v.material->double_sided);
        EXPECT_EQ(u.material->source_material, v.material->source_material);
      }
      skinned.expect(u.skinned_material.get(), v.skinned_material.get());
      if (u.skinned_material && v.skinned_material) {
        EXPECT_EQ(u.skinned_material->max_bones(), v.skinned_material->max_bones());
      }
      EXPECT_EQ(u.revision, v.revision);
      EXPECT_EQ(u.source_primitive, v.source_primitive);
      EXPECT_EQ(u.source_vertices, v.source_vertices);
      EXPECT_EQ(u.source_vertex_count, v.source_vertex_count);
      ASSERT_EQ(u.morph.has_value(), v.morph.has_value());
      if (!u.morph) continue;
      const MorphTargetData& s = *u.morph;
      const MorphTargetData& t = *v.morph;
      EXPECT_TRUE(same_bits(s.base_vertex_bytes, t.base_vertex_bytes));
      EXPECT_EQ(s.layout, t.layout);
      expect_same_deltas(s.position_deltas, t.position_deltas);
      expect_same_deltas(s.normal_deltas, t.normal_deltas);
      expect_same_deltas(s.tangent_deltas, t.tangent_deltas);
      EXPECT_TRUE(same_bits(s.weights, t.weights));
      ASSERT_EQ(s.weight_track.has_value(), t.weight_track.has_value());
      if (s.weight_track) expect_same_track(*s.weight_track, *t.weight_track);
      EXPECT_EQ(s.recompute_flat_normals, t.recompute_flat_normals);
      EXPECT_EQ(s.triangle_indices, t.triangle_indices);
    }
  }
  ASSERT_EQ(a.skins.size(), b.skins.size());
  for (std::size_t s = 0; s < a.skins.size(); ++s) {
    SCOPED_TRACE("skin " + std::to_string(s));
    const Skin& x = a.skins[s];
    const Skin& y = b.skins[s];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.data.bone_count, y.data.bone_count);
    EXPECT_EQ(x.data.skeleton_hierarchy, y.data.skeleton_hierarchy);
    EXPECT_TRUE(same_bits(x.data.bind_pose, y.data.bind_pose));
    EXPECT_TRUE(same_bits(x.data.inverse_bind_pose, y.data.inverse_bind_pose));
    EXPECT_TRUE(same_bits(x.data.skeleton_root_prefix, y.data.skeleton_root_prefix));
    EXPECT_EQ(x.data.skeleton_root_node_index, y.data.skeleton_root_node_index);
    EXPECT_EQ(x.data.skeleton_root_name, y.data.skeleton_root_name);
    ASSERT_EQ(x.data.animation_clips.size(), y.data.animation_clips.size());
    for (auto i = x.data.animation_clips.begin(), j = y.data.animation_clips.begin(); i != x.data.animation_clips.end();
         ++i, ++j) {
      EXPECT_EQ(i->first, j->first);
      expect_same_clip(i->second, j->second);
    }
    ASSERT_EQ(x.compressed_clips.size(), y.compressed_clips.size());
    for (auto i = x.compressed_clips.begin(), j = y.compressed_clips.begin(); i != x.compressed_clips.end(); ++i, ++j) {
      EXPECT_EQ(i->first, j->first);
      expect_same_compressed_clip(i->second, j->second);
    }
    EXPECT_EQ(x.meshes, y.meshes);
    EXPECT_EQ(x.scene_to_palette, y.scene_to_palette);
    EXPECT_EQ(x.palette_to_scene, y.palette_to_scene);
    EXPECT_EQ(x.source_joints, y.source_joints);
    EXPECT_EQ(x.source_skin, y.source_skin);
  }
  ASSERT_EQ(a.animations.size(), b.animations.size());
  for (std::size_t i = 0; i < a.animations.size(); ++i) {
    SCOPED_TRACE("animation " + std::to_string(i));
    EXPECT_EQ(a.animations[i].name, b.animations[i].name);
    EXPECT_EQ(a.animations[i].duration, b.animations[i].duration);
    expect_same_clip(a.animations[i].scene_clip, b.animations[i].scene_clip);
    ASSERT_EQ(a.animations[i].morph_channels.size(), b.animations[i].morph_channels.size());
    for (std::size_t c = 0; c < a.animations[i].morph_channels.size(); ++c) {
      EXPECT_EQ(a.animations[i].morph_channels[c].mesh, b.animations[i].morph_channels[c].mesh);
      expect_same_track(a.animations[i].morph_channels[c].track, b.animations[i].morph_channels[c].track);
    }
  }
  ASSERT_EQ(a.diagnostics.size(), b.diagnostics.size());
  for (std::size_t i = 0; i < a.diagnostics.size(); ++i) {
    EXPECT_EQ(a.diagnostics[i].code, b.diagnostics[i].code);
    EXPECT_EQ(a.diagnostics[i].count, b.diagnostics[i].count);
    EXPECT_EQ(a.diagnostics[i].message, b.diagnostics[i].message);
  }
  EXPECT_EQ(a.source.scene, b.source.scene);
  EXPECT_EQ(a.source.node_to_bone, b.source.node_to_bone);
}

// Every skinned material carries the same palette in both models (the reader reinstalls the
// bind-pose palette, as the importer and make_demo_character do).
void expect_same_palettes(const Model& a, const Model& b) {
  for (std::size_t m = 0; m < a.meshes.size(); ++m) {
    for (std::size_t p = 0; p < a.meshes[m].parts.size(); ++p) {
      const auto& x = a.meshes[m].parts[p].skinned_material;
      const auto& y = b.meshes[m].parts[p].skinned_material;
      if (!x || !y) continue;
      const auto u = x->bone_transforms();
      const auto v = y->bone_transforms();
      ASSERT_EQ(u.size(), v.size());
      EXPECT_EQ(std::memcmp(u.data(), v.data(), u.size_bytes()), 0) << "mesh " << m << " part " << p;
    }
  }
}

// The largest absolute difference between two float arrays (0 when bitwise equal).
float max_difference(std::span<const float> a, std::span<const float> b) {
  float worst = 0.f;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) worst = std::max(worst, std::fabs(a[i] - b[i]));
  return worst;
}

template <class T>
std::span<const float> floats(std::span<const T> v) {
  return {reinterpret_cast<const float*>(v.data()), v.size_bytes() / sizeof(float)};
}

// Plays every animation of both models (and the loaded pose) through an Animator at several
// times and compares absolute bone transforms and every posed part (positions and normals).
void expect_same_poses(const Model& a, const Model& b, float tolerance = 0.f, std::size_t max_times = 6) {
  Animator x(a);
  Animator y(b);
  for (int anim = -1; anim < static_cast<int>(a.animations.size()); ++anim) {
    x.play(anim);
    y.play(anim);
    const double duration = anim >= 0 ? seconds_from_ticks(a.animations[static_cast<std::size_t>(anim)].duration) : 1.0;
    const std::vector<double> times{0.0, 0.1, 0.37, duration * 0.5, duration * 0.9, duration + 0.25};
    for (std::size_t i = 0; i < std::min(max_times, times.size()); ++i) {
      const Ticks t = ticks_from_seconds(times[i]);
      x.update(t, false, false);
      y.update(t, false, false);
      SCOPED_TRACE("animation " + std::to_string(anim) + " at " + std::to_string(times[i]) + " s");
      ASSERT_LE(max_difference(floats(x.absolute_bone_transforms()), floats(y.absolute_bone_transforms())), tolerance);
      for (std::size_t m = 0; m < a.meshes.size(); ++m) {
        for (std::size_t p = 0; p < a.meshes[m].parts.size(); ++p) {
          const std::size_t n = a.meshes[m].parts[p].vertex_count();
          std::vector<glm::vec3> px(n), nx(n), py(n), ny(n);
          x.pose_part(m, p, px, nx);
          y.pose_part(m, p, py, ny);
          ASSERT_LE(max_difference(floats(std::span<const glm::vec3>(px)), floats(std::span<const glm::vec3>(py))),
                    tolerance)
              << "mesh " << m << " part " << p << " positions";
          ASSERT_LE(max_difference(floats(std::span<const glm::vec3>(nx)), floats(std::span<const glm::vec3>(ny))),
                    tolerance)
              << "mesh " << m << " part " << p << " normals";
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// A small model that uses every field of the format, with sentinel values the hostile tests
// search for to find a field's offset (layout per docs/native-format.md).

constexpr int kPrimitiveSentinel = 0x7A002000;  // part 0 of mesh 0: source_primitive
constexpr int kNodeSentinel = 0x7A001000;       // bone i: source_node = sentinel + i
constexpr int kSkinSentinel = 0x7A005000;     // skin 0: source_skin
constexpr double kChannelTimeSentinel = 0.123456789012345;  // animation 0 channel 0: times[0]

glm::mat4 translate(float x, float y, float z) { return glm::translate(glm::mat4(1.f), glm::vec3(x, y, z)); }

ModelMeshPart triangle_part(const VertexLayout& layout, float x) {
  using A = VertexAttribute;
  ModelMeshPart part;
  part.layout = layout;
  part.vertex_bytes.resize(3 * layout.stride);
  for (std::size_t v = 0; v < 3; ++v) {
    write_attribute(part.vertex_bytes, layout, v, A::Position, glm::vec3(x + float(v), float(v == 2), 0.5f));
    if (layout.has(A::Normal)) write_attribute(part.vertex_bytes, layout, v, A::Normal, glm::vec3(0, 0, 1));
    if (layout.has(A::Tangent)) write_attribute(part.vertex_bytes, layout, v, A::Tangent, glm::vec4(1, 0, 0, -1));
    if (layout.has(A::TexCoord0)) write_attribute(part.vertex_bytes, layout, v, A::TexCoord0, glm::vec2(0.5f, float(v)));
    if (layout.has(A::Joints0)) {
      write_attribute(part.vertex_bytes, layout, v, A::Joints0, glm::u16vec4(v % 2, 0, 0, 0));
      write_attribute(part.vertex_bytes, layout, v, A::Weights0, glm::vec4(1, 0, 0, 0));
    }
  }
  return part;
}

Model small_model() {
  using A = VertexAttribute;
  Model model;
  const char* names[] = {"root", "Armature", "J0", "J1", "MeshNode", "Prop"};
  const int parents[] = {-1, 0, 1, 2, 0, 0};
  const glm::mat4 locals[] = {glm::mat4(1.f), glm::scale(translate(0, 1, 0), glm::vec3(1.5f)), translate(0, 0.5f, 0),
                              translate(0, 1, 0), translate(0, 0, 2), translate(1, 0, 0)};
  for (int i = 0; i < 6; ++i) model.bones.push_back(ModelBone{names[i], parents[i], locals[i], kNodeSentinel + i});

  auto shared = std::make_shared<Material>(Material{"Shared", glm::vec4(0.25f, 0.5f, 0.75f, 1.f), true, 3});
  auto other = std::make_shared<Material>(Material{"Other", glm::vec4(1.f, 0.f, 0.f, 0.5f), false, -1});
  auto palette = std::make_shared<SkinnedMaterial>(4);

  const VertexLayout full = VertexLayout::interleaved({A::Position, A::Normal, A::Tangent, A::TexCoord0, A::Joints0, A::Weights0}, 4);
  ModelMesh skinned_mesh;
  skinned_mesh.name = "MeshSentinel";
  skinned_mesh.parent_bone = 4;
  skinned_mesh.skin = 0;
  skinned_mesh.bounding_sphere = {glm::vec3(1, 0.5f, 0.5f), 2.f};
  skinned_mesh.morph_weights = {0.25f, 0.f};
  skinned_mesh.source_mesh = 9;
  ModelMeshPart p0 = triangle_part(full, 0.f);
  p0.indices = {0, 1, 2};
  p0.material = shared;
  p0.skinned_material = palette;
  p0.revision = 5;
  p0.source_primitive = kPrimitiveSentinel;
  p0.source_vertices = {2, 1, 0};
  p0.source_vertex_count = 3;
  MorphTargetData morph;
  morph.base_vertex_bytes = p0.vertex_bytes;
  morph.layout = full;
  morph.position_deltas = {{{0, 0.1f, 0}, {0, 0.2f, 0}, {0, 0.3f, 0}}, {{0.5f, 0, 0}, {0, 0, 0}, {-0.5f, 0, 0}}};
  morph.normal_deltas = {{{0.1f, 0, 0}, {0, 0.1f, 0}, {0, 0, 0.1f}}, {}};  // an empty inner vector is kept
  morph.tangent_deltas = {{}, {{0, 0.2f, 0}, {0, 0.2f, 0}, {0, 0.2f, 0}}};
  morph.weights = {0.25f, 0.f};
  MorphWeightTrack default_track;
  default_track.interpolation = Interpolation::CubicSpline;
  default_track.weight_count = 2;
  default_track.times = {0.0, 0.5, 1.0};
  default_track.values = {0.f, 0.f, 1.f, 0.5f, 0.f, 1.f};
  default_track.in_tangents = {0.f, 0.f, 0.1f, 0.2f, 0.f, 0.f};
  default_track.out_tangents = {0.3f, 0.f, 0.f, 0.f, 0.f, -0.1f};
  morph.weight_track = default_track;
  morph.recompute_flat_normals = true;
  morph.triangle_indices = {0, 1, 2};
  p0.morph = morph;
  skinned_mesh.parts.push_back(p0);
  ModelMeshPart p1 = triangle_part(full, 3.f);  // non-indexed, same palette as part 0
  p1.material = other;
  p1.skinned_material = palette;
  p1.mode = PrimitiveMode::TriangleStrip;
  skinned_mesh.parts.push_back(p1);
  model.meshes.push_back(skinned_mesh);

  ModelMesh prop;
  prop.name = "Prop";
  prop.parent_bone = 5;
  ModelMeshPart line = triangle_part(VertexLayout::interleaved({A::Position}), -1.f);
  line.mode = PrimitiveMode::Lines;
  line.indices = {0, 1, 1, 2};
  line.material = shared;
  prop.parts.push_back(line);
  model.meshes.push_back(prop);

  ModelMesh second;  // drawn by skin 1: its own skinned material (M3)
  second.name = "Second";
  second.parent_bone = 4;
  second.skin = 1;
  ModelMeshPart p2 = triangle_part(VertexLayout::interleaved({A::Position, A::Joints0, A::Weights0}), 5.f);
  for (std::size_t v = 0; v < 3; ++v) write_attribute(p2.vertex_bytes, p2.layout, v, A::Joints0, glm::u16vec4(0));
  p2.skinned_material = std::make_shared<SkinnedMaterial>();
  second.parts.push_back(p2);
  model.meshes.push_back(second);

  Skin skin;
  skin.name = "SkinSentinel";
  skin.data.bone_count = 2;
  skin.data.skeleton_hierarchy = {-1, 0};
  skin.data.bind_pose = {locals[2], locals[3]};
  const glm::mat4 w1 = locals[1];
  skin.data.inverse_bind_pose = {glm::inverse(w1 * locals[2]), glm::inverse(w1 * locals[2] * locals[3])};
  skin.data.skeleton_root_prefix = {glm::inverse(locals[4]) * w1, glm::mat4(1.f)};
  skin.data.skeleton_root_node_index = 2;
  skin.data.skeleton_root_name = "J0";
  AnimationClip walk;
  walk.name = "Walk";
  walk.duration = ticks_from_seconds(1.0);
  for (int j = 0; j < 2; ++j) {
    BoneTrack track{j, {}};
    for (int k = 0; k < 3; ++k) {
      Keyframe key;
      key.time = ticks_from_seconds(0.5 * k);
      key.translation = glm::vec3(0, 0.5f + 0.5f * float(j), 0.1f * float(k));
      key.rotation = glm::angleAxis(0.3f * float(k), glm::vec3(0, 0, 1));
      key.scale = glm::vec3(1.f + 0.1f * float(k));
      track.keys.push_back(key);
    }
    walk.tracks.push_back(track);
  }
  walk.tracks.push_back(BoneTrack{7, {}});  // an empty track on a bone outside the skeleton
  skin.data.animation_clips["Walk"] = walk;
  skin.meshes = {0};
  skin.scene_to_palette = {-1, -1, 0, 1, -1, -1};
  skin.palette_to_scene = {2, 3};
  skin.source_joints = {1, 0};
  skin.source_skin = kSkinSentinel;
  model.skins.push_back(skin);

  Skin one;
  one.name = "One";
  one.data.bone_count = 1;
  one.data.skeleton_hierarchy = {-1};
  one.data.bind_pose = {translate(0, 0, 1)};
  one.data.inverse_bind_pose = {translate(0, 0, -1)};
  one.meshes = {2};
  model.skins.push_back(one);

  ModelAnimation walk_anim;
  walk_anim.name = "Walk";
  walk_anim.duration = ticks_from_seconds(1.0);
  walk_anim.scene_clip.name = "Walk";
  walk_anim.scene_clip.duration = walk_anim.duration;
  walk_anim.scene_clip.target_space = ClipTargetSpace::SceneNode;
  Keyframe k0, k1;
  k1.time = ticks_from_seconds(1.0);
  k1.translation = glm::vec3(1, 2, 3);
  walk_anim.scene_clip.tracks.push_back(BoneTrack{5, {k0, k1}});
  MorphWeightTrack channel;
  channel.weight_count = 2;
  channel.times = {kChannelTimeSentinel, 0.75};
  channel.values = {0.f, 1.f, 1.f, 0.f};
  walk_anim.morph_channels.push_back(MorphWeightChannel{0, channel});
  model.animations.push_back(walk_anim);
  ModelAnimation idle;
  idle.name = "Idle";
  idle.scene_clip.target_space = ClipTargetSpace::SceneNode;
  model.animations.push_back(idle);

  model.diagnostics.push_back(Diagnostic{DiagnosticCode::SkinWeightsZero, 3, "the first of three"});
  model.source.scene = 0;
  model.source.node_to_bone = {1, 2, 3, 4, 5, -1};
  return model;
}

// ---------------------------------------------------------------------------------------------
// Byte surgery on files.

using Bytes = std::vector<std::byte>;

template <class T>
void put(Bytes& b, std::size_t at, T v) {
  ASSERT_LE(at + sizeof(T), b.size());
  std::memcpy(b.data() + at, &v, sizeof(T));
}

template <class T>
T get(const Bytes& b, std::size_t at) {
  T v{};
  if (at + sizeof(T) <= b.size()) std::memcpy(&v, b.data() + at, sizeof(T));
  return v;
}

// The offset of the only occurrence of value's bytes (fails the test when not exactly one).
template <class T>
std::size_t find_unique(const Bytes& b, const T& value) {
  std::vector<std::size_t> hits;
  for (std::size_t i = 0; i + sizeof(T) <= b.size(); ++i) {
    if (std::memcmp(b.data() + i, &value, sizeof(T)) == 0) hits.push_back(i);
  }
  EXPECT_EQ(hits.size(), 1u) << "sentinel found " << hits.size() << " times";
  return hits.empty() ? 0 : hits.front();
}

// The offset just after the only length-prefixed string s.
std::size_t after_string(const Bytes& b, std::string_view s) {
  std::vector<std::byte> pattern(4);
  const auto n = static_cast<std::uint32_t>(s.size());
  std::memcpy(pattern.data(), &n, 4);
  const auto* chars = reinterpret_cast<const std::byte*>(s.data());
  pattern.insert(pattern.end(), chars, chars + s.size());
  const auto it = std::search(b.begin(), b.end(), pattern.begin(), pattern.end());
  EXPECT_NE(it, b.end()) << "string '" << s << "' not found";
  return static_cast<std::size_t>(it - b.begin()) + pattern.size();
}

struct Section {
  std::uint32_t tag;
  std::uint32_t flags;
  Bytes payload;
};

std::uint32_t tag_of(const char (&s)[5]) {
  std::uint32_t t;
  std::memcpy(&t, s, 4);
  return t;
}

std::vector<Section> split(const Bytes& b) {
  std::vector<Section> out;
  std::size_t pos = 24;
  while (pos + 16 <= b.size()) {
    const auto length = get<std::uint64_t>(b, pos + 8);
    Section s{get<std::uint32_t>(b, pos), get<std::uint32_t>(b, pos + 4), {}};
    s.payload.assign(b.begin() + static_cast<std::ptrdiff_t>(pos + 16),
                     b.begin() + static_cast<std::ptrdiff_t>(pos + 16 + length));
    out.push_back(std::move(s));
    pos += 16 + length;
  }
  return out;
}

// A well-framed file (header length and section count right) from sections.
Bytes join(const Bytes& original, const std::vector<Section>& sections) {
  Bytes b(original.begin(), original.begin() + 24);
  for (const Section& s : sections) {
    const std::size_t at = b.size();
    b.resize(at + 16);
    put(b, at, s.tag);
    put(b, at + 4, s.flags);
    put(b, at + 8, static_cast<std::uint64_t>(s.payload.size()));
    b.insert(b.end(), s.payload.begin(), s.payload.end());
  }
  put(b, 12, static_cast<std::uint32_t>(sections.size()));
  put(b, 16, static_cast<std::uint64_t>(b.size()));
  return b;
}

// Either loads a model every consumer can use (an Animator plays and poses it) or throws
// ImportError; anything else (another exception, a crash under the sanitizers) fails.
::testing::AssertionResult loads_or_refuses(const Bytes& bytes, bool* loaded = nullptr) {
  Model model;
  try {
    model = read_native(bytes);
  } catch (const ImportError&) {
    if (loaded) *loaded = false;
    return ::testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw a non-ImportError: " << e.what();
  }
  if (loaded) *loaded = true;
  try {
    Animator animator(model);
    for (int a = -1; a < static_cast<int>(model.animations.size()); ++a) {
      animator.play(a);
      animator.update(ticks_from_seconds(0.3), false, true);
      animator.install_palettes();
      for (std::size_t m = 0; m < model.meshes.size(); ++m) {
        for (std::size_t p = 0; p < model.meshes[m].parts.size(); ++p) {
          std::vector<glm::vec3> positions(model.meshes[m].parts[p].vertex_count());
          std::vector<glm::vec3> normals(positions.size());
          animator.pose_part(m, p, positions, normals);
        }
      }
    }
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "a loaded model could not be played: " << e.what();
  }
  return ::testing::AssertionSuccess();
}

// ---------------------------------------------------------------------------------------------
// Round trips.

TEST(NativeFormat, SmallModelRoundTripsExactly) {
  const Model original = small_model();
  ASSERT_NO_THROW(validate(original));
  const Bytes bytes = write_native(original);
  EXPECT_TRUE(is_native(bytes));
  const Model loaded = read_native(bytes);
  expect_same_model(original, loaded);
  expect_same_poses(original, loaded);
  // Writing what was read gives the same bytes.
  EXPECT_EQ(write_native(loaded), bytes);
}

TEST(NativeFormat, DemoCharacterRoundTripsExactly) {
  const Model original = make_demo_character();
  const Bytes bytes = write_native(original);
  const Model loaded = read_native(bytes);
  expect_same_model(original, loaded);
  expect_same_palettes(original, loaded);
  expect_same_poses(original, loaded);
  EXPECT_EQ(write_native(loaded), bytes);
}

TEST(NativeFormat, SharingOfMaterialsAndSkinnedMaterialsIsRestored) {
  const Model loaded = read_native(write_native(small_model()));
  const auto& parts = loaded.meshes[0].parts;
  // Parts of one mesh share one SkinnedMaterial; two skins never share one (M3).
  EXPECT_EQ(parts[0].skinned_material, parts[1].skinned_material);
  EXPECT_NE(parts[0].skinned_material, loaded.meshes[2].parts[0].skinned_material);
  EXPECT_EQ(parts[0].skinned_material->max_bones(), 4);
  EXPECT_EQ(loaded.meshes[2].parts[0].skinned_material->max_bones(), kDefaultMaxBones);
  EXPECT_EQ(parts[0].material, loaded.meshes[1].parts[0].material);
  EXPECT_NE(parts[0].material, parts[1].material);
  EXPECT_EQ(loaded.meshes[2].parts[0].material, nullptr);
  // M2: each skin's bind-pose palette is installed on exactly its meshes' materials.
  for (std::size_t s = 0; s < 2; ++s) {
    const AnimationPlayer player(loaded.skins[s].data);
    const auto palette = player.skin_transforms();
    const auto& material = loaded.meshes[s == 0 ? 0 : 2].parts[0].skinned_material;
    EXPECT_EQ(material->install_count(), 1u);
    EXPECT_EQ(std::memcmp(material->bone_transforms().data(), palette.data(), palette.size_bytes()), 0);
    EXPECT_TRUE(same_bits(material->bone_transforms()[palette.size()], glm::mat4(1.f)));
  }
}

TEST(NativeFormat, EverySharedGltfAssetRoundTripsWithIdenticalPoses) {
  const fs::path folder = kAssets / "gltf";
  if (!fs::is_directory(folder)) GTEST_SKIP() << "shared assets not found at " << folder;
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".gltf" || ext == ".glb")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  EXPECT_GE(files.size(), 9u);
  ImportOptions options;
  options.max_palette = 256;
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const Model original = import_gltf(file, options);
    const Bytes bytes = write_native(original);
    const Model loaded = read_native(bytes);
    expect_same_model(original, loaded);
    expect_same_palettes(original, loaded);
    expect_same_poses(original, loaded);
    EXPECT_EQ(write_native(loaded), bytes);
  }
}

TEST(NativeFormat, BigSkinnedAssetRoundTrips) {
  const fs::path file = kAssets / "perf/big_skinned.glb";
  if (!fs::exists(file)) GTEST_SKIP() << "shared asset not found: " << file;
  ImportOptions options;
  options.max_palette = 256;
  const Model original = import_gltf(file, options);
  const Bytes bytes = write_native(original);
  const Model loaded = read_native(bytes);
  expect_same_model(original, loaded);
  expect_same_palettes(original, loaded);
  expect_same_poses(original, loaded, 0.f, 2);
}

// The demo character with its skin clips compressed (compress_model_clips).
Model compressed_demo() {
  Model model = make_demo_character();
  compress_model_clips(model, ClipCompression{});
  return model;
}

TEST(NativeFormat, CompressedClipsRoundTripExactlyAndPlayCompressed) {
  const Model original = compressed_demo();
  ASSERT_EQ(original.skins[0].compressed_clips.size(), original.skins[0].data.animation_clips.size());
  const Bytes bytes = write_native(original);
  const Model loaded = read_native(bytes);
  expect_same_model(original, loaded);  // the authored clips rebuilt bitwise, the compressed data too
  expect_same_poses(original, loaded);
  EXPECT_EQ(write_native(loaded), bytes);
  const auto compiled = compile_animations(loaded);
  for (std::size_t a = 0; a < loaded.animations.size(); ++a) {
    const auto& clip = compiled->animations[a].skin_clips[0];
    if (clip) {
      EXPECT_TRUE(clip->compressed()) << loaded.animations[a].name;
    }
  }
}

TEST(NativeFormat, CompressedClipsMakeSmallerFiles) {
  const fs::path file = kAssets / "gltf/CesiumMan/cesium_man.gltf";
  if (!fs::exists(file)) GTEST_SKIP() << "shared asset not found: " << file;
  Model model = import_gltf(file);
  const std::size_t plain = write_native(model).size();
  std::size_t plain_clips = 0;
  for (const auto& [name, clip] : model.skins[0].data.animation_clips) {
    for (const BoneTrack& t : clip.tracks) plain_clips += t.keys.size() * 48;
  }
  compress_model_clips(model, ClipCompression{});
  const std::size_t compressed = write_native(model).size();
  // The clip bytes shrink to well under a quarter (48-byte keys against a few bits per channel).
  EXPECT_LT(compressed, plain - plain_clips * 3 / 4) << plain << " bytes, " << plain_clips << " of keys";
}

// A file written by the version 1 writer (before compressed clips): the demo character without
// its meshes, committed in tests/data/native (S1_S3_AVersion1FileStillLoads has one with meshes).
TEST(NativeFormat, Version1FilesStillLoad) {
  const fs::path path = fs::path(MARROW_TEST_DATA) / "native" / "demo_character_v1_skeleton.marrow";
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path;
  const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const Bytes bytes(reinterpret_cast<const std::byte*>(raw.data()), reinterpret_cast<const std::byte*>(raw.data()) + raw.size());
  ASSERT_EQ(get<std::uint32_t>(bytes, 4), 1u);
  Model expected = make_demo_character();
  expected.meshes.clear();
  for (Skin& skin : expected.skins) skin.meshes.clear();
  for (ModelAnimation& a : expected.animations) a.morph_channels.clear();
  const Model loaded = read_native(bytes);
  expect_same_model(expected, loaded);
  expect_same_poses(expected, loaded);
  // Version 1 knows no CCLP section: one marked required is refused, as any unknown section.
  std::vector<Section> sections = split(bytes);
  sections.push_back(split(write_native(compressed_demo()))[5]);
  ASSERT_EQ(sections.back().tag, tag_of("CCLP"));
  EXPECT_TRUE(refuses([&] { read_native(join(bytes, sections)); }, ImportErrorCode::VersionMismatch,
                      {"'CCLP'", "version 1"}));
}

TEST(NativeFormat, CompressedClipKeysCountAgainstTheLimits) {
  const Bytes bytes = write_native(compressed_demo());
  ImportLimits limits;
  limits.max_animation_keys = 10;
  EXPECT_TRUE(refuses([&] { read_native(bytes, limits); }, ImportErrorCode::LimitExceeded,
                      {"section 'CCLP' skin 0 compressed clip 0", "max_animation_keys"}));
}

TEST(NativeFormat, CompressedClipsSurviveUnitScale) {
  Model model = compressed_demo();
  apply_unit_scale(model, 100.f);
  ASSERT_NO_THROW(validate(model));
  const Model loaded = read_native(write_native(model));
  expect_same_model(model, loaded);
  // The compressed clip and the authored clip still agree (it plays what the authored clip says).
  for (const auto& [name, clip] : model.skins[0].compressed_clips) {
    const AnimationClip played = decompress_clip(clip);
    const AnimationClip& authored = model.skins[0].data.animation_clips.at(name);
    ASSERT_EQ(played.tracks.size(), authored.tracks.size());
    for (std::size_t t = 0; t < played.tracks.size(); ++t) EXPECT_TRUE(same_keys(played.tracks[t].keys, authored.tracks[t].keys));
  }
  // And they are the original's scaled: compare a translation key.
  const Model plain = compressed_demo();
  const auto& a = plain.skins[0].data.animation_clips.begin()->second.tracks[0].keys[0].translation;
  const auto& b = model.skins[0].data.animation_clips.begin()->second.tracks[0].keys[0].translation;
  EXPECT_NEAR(b.x, 100.f * a.x, 1e-3f);
  EXPECT_NEAR(b.y, 100.f * a.y, 1e-3f);
}

TEST(NativeFormat, FilesRoundTripThroughDisk) {
  const fs::path path = fs::temp_directory_path() / ("marrow_native_test_" + std::to_string(::getpid()) + ".mrrw");
  const Model original = make_demo_character();
  write_native_file(original, path);
  const Model loaded = read_native_file(path);
  expect_same_model(original, loaded);
  // Errors from a file name it.
  Bytes bytes = write_native(original);
  put(bytes, 4, std::uint32_t{9});
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  EXPECT_TRUE(refuses([&] { read_native_file(path); }, ImportErrorCode::VersionMismatch, {path.filename().string(), "version 9"}));
  fs::remove(path);
  EXPECT_TRUE(refuses([&] { read_native_file(path); }, ImportErrorCode::IoError, {}));
}

TEST(NativeFormat, G18_UnitScaleBeforeWritingScalesTranslationsOnly) {
  const Model original = make_demo_character();
  Model scaled = original;
  apply_unit_scale(scaled, 0.01f);
  const Model loaded = read_native(write_native(scaled));
  expect_same_model(scaled, loaded);
  expect_same_poses(scaled, loaded);
  // Translation keys and vertex positions scaled, rotations and scales untouched.
  const AnimationClip& before = original.skins[0].data.animation_clips.at("Wave");
  const AnimationClip& after = loaded.skins[0].data.animation_clips.at("Wave");
  for (std::size_t t = 0; t < before.tracks.size(); ++t) {
    for (std::size_t k = 0; k < before.tracks[t].keys.size(); ++k) {
      const Keyframe& a = before.tracks[t].keys[k];
      const Keyframe& b = after.tracks[t].keys[k];
      EXPECT_TRUE(same_bits(b.translation, a.translation * 0.01f));
      EXPECT_TRUE(same_bits(b.rotation, a.rotation));
      EXPECT_TRUE(same_bits(b.scale, a.scale));
    }
  }
  const ModelMeshPart& p = original.meshes[0].parts[0];
  const ModelMeshPart& q = loaded.meshes[0].parts[0];
  for (std::size_t v = 0; v < p.vertex_count(); v += 37) {
    const auto a = read_attribute<glm::vec3>(p.vertex_bytes, p.layout, v, VertexAttribute::Position);
    const auto b = read_attribute<glm::vec3>(q.vertex_bytes, q.layout, v, VertexAttribute::Position);
    EXPECT_TRUE(same_bits(b, a * 0.01f));
    EXPECT_TRUE(same_bits(read_attribute<glm::vec3>(p.vertex_bytes, p.layout, v, VertexAttribute::Normal),
                          read_attribute<glm::vec3>(q.vertex_bytes, q.layout, v, VertexAttribute::Normal)));
  }
  EXPECT_TRUE(same_bits(loaded.bones[1].transform[3], glm::vec4(glm::vec3(original.bones[1].transform[3]) * 0.01f, 1.f)));
}

// ---------------------------------------------------------------------------------------------
// G21.

TEST(NativeFormat, G21_FileWithoutPrefixBlockLoadsWithIdentityPrefixes) {
  const Model original = make_demo_character();
  NativeWriteOptions options;
  options.write_root_prefix = false;
  const Bytes bytes = write_native(original, options);
  for (const Section& s : split(bytes)) EXPECT_NE(s.tag, tag_of("PRFX"));
  EXPECT_LT(bytes.size(), write_native(original).size());
  const Model loaded = read_native(bytes);
  ASSERT_EQ(loaded.skins.size(), 1u);
  EXPECT_TRUE(loaded.skins[0].data.skeleton_root_prefix.empty());  // documented: empty reads as identity (P8)
  // Posing equals the same model with bone_count identity prefixes.
  Model identity = original;
  identity.skins[0].data.skeleton_root_prefix.assign(static_cast<std::size_t>(identity.skins[0].data.bone_count),
                                                     glm::mat4(1.f));
  expect_same_poses(identity, loaded);
  // And the player alone agrees at every bone.
  AnimationPlayer empty_prefix(loaded.skins[0].data);
  AnimationPlayer identity_prefix(identity.skins[0].data);
  for (const auto& [name, clip] : loaded.skins[0].data.animation_clips) {
    empty_prefix.start_clip(clip);
    identity_prefix.start_clip(identity.skins[0].data.animation_clips.at(name));
    for (double t : {0.0, 0.4, 1.3}) {
      empty_prefix.update(ticks_from_seconds(t), false);
      identity_prefix.update(ticks_from_seconds(t), false);
      EXPECT_EQ(max_difference(floats(empty_prefix.world_transforms()), floats(identity_prefix.world_transforms())), 0.f);
      EXPECT_EQ(max_difference(floats(empty_prefix.skin_transforms()), floats(identity_prefix.skin_transforms())), 0.f);
    }
  }
  // Everything else is the original.
  Model without = original;
  without.skins[0].data.skeleton_root_prefix.clear();
  expect_same_model(without, loaded);
}

TEST(NativeFormat, G21_BoneCountBeyond100000IsRefused) {
  Bytes bytes = write_native(small_model());
  const std::size_t bone_count = after_string(bytes, "SkinSentinel");
  ASSERT_EQ(get<std::uint64_t>(bytes, bone_count), 2u);
  put(bytes, bone_count, std::uint64_t{100'001});
  EXPECT_TRUE(refuses([&] { read_native(bytes); }, ImportErrorCode::LimitExceeded,
                      {"section 'SKIN' skin 0: bone_count 100001 exceeds 100000"}));
  put(bytes, bone_count, std::uint64_t{1} << 62);
  EXPECT_TRUE(refuses([&] { read_native(bytes); }, ImportErrorCode::LimitExceeded, {"bone_count"}));
  // The model's own bone count too.
  Bytes model_bones = write_native(small_model());
  const std::size_t at = split(model_bones)[0].payload.size() + split(model_bones)[1].payload.size() + 24 + 2 * 16 + 16;
  ASSERT_EQ(get<std::uint64_t>(model_bones, at), 6u);
  put(model_bones, at, std::uint64_t{100'001});
  EXPECT_TRUE(refuses([&] { read_native(model_bones); }, ImportErrorCode::LimitExceeded,
                      {"section 'BONE'", "bone count 100001 exceeds 100000"}));
}

TEST(NativeFormat, G21_SkinsOf0And100000BonesLoad) {
  Model model;
  model.bones = {ModelBone{"root", -1, glm::mat4(1.f), -1}};
  Skin empty;
  empty.name = "empty";
  model.skins.push_back(empty);
  Skin big;
  big.name = "big";
  big.data.bone_count = 100'000;
  big.data.skeleton_hierarchy.resize(100'000);
  for (int i = 0; i < 100'000; ++i) big.data.skeleton_hierarchy[static_cast<std::size_t>(i)] = i - 1;
  big.data.bind_pose.assign(100'000, translate(0, 0.001f, 0));
  big.data.inverse_bind_pose.assign(100'000, glm::mat4(1.f));
  model.skins.push_back(big);
  const Model loaded = read_native(write_native(model));
  ASSERT_EQ(loaded.skins.size(), 2u);
  EXPECT_EQ(loaded.skins[0].data.bone_count, 0);
  EXPECT_EQ(loaded.skins[1].data.bone_count, 100'000);
  EXPECT_TRUE(same_bits(loaded.skins[1].data.bind_pose, big.data.bind_pose));
  // The writer refuses what the reader would.
  model.skins[1].data.bone_count = 100'001;
  model.skins[1].data.skeleton_hierarchy.push_back(99'999);
  model.skins[1].data.bind_pose.push_back(glm::mat4(1.f));
  model.skins[1].data.inverse_bind_pose.push_back(glm::mat4(1.f));
  EXPECT_THROW(write_native(model), std::invalid_argument);
}

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
  Bytes parent_bone = bytes;
  put(parent_bone, mesh, std::int32_t{6});
  EXPECT_TRUE(refuses([&] { read_native(parent_bone); }, ImportErrorCode::IndexOutOfRange, {"mesh 0", "parent_bone 6"}));
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
  bad.bones[2].parent = 4;
  EXPECT_THROW(write_native(bad), std::invalid_argument);
  Model palette_clip = small_model();
  palette_clip.animations[1].scene_clip.target_space = ClipTargetSpace::JointPalette;
  EXPECT_THROW(write_native(palette_clip), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Version 2 (S1, S3): layouts keep their influence count, parts their skinning mode; version 1
// files still load.

TEST(NativeFormat, S1_S3_InfluenceCountsAndSkinningModesRoundTrip) {
  Model model = small_model();
  // Mesh 0 part 0 with six influences (two sets), skinned by dual quaternions.
  ModelMeshPart& part = model.meshes[0].parts[0];
  using A = VertexAttribute;
  const VertexLayout six = VertexLayout::interleaved({A::Position, A::Normal, A::Joints0, A::Weights0}, 0, 6);
  ModelMeshPart wide = triangle_part(six, 0.f);
  for (std::size_t v = 0; v < 3; ++v) {
    const std::uint16_t joints[8] = {1, 0, 1, 0, 1, 0, 0, 0};
    const float weights[8] = {0.3f, 0.2f, 0.2f, 0.1f, 0.1f, 0.1f, 0.f, 0.f};
    std::memcpy(wide.vertex_bytes.data() + v * six.stride + six.offset(A::Joints0), joints, sizeof joints);
    std::memcpy(wide.vertex_bytes.data() + v * six.stride + six.offset(A::Weights0), weights, sizeof weights);
  }
  part.layout = six;
  part.vertex_bytes = wide.vertex_bytes;
  part.morph.reset();
  model.meshes[0].morph_weights.clear();
  for (ModelAnimation& animation : model.animations) animation.morph_channels.clear();
  part.skinning = SkinningMode::DualQuaternion;
  ASSERT_NO_THROW(validate(model));
  const Bytes bytes = write_native(model);
  EXPECT_EQ(get<std::uint32_t>(bytes, 4), 3u) << "written as version 3";
  const Model read = read_native(bytes);
  EXPECT_EQ(read.meshes[0].parts[0].layout.influences, 6u);
  EXPECT_EQ(read.meshes[0].parts[0].layout, six);
  EXPECT_EQ(read.meshes[0].parts[0].vertex_bytes, part.vertex_bytes);
  EXPECT_EQ(read.meshes[0].parts[0].skinning, SkinningMode::DualQuaternion);
  EXPECT_EQ(read.meshes[1].parts[0].skinning, SkinningMode::Linear);
  // A skinning mode past the last is refused; so is an influence count validate(Model) refuses.
  const std::size_t at = find_unique(bytes, kPrimitiveSentinel);
  const std::size_t vertex_bytes = 3 * six.stride;
  const std::size_t influences = at + 4 + 4 + 36;  // source_vertex_count, then the layout's last u32
  ASSERT_EQ(get<std::uint32_t>(bytes, influences), 6u);
  Bytes zero = bytes;
  put(zero, influences, std::uint32_t{0});
  EXPECT_TRUE(refuses([&] { read_native(zero); }, ImportErrorCode::InvalidDocument, {"mesh 0 part 0", "influences 0"}));
  Bytes many = bytes;
  put(many, influences, std::uint32_t{300});
  EXPECT_TRUE(refuses([&] { read_native(many); }, ImportErrorCode::InvalidDocument, {"influences 300"}));
  // The skinning byte follows the indices (u64 count + 4 bytes each) and source_vertices.
  const std::size_t index_count = influences + 4 + 8 + vertex_bytes;
  const std::size_t indices = get<std::uint64_t>(bytes, index_count);
  const std::size_t sources = get<std::uint64_t>(bytes, index_count + 8 + 4 * indices);
  const std::size_t skinning = index_count + 8 + 4 * indices + 8 + 4 * sources;
  ASSERT_EQ(get<std::uint8_t>(bytes, skinning), 1u);
  Bytes mode = bytes;
  put(mode, skinning, std::uint8_t{2});
  EXPECT_TRUE(refuses([&] { read_native(mode); }, ImportErrorCode::InvalidDocument, {"skinning 2"}));
}

TEST(NativeFormat, S1_S3_AVersion1FileStillLoads) {
  // tests/data/native/demo_character_v1.marrow: the demo character written by the version-1
  // writer (commit cba4c65, before S1 and S3).
  const std::filesystem::path path = std::filesystem::path(MARROW_TEST_DATA) / "native" / "demo_character_v1.marrow";
  const FileBytes file = read_file(path, ImportLimits{});
  const Bytes bytes(file.bytes().begin(), file.bytes().end());
  ASSERT_EQ(get<std::uint32_t>(bytes, 4), 1u);
  const Model v1 = read_native(bytes);
  EXPECT_NO_THROW(validate(v1));
  ASSERT_FALSE(v1.meshes.empty());
  for (const ModelMesh& mesh : v1.meshes) {
    for (const ModelMeshPart& part : mesh.parts) {
      EXPECT_EQ(part.layout.influences, 4u) << "version 1: four influences";
      EXPECT_EQ(part.skinning, SkinningMode::Linear);
    }
  }
  // Written again (version 3) and read back, it poses the same.
  const Model v2 = read_native(write_native(v1));
  Animator a(v1), b(v2);
  for (std::size_t clip = 0; clip < v1.animations.size(); ++clip) {
    a.play(static_cast<int>(clip));
    b.play(static_cast<int>(clip));
    a.update(ticks_from_seconds(0.7), false);
    b.update(ticks_from_seconds(0.7), false);
    for (std::size_t m = 0; m < v1.meshes.size(); ++m) {
      for (std::size_t p = 0; p < v1.meshes[m].parts.size(); ++p) {
        std::vector<glm::vec3> pa(v1.meshes[m].parts[p].vertex_count()), pb(pa.size());
        a.pose_part(m, p, pa);
        b.pose_part(m, p, pb);
        EXPECT_EQ(pa, pb) << "clip " << clip << " mesh " << m;
      }
    }
  }
  // And as it was made: the demo character of today, whose data the file holds (should the demo
  // character change, this comparison goes; the file and the checks above stay).
  const Model demo = make_demo_character();
  ASSERT_EQ(v1.meshes.size(), demo.meshes.size());
  for (std::size_t m = 0; m < demo.meshes.size(); ++m) {
    for (std::size_t p = 0; p < demo.meshes[m].parts.size(); ++p) {
      EXPECT_EQ(v1.meshes[m].parts[p].vertex_bytes, demo.meshes[m].parts[p].vertex_bytes) << "mesh " << m;
    }
  }
}

}  // namespace
}  // namespace marrow
