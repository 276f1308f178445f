#include "marrow/model/compiled_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "compose_locals.hpp"

namespace marrow {

namespace {

// The matrices' largest element difference, relative to their size, within tolerance.
bool close(const glm::mat4& a, const glm::mat4& b, float tolerance = 1e-4f) {
  float diff = 0.f, size = 1.f;
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      diff = std::max(diff, std::fabs(a[c][r] - b[c][r]));
      size = std::max(size, std::fabs(a[c][r]));
    }
  }
  return diff <= tolerance * size;
}

CompiledSkin compile_skin(const Model& model, const Skin& skin, std::span<const glm::mat4> bind_worlds) {
  const SkinningData& data = skin.data;
  const auto n = static_cast<std::size_t>(data.bone_count);
  const std::size_t nodes = model.nodes.size();
  CompiledSkin out;
  out.rest.resize(pose_block_count(n));
  for (std::size_t p = 0; p < n; ++p) set_pose_joint(out.rest, p, decompose_trs(data.bind_pose[p]));
  out.joint_to_scene.assign(n, -1);
  out.scene_to_joint.assign(nodes, -1);
  for (std::size_t p = 0; p < n && p < skin.palette_to_scene.size(); ++p) {
    const int node = skin.palette_to_scene[p];
    if (node < 0 || static_cast<std::size_t>(node) >= nodes) continue;
    out.joint_to_scene[p] = node;
    out.scene_to_joint[static_cast<std::size_t>(node)] = static_cast<int>(p);
  }
  // The skeleton at bind in its palette space (the player's worlds)...
  out.bind_worlds.resize(n);
  detail::compose(data.skeleton_hierarchy, data.bind_pose,
                  has_root_prefix(data) ? std::span<const glm::mat4>(data.skeleton_root_prefix) : std::span<const glm::mat4>(),
                  out.bind_worlds);
  // ...is it one fixed transform of the scene's? Then the scene composition serves both.
  out.with_scene = n > 0 && skin.palette_to_scene.size() == n &&
                   std::none_of(out.joint_to_scene.begin(), out.joint_to_scene.end(), [](int node) { return node < 0; });
  if (out.with_scene) {
    const auto scene_of = [&](std::size_t p) { return static_cast<std::size_t>(out.joint_to_scene[p]); };
    out.scene_to_palette = out.bind_worlds[0] * glm::inverse(bind_worlds[scene_of(0)]);
    for (std::size_t p = 0; p < n && out.with_scene; ++p) {
      out.with_scene = close(out.scene_to_palette * bind_worlds[scene_of(p)], out.bind_worlds[p]);
    }
    // The usual case: palette space is scene space (up to the rounding of the inverse above);
    // then the palette needs one matrix product per joint, not two.
    out.palette_is_scene = close(out.scene_to_palette, glm::mat4(1.f), 1e-6f);
  }
  if (!out.with_scene && has_root_prefix(data) && skin.palette_to_scene.size() == n) {
    for (std::size_t p = 0; p < n; ++p) {
      const int node = skin.palette_to_scene[p];
      if (data.skeleton_hierarchy[p] >= 0 || node <= 0) continue;
      const int ancestor = model.nodes[static_cast<std::size_t>(node)].parent;
      if (ancestor <= 0) continue;  // under the synthetic root: nothing above can move
      out.roots.push_back(CompiledRootJoint{p, ancestor, glm::inverse(bind_worlds[static_cast<std::size_t>(ancestor)])});
    }
  }
  return out;
}

}  // namespace

std::shared_ptr<const CompiledModel> compile_model(const Model& model, std::shared_ptr<const CompiledAnimations> animations) {
  validate(model);
  auto out = std::make_shared<CompiledModel>();
  out->model = &model;
  out->animations = animations != nullptr ? std::move(animations) : compile_animations(model);
  if (out->animations->animations.size() != model.animations.size()) {
    throw std::invalid_argument("compile_model: the compiled animations are of another model (" +
                                std::to_string(out->animations->animations.size()) + " animations for " +
                                std::to_string(model.animations.size()) + ")");
  }
  const std::size_t nodes = model.nodes.size();
  out->parents.resize(nodes);
  std::vector<glm::mat4> locals(nodes);
  for (std::size_t i = 0; i < nodes; ++i) {
    out->parents[i] = model.nodes[i].parent;
    locals[i] = model.nodes[i].transform;
  }
  out->bind_worlds.resize(nodes);
  detail::compose(out->parents, locals, {}, out->bind_worlds);
  out->scene_rest.resize(pose_block_count(nodes));
  for (std::size_t i = 0; i < nodes; ++i) set_pose_joint(out->scene_rest, i, decompose_trs(locals[i]));
  out->locals = std::move(locals);
  for (const Skin& skin : model.skins) {
    out->skins.push_back(compile_skin(model, skin, out->bind_worlds));
    out->max_palette = std::max(out->max_palette, static_cast<std::size_t>(skin.data.bone_count));
  }
  for (const ModelMesh& mesh : model.meshes) {
    for (const ModelMeshPart& part : mesh.parts) {
      out->max_palette = std::max(out->max_palette, part.palette_joints.size());  // S4
      if (mesh.skin >= 0 && part.skinning == SkinningMode::DualQuaternion) {
        out->has_dqs = true;
        out->largest_dqs_part = std::max(out->largest_dqs_part, part.vertex_count());
      }
    }
  }
  for (const ModelAnimation& a : model.animations) out->has_markers |= !a.markers.empty();
  for (const CompiledAnimation& a : out->animations->animations) out->moves_scene_nodes |= a.has_scene_tracks || a.live != nullptr;
  if (!frame_bounds_ready(model)) out->own_bounds = std::make_shared<const FrameBounds>(make_frame_bounds(model));
  for (std::size_t s = 0; s < out->skins.size(); ++s) {
    CompiledSkin& skin = out->skins[s];
    if (!skin.with_scene || !skin.palette_is_scene) continue;
    const JointBounds& bounds = out->own_bounds ? out->own_bounds->skins[s] : model.skins[s].joint_bounds;
    skin.bound_nodes.reserve(bounds.joints.size());
    for (const std::uint32_t j : bounds.joints) {
      skin.bound_nodes.push_back(j < skin.joint_to_scene.size() ? static_cast<std::uint32_t>(skin.joint_to_scene[j])
                                                                 : static_cast<std::uint32_t>(nodes));  // refused by the job
    }
  }
  return out;
}

std::size_t CompiledModel::size_in_bytes() const noexcept {
  const auto mats = [](const std::vector<glm::mat4>& v) { return v.capacity() * sizeof(glm::mat4); };
  std::size_t bytes = sizeof(*this) + parents.capacity() * sizeof(int) + mats(locals) + mats(bind_worlds) +
                      scene_rest.capacity() * sizeof(TrsBlock);
  for (const CompiledSkin& s : skins) {
    bytes += sizeof(s) + s.rest.capacity() * sizeof(TrsBlock) + mats(s.bind_worlds) +
             (s.joint_to_scene.capacity() + s.scene_to_joint.capacity()) * sizeof(int) +
             s.roots.capacity() * sizeof(CompiledRootJoint) + s.bound_nodes.capacity() * sizeof(std::uint32_t);
  }
  return bytes;
}

}  // namespace marrow
