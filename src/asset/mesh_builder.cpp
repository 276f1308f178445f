#include "marrow/asset/mesh_builder.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "marrow/core/finite.hpp"
#include "mesh_assembly.hpp"

namespace marrow::asset {

namespace {

[[noreturn]] void refuse(const std::string& message) { throw std::invalid_argument("MeshBuilder: " + message); }

void check_vertices(std::span<const MeshVertexSkeletal> vertices, std::span<const VertexTriangle> triangles) {
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const MeshVertexSkeletal& v = vertices[i];
    if (!is_finite(v.location) || !is_finite(v.normal) || !is_finite(v.tangent) || !is_finite(v.bitangent) ||
        !std::isfinite(v.texture_coords.x) || !std::isfinite(v.texture_coords.y)) {
      refuse("vertex " + std::to_string(i) + " is not finite");
    }
    for (float w : v.bone_weights) {
      if (!std::isfinite(w)) refuse("vertex " + std::to_string(i) + " has a non-finite bone weight");
    }
  }
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    for (std::uint32_t index : {triangles[t].a, triangles[t].b, triangles[t].c}) {
      if (index >= vertices.size()) {
        refuse("triangle " + std::to_string(t) + " uses vertex " + std::to_string(index) + " of " +
               std::to_string(vertices.size()));
      }
    }
  }
}

// One component's keys as Keyframes, so the one track sampler interpolates them.
template <class Key, class Set>
std::vector<Keyframe> component_keys(std::span<const Key> keys, Set set) {
  std::vector<Keyframe> out;
  out.reserve(keys.size());
  for (const Key& k : keys) {
    Keyframe key;
    key.time = ticks_from_seconds(k.time_seconds);
    set(key, k);
    out.push_back(key);
  }
  return out;
}

template <class Key>
std::span<const Key> range_of(std::span<const Key> keys, int start, int count, const char* what, std::size_t mutation) {
  if (start < 0 || count < 0 || static_cast<std::size_t>(start) + static_cast<std::size_t>(count) > keys.size()) {
    refuse("mutation " + std::to_string(mutation) + ": " + what + " keyframes " + std::to_string(start) + " + " +
           std::to_string(count) + " exceed the " + std::to_string(keys.size()) + " given");
  }
  const std::span<const Key> range = keys.subspan(static_cast<std::size_t>(start), static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < range.size(); ++i) {
    if (!std::isfinite(range[i].time_seconds)) refuse("mutation " + std::to_string(mutation) + ": a key time is not finite");
    if (i > 0 && range[i].time_seconds < range[i - 1].time_seconds) {
      refuse("mutation " + std::to_string(mutation) + ": " + what + " keyframe " + std::to_string(i) + " at " +
             std::to_string(range[i].time_seconds) + " s comes before the previous one at " +
             std::to_string(range[i - 1].time_seconds) + " s (keys must be in time order)");
    }
  }
  return range;
}

}  // namespace

std::shared_ptr<Mesh> MeshBuilder::create_from_vertices(std::span<const MeshVertexSkeletal> vertices,
                                                        std::span<const VertexTriangle> triangles,
                                                        std::span<const SkeletalAnimationNode> nodes,
                                                        const MeshCreationConfig& config) {
  if (config.allows_per_instance_vertex_mutation) refuse("skeletal meshes do not support per-instance vertex mutation");
  check_vertices(vertices, triangles);
  auto rig = std::make_shared<SkeletalRig>();
  int bones = 0;
  for (const SkeletalAnimationNode& n : nodes) {
    if (n.corresponding_bone_index) bones = std::max(bones, *n.corresponding_bone_index + 1);
  }
  if (bones > kMaxSkeletalBoneCount) {
    refuse("the nodes define " + std::to_string(bones) + " bones; at most " + std::to_string(kMaxSkeletalBoneCount) +
           " are supported");
  }
  if (bones == 0) {
    // No bones: one identity root bone, so the mesh behaves as a static mesh.
    rig->nodes.push_back(RigNode{"node_0", -1, glm::mat4(1.f), 0});
    rig->bone_nodes = {0};
    rig->inverse_binds = {glm::mat4(1.f)};
    rig->finish_hierarchy();
  } else {
    rig->bone_nodes.assign(static_cast<std::size_t>(bones), -1);
    rig->inverse_binds.assign(static_cast<std::size_t>(bones), glm::mat4(1.f));
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const SkeletalAnimationNode& n = nodes[i];
      if (!is_finite(n.default_local_transform) || !is_finite(n.bind_pose_inversion)) {
        refuse("node " + std::to_string(i) + " has a non-finite transform");
      }
      RigNode node{"node_" + std::to_string(i), n.parent_node_index.value_or(-1), n.default_local_transform, -1};
      if (n.parent_node_index && *n.parent_node_index < 0) refuse("node " + std::to_string(i) + " has a negative parent");
      if (n.corresponding_bone_index) {
        const int b = *n.corresponding_bone_index;
        if (b < 0) refuse("node " + std::to_string(i) + " has a negative bone index");
        if (rig->bone_nodes[static_cast<std::size_t>(b)] >= 0) {
          refuse("bone " + std::to_string(b) + " is given to nodes " + std::to_string(rig->bone_nodes[static_cast<std::size_t>(b)]) +
                 " and " + std::to_string(i));
        }
        rig->bone_nodes[static_cast<std::size_t>(b)] = static_cast<int>(i);
        rig->inverse_binds[static_cast<std::size_t>(b)] = n.bind_pose_inversion;
        node.bone = b;
      }
      rig->nodes.push_back(std::move(node));
    }
    for (int b = 0; b < bones; ++b) {
      if (rig->bone_nodes[static_cast<std::size_t>(b)] < 0) {
        refuse("no node corresponds to bone " + std::to_string(b) + " (bones are numbered 0.." + std::to_string(bones - 1) + ")");
      }
    }
    rig->finish_hierarchy();
  }
  const int bone_count = static_cast<int>(rig->bone_count());
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    for (std::uint8_t b : vertices[i].bone_indices) {
      if (b >= bone_count) {
        refuse("vertex " + std::to_string(i) + " uses bone " + std::to_string(b) + " of " + std::to_string(bone_count));
      }
    }
  }
  auto mesh = std::make_shared<Mesh>();
  MeshAssembly::name(*mesh) = config.name;
  MeshAssembly::vertices(*mesh).assign(vertices.begin(), vertices.end());
  MeshAssembly::triangles(*mesh).assign(triangles.begin(), triangles.end());
  MeshAssembly::rig(*mesh) = std::move(rig);
  MeshAssembly::finish(*mesh);
  // Animations are attached later, so a built mesh's box covers its bind pose only (T14).
  MeshAssembly::compute_bounds(*mesh, false, config.bounding_box_override, config.bounding_box_additional_margin);
  return mesh;
}

MeshAnimation MeshBuilder::attach_animation(Mesh& mesh, std::span<const SkeletalAnimationScalingKeyframe> scaling_keyframes,
                                            std::span<const SkeletalAnimationRotationKeyframe> rotation_keyframes,
                                            std::span<const SkeletalAnimationTranslationKeyframe> translation_keyframes,
                                            std::span<const SkeletalAnimationNodeMutationDescriptor> bone_mutations,
                                            float default_completion_time_seconds, std::string_view name) {
  std::shared_ptr<SkeletalRig>& rig = MeshAssembly::rig(mesh);
  if (!rig) throw std::logic_error("MeshBuilder::attach_animation: mesh '" + mesh.name() + "' has no skeletal data");
  if (name.empty()) throw std::logic_error("MeshBuilder::attach_animation: the animation name is empty");
  for (const RigAnimation& a : rig->animations) {
    if (a.name == name) {
      throw std::logic_error("MeshBuilder::attach_animation: mesh '" + mesh.name() + "' already has an animation named '" +
                             std::string(name) + "'");
    }
  }
  if (!std::isfinite(default_completion_time_seconds) || default_completion_time_seconds < 0.f) {
    refuse("default completion time " + std::to_string(default_completion_time_seconds) + " s is not a duration");
  }
  RigAnimation animation;
  animation.name = std::string(name);
  animation.default_duration_seconds = default_completion_time_seconds;
  std::vector<bool> targeted(rig->nodes.size(), false);
  for (std::size_t m = 0; m < bone_mutations.size(); ++m) {
    const SkeletalAnimationNodeMutationDescriptor& d = bone_mutations[m];
    if (d.target_node_index < 0 || static_cast<std::size_t>(d.target_node_index) >= rig->nodes.size()) {
      throw std::out_of_range("MeshBuilder::attach_animation: mutation " + std::to_string(m) + " targets node " +
                              std::to_string(d.target_node_index) + " of " + std::to_string(rig->nodes.size()));
    }
    if (targeted[static_cast<std::size_t>(d.target_node_index)]) {
      refuse("mutation " + std::to_string(m) + " targets node " + std::to_string(d.target_node_index) + " again");
    }
    targeted[static_cast<std::size_t>(d.target_node_index)] = true;
    const auto s = component_keys(range_of(scaling_keyframes, d.scaling_keyframe_start_index, d.scaling_keyframe_count, "scaling", m),
                                  [](Keyframe& k, const SkeletalAnimationScalingKeyframe& x) { k.scale = x.scaling; });
    const auto r = component_keys(range_of(rotation_keyframes, d.rotation_keyframe_start_index, d.rotation_keyframe_count, "rotation", m),
                                  [](Keyframe& k, const SkeletalAnimationRotationKeyframe& x) { k.rotation = x.rotation; });
    const auto t = component_keys(range_of(translation_keyframes, d.translation_keyframe_start_index,
                                           d.translation_keyframe_count, "translation", m),
                                  [](Keyframe& k, const SkeletalAnimationTranslationKeyframe& x) { k.translation = x.translation; });
    for (const auto* keys : {&s, &r, &t}) {
      for (const Keyframe& k : *keys) {
        if (!is_finite(k.scale) || !is_finite(k.rotation) || !is_finite(k.translation)) {
          refuse("mutation " + std::to_string(m) + " has a non-finite key value");
        }
      }
    }
    // Keys at the union of the three components' times; each component interpolated by the one
    // sampler (lerp, slerp, held outside), identity where it has no keys.
    std::vector<Ticks> times;
    for (const auto* keys : {&s, &r, &t}) {
      for (const Keyframe& k : *keys) times.push_back(k.time);
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    BoneTrack track;
    track.bone_index = d.target_node_index;
    for (Ticks time : times) {
      Keyframe key;
      key.time = time;
      if (!s.empty()) key.scale = sample_track(s, time).scale;
      if (!r.empty()) key.rotation = sample_track(r, time).rotation;
      if (!t.empty()) key.translation = sample_track(t, time).translation;
      track.keys.push_back(key);
    }
    if (track.keys.empty()) {
      // A mutation without keys still replaces the default local transform: identity.
      track.keys.push_back(Keyframe{});
    }
    animation.tracks.push_back(std::move(track));
  }
  animation.key_times = animation_key_times(animation);
  rig->animations.push_back(std::move(animation));
  return Animations(rig)[rig->animations.size() - 1];
}

void MeshBuilder::set_skeleton_node_name(Mesh& mesh, std::size_t node_index, std::string_view name) {
  std::shared_ptr<SkeletalRig>& rig = MeshAssembly::rig(mesh);
  if (!rig) return;  // no skeletal data: no effect
  if (node_index >= rig->nodes.size()) {
    throw std::out_of_range("MeshBuilder::set_skeleton_node_name: node " + std::to_string(node_index) + " of " +
                            std::to_string(rig->nodes.size()));
  }
  const auto taken = [&](const std::string& candidate) {
    for (std::size_t i = 0; i < rig->nodes.size(); ++i) {
      if (i != node_index && rig->nodes[i].name == candidate) return true;
    }
    return false;
  };
  std::string unique(name);
  for (int suffix = 2; taken(unique); ++suffix) unique = std::string(name) + std::to_string(suffix);
  rig->nodes[node_index].name = unique;
}

}  // namespace marrow::asset
