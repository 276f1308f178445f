#include "marrow/model/model.hpp"

#include "marrow/model/live_retarget.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include <glm/gtc/type_precision.hpp>

#include "marrow/core/finite.hpp"
#include "marrow/core/vertex_access.hpp"

namespace marrow {

int Model::find_animation(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < animations.size(); ++i) {
    if (animations[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int Model::find_node(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].name == name) return static_cast<int>(i);
  return -1;
}

bool Model::descends_from(int node, int ancestor) const noexcept {
  while (node >= 0 && static_cast<std::size_t>(node) < nodes.size()) {
    const int parent = nodes[static_cast<std::size_t>(node)].parent;
    if (parent < 0 || parent >= node) return false;
    if (parent == ancestor) return true;
    node = parent;
  }
  return false;
}

namespace {

[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument("Model: " + message); }

std::string part_name(std::size_t mesh, std::size_t part) {
  return "mesh " + std::to_string(mesh) + " part " + std::to_string(part);
}

// Every joint index of the vertices (all `influences` of each, S1) must name a bone of the skin
// that draws them.
void check_joints(std::span<const std::byte> bytes, const VertexLayout& layout, int palette_size, const std::string& where,
                  const char* limit = "the skin's bone_count") {
  const std::size_t n = bytes.size() / layout.stride;
  const std::byte* first = bytes.data() + layout.offset(VertexAttribute::Joints0);
  const auto joint = [&](std::size_t v, std::size_t i) {
    std::uint16_t j;
    std::memcpy(&j, first + v * layout.stride + 2 * i, sizeof j);
    return j;
  };
  // The largest joint first, without a branch per value; the offending vertex only on failure.
  std::uint16_t largest = 0;
  for (std::size_t v = 0; v < n; ++v) {
    for (std::size_t i = 0; i < layout.influences; ++i) largest = std::max(largest, joint(v, i));
  }
  if (n == 0 || largest < palette_size) return;
  for (std::size_t v = 0; v < n; ++v) {
    for (std::size_t i = 0; i < layout.influences; ++i) {
      if (const std::uint16_t j = joint(v, i); j >= palette_size) {
        fail(where + ": vertex " + std::to_string(v) + " joint " + std::to_string(j) + " (influence " + std::to_string(i) +
             ") is not below " + limit + " " + std::to_string(palette_size));
      }
    }
  }
}

void validate_part(const ModelMeshPart& part, std::size_t m, std::size_t p, int palette_size) {
  if (std::string problem = part.layout.problem(); !problem.empty()) fail(part_name(m, p) + ": " + problem);
  if (part.vertex_bytes.size() % part.layout.stride != 0) {
    fail(part_name(m, p) + ": " + std::to_string(part.vertex_bytes.size()) +
         " vertex bytes are not a multiple of stride " + std::to_string(part.layout.stride));
  }
  const std::size_t n = part.vertex_count();
  // The largest index first (a loop the compiler vectorises); the offending one only on failure.
  std::uint32_t largest = 0;
  for (const std::uint32_t index : part.indices) largest = std::max(largest, index);
  for (std::size_t i = 0; !part.indices.empty() && largest >= n && i < part.indices.size(); ++i) {
    if (part.indices[i] >= n) {
      fail(part_name(m, p) + ": index " + std::to_string(i) + " = " + std::to_string(part.indices[i]) +
           " is not below the vertex count " + std::to_string(n));
    }
  }
  if (!part.source_vertices.empty() && part.source_vertices.size() != n) {
    fail(part_name(m, p) + ": source_vertices has " + std::to_string(part.source_vertices.size()) +
         " entries for " + std::to_string(n) + " vertices");
  }
  if (palette_size < 0 && !part.palette_joints.empty()) fail(part_name(m, p) + ": palette_joints on an unskinned mesh");
  // S4: a split part's JOINTS index its palette_joints, whose entries name joints of the skin.
  for (std::size_t i = 0; i < part.palette_joints.size(); ++i) {
    if (part.palette_joints[i] >= static_cast<std::uint32_t>(std::max(palette_size, 0))) {
      fail(part_name(m, p) + ": palette_joints[" + std::to_string(i) + "] = " + std::to_string(part.palette_joints[i]) +
           " is not below the skin's bone_count " + std::to_string(palette_size));
    }
  }
  const int joints = part.palette_joints.empty() ? palette_size : static_cast<int>(part.palette_joints.size());
  const char* limit = part.palette_joints.empty() ? "the skin's bone_count" : "its palette_joints size";
  if (palette_size >= 0) {
    if (!part.layout.has(VertexAttribute::Joints0) || !part.layout.has(VertexAttribute::Weights0)) {
      fail(part_name(m, p) + ": skinned but its layout has no joints0/weights0");
    }
    check_joints(part.vertex_bytes, part.layout, joints, part_name(m, p), limit);
    if (!part.skinned_material) fail(part_name(m, p) + ": skinned but has no skinned_material");
    if (part.skinned_material->max_bones() < joints) {
      fail(part_name(m, p) + ": skinned material holds " + std::to_string(part.skinned_material->max_bones()) +
           " bones, the part's palette has " + std::to_string(joints));
    }
  }
  if (part.morph) {
    try {
      validate(*part.morph);
    } catch (const std::invalid_argument& e) {
      fail(part_name(m, p) + ": " + e.what());
    }
    if (part.morph->base_vertex_bytes.size() != part.vertex_bytes.size() || !(part.morph->layout == part.layout)) {
      fail(part_name(m, p) + ": morph base vertices do not match the part's vertices and layout");
    }
    if (palette_size >= 0) check_joints(part.morph->base_vertex_bytes, part.layout, joints, part_name(m, p) + " morph base", limit);
  }
}

void validate_bones(const Model& model) {
  for (std::size_t i = 0; i < model.nodes.size(); ++i) {
    const int parent = model.nodes[i].parent;
    if (parent >= static_cast<int>(i)) {
      fail("bone " + std::to_string(i) + " has parent " + std::to_string(parent) + ", not before it");
    }
    if (!is_finite(model.nodes[i].transform)) fail("bone " + std::to_string(i) + " transform is not finite");
  }
}

void validate_meshes(const Model& model) {
  const std::size_t bones = model.nodes.size();
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const ModelMesh& mesh = model.meshes[m];
    if (mesh.node < 0 || static_cast<std::size_t>(mesh.node) >= bones) {
      fail("mesh " + std::to_string(m) + " node " + std::to_string(mesh.node) + " names no bone");
    }
    if (mesh.skin < -1 || mesh.skin >= static_cast<int>(model.skins.size())) {
      fail("mesh " + std::to_string(m) + " skin " + std::to_string(mesh.skin) + " names no skin");
    }
    const int palette = mesh.skin >= 0 ? model.skins[static_cast<std::size_t>(mesh.skin)].data.bone_count : -1;
    for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
      validate_part(mesh.parts[p], m, p, palette);
      if (mesh.parts[p].morph && mesh.parts[p].morph->target_count() != mesh.morph_weights.size()) {
        fail(part_name(m, p) + ": " + std::to_string(mesh.parts[p].morph->target_count()) +
             " morph targets, the mesh has " + std::to_string(mesh.morph_weights.size()) + " weights");
      }
    }
  }
}

// M3: one palette per material, so two skins may never share a skinned material.
void validate_material_owners(const Model& model) {
  std::vector<std::pair<const SkinnedMaterial*, int>> owner;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    for (const ModelMeshPart& part : model.meshes[m].parts) {
      if (!part.skinned_material) continue;
      const int skin = model.meshes[m].skin;
      bool seen = false;
      for (const auto& [material, first_skin] : owner) {
        if (material != part.skinned_material.get()) continue;
        seen = true;
        if (first_skin != skin) {
          fail("mesh " + std::to_string(m) + " shares a skinned material with skin " + std::to_string(first_skin) +
               " but is drawn by skin " + std::to_string(skin));
        }
      }
      if (!seen) owner.emplace_back(part.skinned_material.get(), skin);
    }
  }
}

void validate_skin(const Model& model, std::size_t s) {
  const std::size_t bones = model.nodes.size();
  const Skin& skin = model.skins[s];
  try {
    validate(skin.data);
    for (const auto& [name, clip] : skin.data.animation_clips) validate_clip(clip);
  } catch (const std::invalid_argument& e) {
    fail("skin " + std::to_string(s) + ": " + e.what());
  }
  for (int mesh : skin.meshes) {
    if (mesh < 0 || static_cast<std::size_t>(mesh) >= model.meshes.size()) {
      fail("skin " + std::to_string(s) + " names mesh " + std::to_string(mesh) + ", which does not exist");
    }
  }
  if (!skin.scene_to_palette.empty() && skin.scene_to_palette.size() != bones) {
    fail("skin " + std::to_string(s) + " scene_to_palette has " + std::to_string(skin.scene_to_palette.size()) +
         " entries for " + std::to_string(bones) + " bones");
  }
  if (!skin.palette_to_scene.empty() &&
      skin.palette_to_scene.size() != static_cast<std::size_t>(skin.data.bone_count)) {
    fail("skin " + std::to_string(s) + " palette_to_scene has " + std::to_string(skin.palette_to_scene.size()) +
         " entries for " + std::to_string(skin.data.bone_count) + " joints");
  }
  for (std::size_t p = 0; p < skin.palette_to_scene.size(); ++p) {
    const int bone = skin.palette_to_scene[p];
    if (bone < -1 || bone >= static_cast<int>(bones)) {
      fail("skin " + std::to_string(s) + " palette_to_scene[" + std::to_string(p) + "] = " + std::to_string(bone) +
           " names no bone");
    }
  }
  for (std::size_t b = 0; b < skin.scene_to_palette.size(); ++b) {
    const int p = skin.scene_to_palette[b];
    if (p < -1 || p >= skin.data.bone_count) {
      fail("skin " + std::to_string(s) + " scene_to_palette[" + std::to_string(b) + "] = " + std::to_string(p) +
           " names no palette entry");
    }
  }
  for (const auto& [name, clip] : skin.data.animation_clips) {
    if (clip.target_space != ClipTargetSpace::JointPalette) {
      fail("skin " + std::to_string(s) + " clip '" + name + "' does not target the joint palette");
    }
  }
  // A compressed clip plays in place of the authored clip of its name, on this skeleton.
  for (const auto& [name, clip] : skin.compressed_clips) {
    if (skin.data.animation_clips.count(name) == 0) {
      fail("skin " + std::to_string(s) + " compressed clip '" + name + "' names no clip of the skin");
    }
    if (!clip.compressed() || clip.joint_count() != static_cast<std::size_t>(skin.data.bone_count)) {
      fail("skin " + std::to_string(s) + " compressed clip '" + name + "' is not a compressed clip of its " +
           std::to_string(skin.data.bone_count) + " joints");
    }
  }
}

void validate_animation(const Model& model, std::size_t a) {
  const ModelAnimation& anim = model.animations[a];
  if (anim.scene_clip.target_space != ClipTargetSpace::SceneNode) {
    fail("animation " + std::to_string(a) + " scene_clip does not target scene nodes");
  }
  if (anim.live && !live_retarget_fits(*anim.live, model)) {
    fail("animation " + std::to_string(a) + " plays live through a retarget map made for another model");
  }
  try {
    validate_clip(anim.scene_clip);
    for (const MorphWeightChannel& ch : anim.morph_channels) validate(ch.track);
  } catch (const std::invalid_argument& e) {
    fail("animation " + std::to_string(a) + ": " + e.what());
  }
  for (std::size_t m = 0; m < anim.markers.size(); ++m) {
    const Ticks t = anim.markers[m].time;
    if (t < Ticks{0} || t > anim.duration || (m > 0 && t < anim.markers[m - 1].time)) {
      fail("animation " + std::to_string(a) + " marker " + std::to_string(m) + " ('" + anim.markers[m].name +
           "') is outside the clip or out of order");
    }
  }
  for (const MorphWeightChannel& ch : anim.morph_channels) {
    if (ch.mesh < 0 || static_cast<std::size_t>(ch.mesh) >= model.meshes.size()) {
      fail("animation " + std::to_string(a) + " morph channel names mesh " + std::to_string(ch.mesh));
    }
    if (ch.track.weight_count != model.meshes[static_cast<std::size_t>(ch.mesh)].morph_weights.size()) {
      fail("animation " + std::to_string(a) + " morph channel for mesh " + std::to_string(ch.mesh) + " has " +
           std::to_string(ch.track.weight_count) + " weights per key, the mesh has " +
           std::to_string(model.meshes[static_cast<std::size_t>(ch.mesh)].morph_weights.size()) + " targets");
    }
  }
}

}  // namespace

void validate(const Model& model) {
  validate_bones(model);
  validate_meshes(model);
  validate_material_owners(model);
  for (std::size_t s = 0; s < model.skins.size(); ++s) validate_skin(model, s);
  for (std::size_t a = 0; a < model.animations.size(); ++a) validate_animation(model, a);
}

}  // namespace marrow
