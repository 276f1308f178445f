#include "demo/demo_character.hpp"

#include "marrow/model/absolute_bone_transforms.hpp"

#include <cmath>
#include <numbers>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "marrow/core/vertex_access.hpp"
#include "marrow/model/bind_pose_palette.hpp"
#include "marrow/model/frame_bounds.hpp"
#include "marrow/model/bounds.hpp"

namespace marrow {

namespace {

constexpr int kJoints = 9;
constexpr float kSegment = 0.5f;
constexpr int kRings = 37;
constexpr int kRingVertices = 16;
constexpr float kHeight = kSegment * (kJoints - 1) + 0.5f;  // 4.5
constexpr int kArmature = 1, kFirstJoint = 2, kMeshNode = 11, kBuoy = 12;

float radius_at(float y) { return 0.35f * (1.f - 0.75f * y / kHeight); }

glm::mat4 translate(float x, float y, float z) { return glm::translate(glm::mat4(1.f), glm::vec3(x, y, z)); }

std::vector<ModelNode> make_bones() {
  std::vector<ModelNode> bones;
  bones.push_back(ModelNode{"root", -1, glm::mat4(1.f), -1});
  bones.push_back(ModelNode{"Armature", 0, glm::scale(translate(0, 0.25f, 0), glm::vec3(1.5f)), 0});
  for (int j = 0; j < kJoints; ++j) {
    bones.push_back(ModelNode{"Seg" + std::to_string(j), j == 0 ? kArmature : kFirstJoint + j - 1,
                              j == 0 ? glm::mat4(1.f) : translate(0, kSegment, 0), j + 1});
  }
  bones.push_back(ModelNode{"TentacleMesh", 0, translate(0, 0, 2), kJoints + 1});
  bones.push_back(ModelNode{"Buoy", 0, translate(1.5f, 0.25f, 0), kJoints + 2});
  return bones;
}

// The tube is authored in the armature's space and stored in scene space (as exporters do), so
// the bind-pose mesh sits on the joints: W_joint * IBM * v = v.
ModelMeshPart make_tentacle_part(const glm::mat4& armature, std::shared_ptr<Material> material,
                                 std::shared_ptr<SkinnedMaterial> skinned) {
  const float armature_scale = glm::length(glm::vec3(armature[0]));
  using A = VertexAttribute;
  ModelMeshPart part;
  part.layout = VertexLayout::interleaved({A::Position, A::Normal, A::Tangent, A::TexCoord0, A::Joints0, A::Weights0});
  const std::size_t n = static_cast<std::size_t>(kRings) * kRingVertices;
  part.vertex_bytes.resize(n * part.layout.stride);
  std::vector<glm::vec3> bulge(n), flatten(n), flatten_normals(n);
  for (int r = 0; r < kRings; ++r) {
    const float y = kHeight * static_cast<float>(r) / (kRings - 1);
    const float rad = radius_at(y);
    // The taper tilts the normal slightly up: d(radius)/dy = -0.35 * 0.75 / height.
    const float slope = 0.35f * 0.75f / kHeight;
    const float seg = std::fmin(y / kSegment, static_cast<float>(kJoints - 1));
    const int j0 = std::min(static_cast<int>(seg), kJoints - 2);
    const float t = seg - static_cast<float>(j0);
    for (int k = 0; k < kRingVertices; ++k) {
      const std::size_t v = static_cast<std::size_t>(r * kRingVertices + k);
      const float a = 2.f * std::numbers::pi_v<float> * static_cast<float>(k) / kRingVertices;
      const glm::vec3 radial(std::cos(a), 0.f, std::sin(a));
      const glm::vec3 normal = glm::normalize(radial + glm::vec3(0, slope, 0));
      const glm::vec3 position = glm::vec3(armature * glm::vec4(radial * rad + glm::vec3(0, y, 0), 1.f));
      write_attribute(part.vertex_bytes, part.layout, v, A::Position, position);
      write_attribute(part.vertex_bytes, part.layout, v, A::Normal, normal);
      write_attribute(part.vertex_bytes, part.layout, v, A::Tangent, glm::vec4(-std::sin(a), 0.f, std::cos(a), 1.f));
      write_attribute(part.vertex_bytes, part.layout, v, A::TexCoord0,
                      glm::vec2(static_cast<float>(k) / kRingVertices, y / kHeight));
      write_attribute(part.vertex_bytes, part.layout, v, A::Joints0,
                      glm::u16vec4(static_cast<std::uint16_t>(j0), static_cast<std::uint16_t>(j0 + 1), 0, 0));
      write_attribute(part.vertex_bytes, part.layout, v, A::Weights0, glm::vec4(1.f - t, t, 0.f, 0.f));
      // Bulge: a swelling around 60% of the height.
      const float g = std::exp(-std::pow((y - 0.6f * kHeight) / 0.6f, 2.f));
      bulge[v] = radial * (0.25f * g * armature_scale);
      // Flatten: X halves; the ellipse's normal direction changes accordingly.
      flatten[v] = glm::vec3(-0.5f * position.x, 0.f, 0.f);
      flatten_normals[v] = glm::normalize(glm::vec3(normal.x * 2.f, normal.y, normal.z)) - normal;
    }
  }
  for (int r = 0; r + 1 < kRings; ++r) {
    for (int k = 0; k < kRingVertices; ++k) {
      const auto a = static_cast<std::uint32_t>(r * kRingVertices + k);
      const auto b = static_cast<std::uint32_t>(r * kRingVertices + (k + 1) % kRingVertices);
      const auto c = a + kRingVertices, d = b + kRingVertices;
      part.indices.insert(part.indices.end(), {a, c, b, b, c, d});
    }
  }
  MorphTargetData morph;
  morph.base_vertex_bytes = part.vertex_bytes;
  morph.layout = part.layout;
  morph.position_deltas = {bulge, flatten};
  morph.normal_deltas = {{}, flatten_normals};
  morph.weights = {0.f, 0.f};
  part.morph = std::move(morph);
  part.material = std::move(material);
  part.skinned_material = std::move(skinned);
  part.source_primitive = 0;
  part.source_vertex_count = static_cast<std::uint32_t>(n);
  return part;
}

ModelMeshPart make_buoy_part(std::shared_ptr<Material> material) {
  using A = VertexAttribute;
  ModelMeshPart part;
  part.layout = VertexLayout::interleaved({A::Position, A::Normal});
  part.vertex_bytes.resize(24 * part.layout.stride);
  const float h = 0.2f;
  std::size_t v = 0;
  for (int axis = 0; axis < 3; ++axis) {
    for (float sign : {-1.f, 1.f}) {
      glm::vec3 n(0.f);
      n[axis] = sign;
      const glm::vec3 u = axis == 0 ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
      const glm::vec3 w = glm::cross(n, u);
      const auto first = static_cast<std::uint32_t>(v);
      for (const glm::vec2 c : {glm::vec2(-1, -1), glm::vec2(1, -1), glm::vec2(1, 1), glm::vec2(-1, 1)}) {
        write_attribute(part.vertex_bytes, part.layout, v, A::Position, (n + u * c.x + w * c.y) * h);
        write_attribute(part.vertex_bytes, part.layout, v, A::Normal, n);
        ++v;
      }
      part.indices.insert(part.indices.end(), {first, first + 1, first + 2, first, first + 2, first + 3});
    }
  }
  part.material = std::move(material);
  part.source_primitive = 0;
  part.source_vertex_count = 24;
  return part;
}

Skin make_skin(const std::vector<ModelNode>& bones) {
  Skin skin;
  skin.name = "TentacleSkin";
  SkinningData& d = skin.data;
  d.bone_count = kJoints;
  Model scene;
  scene.nodes = bones;
  std::vector<glm::mat4> world(bones.size());
  copy_absolute_bone_transforms(scene, world);
  for (int j = 0; j < kJoints; ++j) {
    const auto node = static_cast<std::size_t>(kFirstJoint + j);
    d.skeleton_hierarchy.push_back(j - 1);
    d.bind_pose.push_back(bones[node].transform);
    d.inverse_bind_pose.push_back(glm::inverse(world[node]));
  }
  // P_root = inverse(W_meshNode) * W_ancestor (DESIGN.md); only the root joint has a parent
  // outside the joint set, the others get identity (unused).
  d.skeleton_root_prefix.assign(kJoints, glm::mat4(1.f));
  d.skeleton_root_prefix[0] = glm::inverse(world[kMeshNode]) * world[kArmature];
  d.skeleton_root_node_index = kFirstJoint;
  d.skeleton_root_name = "Seg0";
  skin.scene_to_palette.assign(bones.size(), -1);
  for (int j = 0; j < kJoints; ++j) {
    skin.scene_to_palette[static_cast<std::size_t>(kFirstJoint + j)] = j;
    skin.palette_to_scene.push_back(kFirstJoint + j);
    skin.source_joints.push_back(j);
  }
  skin.meshes = {0};
  skin.source_skin = 0;
  return skin;
}

// Keys at 30 fps over the duration; pose(j, t) gives joint j's rotation at time t.
template <class Pose>
AnimationClip make_joint_clip(const std::string& name, double duration, Pose pose) {
  AnimationClip clip;
  clip.name = name;
  clip.duration = ticks_from_seconds(duration);
  const int frames = static_cast<int>(std::lround(duration * 30.0));
  for (int j = 0; j < kJoints; ++j) {
    BoneTrack track;
    track.bone_index = j;
    for (int f = 0; f <= frames; ++f) {
      const double t = duration * f / frames;
      Keyframe key;
      key.time = ticks_from_seconds(t);
      key.translation = j == 0 ? glm::vec3(0.f) : glm::vec3(0, kSegment, 0);
      key.rotation = pose(j, static_cast<float>(t));
      track.keys.push_back(key);
    }
    clip.tracks.push_back(std::move(track));
  }
  return clip;
}

MorphWeightTrack wave_weights() {
  MorphWeightTrack track;
  track.interpolation = Interpolation::CubicSpline;
  track.weight_count = 2;
  track.times = {0.0, 1.0, 2.0};
  track.values = {0.f, 0.f, 1.f, 0.5f, 0.f, 0.f};
  track.in_tangents = {0.f, 0.f, 0.f, 0.f, -1.f, 0.f};
  track.out_tangents = {2.f, 0.5f, 0.f, 0.f, 0.f, 0.f};
  return track;
}

MorphWeightTrack curl_weights() {
  MorphWeightTrack track;
  track.interpolation = Interpolation::Linear;
  track.weight_count = 2;
  track.times = {0.0, 1.5, 3.0};
  track.values = {0.f, 0.f, 0.2f, 1.f, 0.f, 0.f};
  return track;
}

AnimationClip buoy_clip(const std::string& name, double duration, bool spin) {
  AnimationClip clip;
  clip.name = name;
  clip.duration = ticks_from_seconds(duration);
  clip.target_space = ClipTargetSpace::SceneNode;
  BoneTrack track;
  track.bone_index = kBuoy;
  for (int f = 0; f <= 8; ++f) {
    const double t = duration * f / 8;
    Keyframe key;
    key.time = ticks_from_seconds(t);
    const float phase = static_cast<float>(2.0 * std::numbers::pi * t / duration);
    key.translation = glm::vec3(1.5f, 0.25f + (spin ? 0.f : 0.2f * std::sin(phase)), 0.f);
    key.rotation = spin ? glm::angleAxis(phase, glm::vec3(0, 1, 0)) : glm::quat(1, 0, 0, 0);
    track.keys.push_back(key);
  }
  clip.tracks.push_back(std::move(track));
  return clip;
}

}  // namespace

Model make_demo_character() {
  Model model;
  model.nodes = make_bones();
  auto skin_material = std::make_shared<Material>(Material{"TentacleSkin", glm::vec4(0.85f, 0.35f, 0.45f, 1.f), false, 0});
  auto buoy_material = std::make_shared<Material>(Material{"Buoy", glm::vec4(0.95f, 0.8f, 0.2f, 1.f), false, 1});
  auto palette = std::make_shared<SkinnedMaterial>(kDefaultMaxBones);

  ModelMesh tentacle;
  tentacle.name = "Tentacle";
  tentacle.node = kMeshNode;
  tentacle.skin = 0;
  tentacle.morph_weights = {0.f, 0.f};
  tentacle.parts.push_back(make_tentacle_part(model.nodes[kArmature].transform, skin_material, palette));
  tentacle.source_mesh = 0;
  ModelMesh buoy;
  buoy.name = "Buoy";
  buoy.node = kBuoy;
  buoy.parts.push_back(make_buoy_part(buoy_material));
  buoy.source_mesh = 1;
  for (ModelMesh* mesh : {&tentacle, &buoy}) {
    const ModelMeshPart& part = mesh->parts[0];
    std::vector<glm::vec3> positions(part.vertex_count());
    for (std::size_t v = 0; v < positions.size(); ++v) {
      positions[v] = read_attribute<glm::vec3>(part.vertex_bytes, part.layout, v, VertexAttribute::Position);
    }
    mesh->bounding_sphere = bounding_sphere_of(positions);
  }
  model.meshes.push_back(std::move(tentacle));
  model.meshes.push_back(std::move(buoy));

  Skin skin = make_skin(model.nodes);
  const auto wave = [](int j, float t) {
    const float angle = 0.35f * std::sin(2.f * std::numbers::pi_v<float> * (t / 2.f) - 0.6f * static_cast<float>(j));
    return glm::angleAxis(angle, glm::vec3(0, 0, 1));
  };
  const auto curl = [](int j, float t) {
    const float amount = std::sin(std::numbers::pi_v<float> * t / 3.f);
    return glm::angleAxis(amount * 0.12f * static_cast<float>(j + 1), glm::vec3(1, 0, 0));
  };
  skin.data.animation_clips["Wave"] = make_joint_clip("Wave", 2.0, wave);
  skin.data.animation_clips["Curl"] = make_joint_clip("Curl", 3.0, curl);
  model.skins.push_back(std::move(skin));

  model.animations.push_back(ModelAnimation{"Wave", ticks_from_seconds(2.0), buoy_clip("Wave", 2.0, false),
                                            {MorphWeightChannel{0, wave_weights()}}, {}});
  model.animations.push_back(ModelAnimation{"Curl", ticks_from_seconds(3.0), buoy_clip("Curl", 3.0, true),
                                            {MorphWeightChannel{0, curl_weights()}}, {}});
  // The mesh part's default weight track (the seed's single WeightTrack slot).
  model.meshes[0].parts[0].morph->weight_track = wave_weights();
  apply_bind_pose_bone_transforms(model, 0);
  compute_frame_bounds(model);  // S5
  return model;
}

}  // namespace marrow
