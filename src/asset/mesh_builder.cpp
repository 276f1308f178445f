#include "marrow/asset/mesh_builder.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <cstring>

#include "marrow/core/finite.hpp"
#include "marrow/io/finish_import.hpp"
#include "marrow/model/absolute_bone_transforms.hpp"
#include "marrow/runtime/track_sampler.hpp"
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

// The nodes parents first (breadth first from the one root); throws std::invalid_argument naming
// the node for a parent out of range, a cycle, or more than one root.
std::vector<int> parents_first(const std::vector<int>& parents) {
  const std::size_t n = parents.size();
  std::vector<std::vector<int>> children(n);
  int roots = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const int parent = parents[i];
    if (parent < 0) {
      ++roots;
      continue;
    }
    if (static_cast<std::size_t>(parent) >= n || static_cast<std::size_t>(parent) == i) {
      throw std::invalid_argument("skeleton node " + std::to_string(i) + ": parent " + std::to_string(parent) +
                                  " is not another node of " + std::to_string(n));
    }
    children[static_cast<std::size_t>(parent)].push_back(static_cast<int>(i));
  }
  if (n > 0 && roots != 1) {
    throw std::invalid_argument("skeleton: " + std::to_string(roots) + " root nodes, expected exactly one");
  }
  std::vector<int> order;
  for (std::size_t i = 0; i < n; ++i) {
    if (parents[i] < 0) order.push_back(static_cast<int>(i));
  }
  for (std::size_t head = 0; head < order.size(); ++head) {
    for (int c : children[static_cast<std::size_t>(order[head])]) order.push_back(c);
  }
  if (order.size() != n) {
    throw std::invalid_argument("skeleton: " + std::to_string(n - order.size()) +
                                " nodes are not reachable from the root (a cycle of parents)");
  }
  return order;
}

// The built mesh's one part: the vertices interleaved, JOINTS as skin palette entries.
ModelMeshPart part_of(std::span<const MeshVertexSkeletal> vertices, std::span<const VertexTriangle> triangles,
                      const std::vector<int>& bone_joints) {
  using A = VertexAttribute;
  ModelMeshPart part;
  part.layout = VertexLayout::interleaved({A::Position, A::Normal, A::Tangent, A::TexCoord0, A::Joints0, A::Weights0});
  const VertexLayout& l = part.layout;
  part.vertex_bytes.resize(vertices.size() * l.stride);
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const MeshVertexSkeletal& v = vertices[i];
    std::byte* row = part.vertex_bytes.data() + i * l.stride;
    // glTF keeps a tangent with the bitangent's handedness as w; the bitangent is derived again.
    const float handedness = glm::dot(glm::cross(v.normal, v.tangent), v.bitangent) < 0.f ? -1.f : 1.f;
    const glm::vec4 tangent(v.tangent, handedness);
    glm::u16vec4 joints;
    for (int c = 0; c < 4; ++c) joints[c] = static_cast<std::uint16_t>(bone_joints[v.bone_indices[static_cast<std::size_t>(c)]]);
    const glm::vec4 weights(v.bone_weights[0], v.bone_weights[1], v.bone_weights[2], v.bone_weights[3]);
    std::memcpy(row + l.offset(A::Position), &v.location, sizeof v.location);
    std::memcpy(row + l.offset(A::Normal), &v.normal, sizeof v.normal);
    std::memcpy(row + l.offset(A::Tangent), &tangent, sizeof tangent);
    std::memcpy(row + l.offset(A::TexCoord0), &v.texture_coords, sizeof v.texture_coords);
    std::memcpy(row + l.offset(A::Joints0), &joints, sizeof joints);
    std::memcpy(row + l.offset(A::Weights0), &weights, sizeof weights);
  }
  part.indices.reserve(triangles.size() * 3);
  for (const VertexTriangle& t : triangles) part.indices.insert(part.indices.end(), {t.a, t.b, t.c});
  part.source_vertex_count = static_cast<std::uint32_t>(vertices.size());
  return part;
}

// The built mesh as a Model: bone 0 the synthetic root (as every import has), then the nodes
// parents first; one skin whose palette is every node in that order (bone 1 + q is palette
// entry q), so its SkinningData is the node hierarchy itself and every mutation is a skeletal
// track; nodes that are not bones get the inverse of their bind transform (identity in the bind
// palette) and no vertex uses them. bone_joints[b]: bone b's palette entry. One mesh of one
// part drawn by that skin.
Model model_of(std::span<const MeshVertexSkeletal> vertices, std::span<const VertexTriangle> triangles,
               const std::vector<glm::mat4>& locals, const std::vector<int>& parents, const std::vector<int>& node_bones,
               const std::vector<glm::mat4>& inverse_binds, const std::string& name, std::vector<int>& model_nodes,
               std::vector<int>& bone_joints) {
  const std::size_t n = locals.size();
  const std::vector<int> order = parents_first(parents);
  Model model;
  model.nodes.push_back(ModelNode{});  // the synthetic root
  model_nodes.assign(n, -1);
  for (int node : order) {
    const auto i = static_cast<std::size_t>(node);
    model_nodes[i] = static_cast<int>(model.nodes.size());
    const int parent = parents[i] < 0 ? 0 : model_nodes[static_cast<std::size_t>(parents[i])];
    model.nodes.push_back(ModelNode{"node_" + std::to_string(i), parent, locals[i], node});
  }
  std::vector<glm::mat4> worlds(model.nodes.size());
  copy_absolute_bone_transforms(model, worlds);
  Skin skin = sized_skin(n, model.nodes.size());
  bone_joints.assign(inverse_binds.size(), -1);
  for (std::size_t q = 0; q < n; ++q) {
    const auto node = static_cast<std::size_t>(order[q]);
    const int bone = model_nodes[node];
    const int b = node_bones[node];
    SkinningData& data = skin.data;
    data.skeleton_hierarchy[q] = model.nodes[static_cast<std::size_t>(bone)].parent - 1;  // -1 under the root
    data.bind_pose[q] = locals[node];
    data.inverse_bind_pose[q] = b >= 0 ? inverse_binds[static_cast<std::size_t>(b)]
                                       : glm::inverse(worlds[static_cast<std::size_t>(bone)]);
    if (!is_finite(data.inverse_bind_pose[q])) data.inverse_bind_pose[q] = glm::mat4(1.f);  // a zero scale
    if (b >= 0) bone_joints[static_cast<std::size_t>(b)] = static_cast<int>(q);
    skin.palette_to_scene[q] = bone;
    skin.scene_to_palette[static_cast<std::size_t>(bone)] = static_cast<int>(q);
    skin.source_joints[q] = order[q];
  }
  skin.data.skeleton_root_node_index = order.empty() ? -1 : order[0];
  skin.meshes = {0};
  model.skins.push_back(std::move(skin));
  ModelMesh mesh;
  mesh.name = name;
  mesh.node = 0;
  mesh.skin = 0;
  ModelMeshPart part = part_of(vertices, triangles, bone_joints);
  part.material = std::make_shared<Material>();
  part.skinned_material = std::make_shared<SkinnedMaterial>(static_cast<int>(std::max<std::size_t>(n, 1)));
  mesh.parts.push_back(std::move(part));
  model.meshes.push_back(std::move(mesh));
  model.source.node_to_bone = model_nodes;
  finish_import(model, ImportOptions{});  // what every import finishes with: M2, S5, G17
  return model;
}

}  // namespace

std::shared_ptr<Mesh> MeshBuilder::create_from_vertices(std::span<const MeshVertexSkeletal> vertices,
                                                        std::span<const VertexTriangle> triangles,
                                                        std::span<const SkeletalAnimationNode> nodes,
                                                        const MeshCreationConfig& config) {
  if (config.allows_per_instance_vertex_mutation) refuse("skeletal meshes do not support per-instance vertex mutation");
  check_vertices(vertices, triangles);
  int bones = 0;
  for (const SkeletalAnimationNode& n : nodes) {
    if (n.corresponding_bone_index) bones = std::max(bones, *n.corresponding_bone_index + 1);
  }
  if (bones > kMaxSkeletalBoneCount) {
    refuse("the nodes define " + std::to_string(bones) + " bones; at most " + std::to_string(kMaxSkeletalBoneCount) +
           " are supported");
  }
  std::vector<glm::mat4> locals, inverse_binds;
  std::vector<int> parents, node_bones;
  if (bones == 0) {
    // No bones: one identity root bone, so the mesh behaves as a static mesh.
    locals = {glm::mat4(1.f)};
    parents = {-1};
    node_bones = {0};
    inverse_binds = {glm::mat4(1.f)};
  } else {
    inverse_binds.assign(static_cast<std::size_t>(bones), glm::mat4(1.f));
    std::vector<int> bone_nodes(static_cast<std::size_t>(bones), -1);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const SkeletalAnimationNode& n = nodes[i];
      if (!is_finite(n.default_local_transform) || !is_finite(n.bind_pose_inversion)) {
        refuse("node " + std::to_string(i) + " has a non-finite transform");
      }
      if (n.parent_node_index && *n.parent_node_index < 0) refuse("node " + std::to_string(i) + " has a negative parent");
      locals.push_back(n.default_local_transform);
      parents.push_back(n.parent_node_index.value_or(-1));
      node_bones.push_back(-1);
      if (n.corresponding_bone_index) {
        const int b = *n.corresponding_bone_index;
        if (b < 0) refuse("node " + std::to_string(i) + " has a negative bone index");
        if (bone_nodes[static_cast<std::size_t>(b)] >= 0) {
          refuse("bone " + std::to_string(b) + " is given to nodes " + std::to_string(bone_nodes[static_cast<std::size_t>(b)]) +
                 " and " + std::to_string(i));
        }
        bone_nodes[static_cast<std::size_t>(b)] = static_cast<int>(i);
        inverse_binds[static_cast<std::size_t>(b)] = n.bind_pose_inversion;
        node_bones.back() = b;
      }
    }
    for (int b = 0; b < bones; ++b) {
      if (bone_nodes[static_cast<std::size_t>(b)] < 0) {
        refuse("no node corresponds to bone " + std::to_string(b) + " (bones are numbered 0.." + std::to_string(bones - 1) + ")");
      }
    }
  }
  const int bone_count = static_cast<int>(inverse_binds.size());
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    for (std::uint8_t b : vertices[i].bone_indices) {
      if (b >= bone_count) {
        refuse("vertex " + std::to_string(i) + " uses bone " + std::to_string(b) + " of " + std::to_string(bone_count));
      }
    }
  }
  std::vector<int> model_nodes, bone_joints;
  auto shared = std::make_shared<SharedModel>(
      model_of(vertices, triangles, locals, parents, node_bones, inverse_binds, config.name, model_nodes, bone_joints));
  auto skeleton = std::make_shared<SkeletonNodes>();
  skeleton->shared = shared;
  skeleton->model_nodes = std::move(model_nodes);
  skeleton->node_bones = std::move(node_bones);
  auto mesh = MeshAssembly::view(config.name, std::move(shared), {0}, 0, std::move(skeleton), std::move(bone_joints));
  // Animations are attached later, so a built mesh's box covers its bind pose only (T14).
  MeshAssembly::compute_bounds(*mesh, false, config.bounding_box_override, config.bounding_box_additional_margin);
  return mesh;
}

MeshAnimation MeshBuilder::attach_animation(Mesh& mesh, std::span<const SkeletalAnimationScalingKeyframe> scaling_keyframes,
                                            std::span<const SkeletalAnimationRotationKeyframe> rotation_keyframes,
                                            std::span<const SkeletalAnimationTranslationKeyframe> translation_keyframes,
                                            std::span<const SkeletalAnimationNodeMutationDescriptor> bone_mutations,
                                            float default_completion_time_seconds, std::string_view name) {
  SkeletonNodes* skeleton = MeshAssembly::skeleton(mesh);
  if (skeleton == nullptr) throw std::logic_error("MeshBuilder::attach_animation: mesh '" + mesh.name() + "' has no skeletal data");
  SharedModel& shared = *skeleton->shared;
  if (name.empty()) throw std::logic_error("MeshBuilder::attach_animation: the animation name is empty");
  for (const ModelAnimation& a : shared.model.animations) {
    if (a.name == name) {
      throw std::logic_error("MeshBuilder::attach_animation: mesh '" + mesh.name() + "' already has an animation named '" +
                             std::string(name) + "'");
    }
  }
  if (!std::isfinite(default_completion_time_seconds) || default_completion_time_seconds < 0.f) {
    refuse("default completion time " + std::to_string(default_completion_time_seconds) + " s is not a duration");
  }
  // A node that is an entry of the mesh's skin palette (every node of a built mesh: model_of)
  // gets a skeletal track, any other (a loaded file's non-joint ancestor) a scene-node track.
  const Skin& skin = shared.model.skins[static_cast<std::size_t>(mesh.skin())];
  AnimationClip clip, scene_clip;
  clip.name = std::string(name);
  clip.duration = ticks_from_seconds(default_completion_time_seconds);
  const std::size_t node_count = skeleton->size();
  std::vector<bool> targeted(node_count, false);
  for (std::size_t m = 0; m < bone_mutations.size(); ++m) {
    const SkeletalAnimationNodeMutationDescriptor& d = bone_mutations[m];
    if (d.target_node_index < 0 || static_cast<std::size_t>(d.target_node_index) >= node_count) {
      throw std::out_of_range("MeshBuilder::attach_animation: mutation " + std::to_string(m) + " targets node " +
                              std::to_string(d.target_node_index) + " of " + std::to_string(node_count));
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
    const int model_bone = skeleton->model_nodes[static_cast<std::size_t>(d.target_node_index)];
    const int joint = skin.scene_to_palette[static_cast<std::size_t>(model_bone)];
    BoneTrack track;
    track.bone_index = joint >= 0 ? joint : model_bone;
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
    (joint >= 0 ? clip : scene_clip).tracks.push_back(std::move(track));
  }
  ModelAnimation animation;
  animation.name = clip.name;
  animation.duration = clip.duration;
  animation.scene_clip = std::move(scene_clip);
  animation.scene_clip.name = clip.name;
  animation.scene_clip.duration = clip.duration;
  animation.scene_clip.target_space = ClipTargetSpace::SceneNode;
  shared.model.skins[static_cast<std::size_t>(mesh.skin())].data.animation_clips[clip.name] = std::move(clip);
  shared.model.animations.push_back(std::move(animation));
  shared.refresh();  // instances remake their Animators on the new compiled animations
  return mesh.animations()[shared.model.animations.size() - 1];
}

void MeshBuilder::set_skeleton_node_name(Mesh& mesh, std::size_t node_index, std::string_view name) {
  SkeletonNodes* skeleton = MeshAssembly::skeleton(mesh);
  if (skeleton == nullptr) return;  // no skeletal data: no effect
  if (node_index >= skeleton->size()) {
    throw std::out_of_range("MeshBuilder::set_skeleton_node_name: node " + std::to_string(node_index) + " of " +
                            std::to_string(skeleton->size()));
  }
  const auto taken = [&](const std::string& candidate) {
    for (std::size_t i = 0; i < skeleton->size(); ++i) {
      if (i != node_index && skeleton->name(i) == candidate) return true;
    }
    return false;
  };
  std::string unique(name);
  for (int suffix = 2; taken(unique); ++suffix) unique = std::string(name) + std::to_string(suffix);
  // The Model's own node is renamed: what the mesh's model() draws, writes or poses by name
  // sees it too (and so do the other views of a loaded file's Model).
  skeleton->shared->model.nodes[static_cast<std::size_t>(skeleton->model_nodes[node_index])].name = unique;
}

}  // namespace marrow::asset
