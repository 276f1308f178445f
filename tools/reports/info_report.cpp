#include "reports/info_report.hpp"

#include <algorithm>
#include <stdexcept>

#include "marrow/model/humanoid_map.hpp"

namespace marrow {

namespace {

std::size_t key_count(const AnimationClip& clip) {
  std::size_t keys = 0;
  for (const BoneTrack& t : clip.tracks) keys += t.keys.size();
  return keys;
}

// File node of a bone, -1 for the synthetic root.
int node_of(const Model& model, int bone) { return bone < 0 ? -1 : model.nodes[static_cast<std::size_t>(bone)].source_node; }

bool is_joint(const Model& model, std::size_t bone) {
  for (const Skin& s : model.skins) {
    if (bone < s.scene_to_palette.size() && s.scene_to_palette[bone] >= 0) return true;
  }
  return false;
}

std::size_t triangle_count(const ModelMeshPart& part) {
  const std::size_t n = part.indices.empty() ? part.vertex_count() : part.indices.size();
  switch (part.mode) {
    case PrimitiveMode::Triangles: return n / 3;
    case PrimitiveMode::TriangleStrip:
    case PrimitiveMode::TriangleFan: return n < 3 ? 0 : n - 2;
    default: return 0;  // points and lines
  }
}

InfoReport::Humanoid humanoid_of(const Model& model) {
  InfoReport::Humanoid h;
  try {
    const HumanoidMap map = humanoid_map(model);
    h.found = true;
    h.from_file = model.humanoid.has_value();
    for (std::size_t b = 0; b < kHumanoidBoneCount; ++b) {
      const int node = map.nodes[b];
      if (node >= 0) h.bones.emplace_back(std::string(to_string(static_cast<HumanoidBone>(b))), static_cast<std::size_t>(node));
    }
    h.notes = map.notes;
  } catch (const std::invalid_argument& e) {
    h.missing = e.what();
  }
  return h;
}

}  // namespace

InfoReport make_info_report(const Model& model) {
  InfoReport out;
  out.scene = model.source.scene;
  out.humanoid = humanoid_of(model);
  for (std::size_t b = 0; b < model.nodes.size(); ++b) {
    const ModelNode& bone = model.nodes[b];
    out.bones.push_back({b, bone.source_node, bone.name, bone.parent, is_joint(model, b)});
  }
  for (const ModelMesh& m : model.meshes) {
    InfoReport::Mesh r;
    r.mesh = m.source_mesh;
    r.name = m.name;
    r.node = node_of(model, m.node);
    r.skin = m.skin;
    r.parts = m.parts.size();
    std::vector<const Material*> seen;
    for (const ModelMeshPart& p : m.parts) {
      r.vertices += p.vertex_count();
      r.triangles += triangle_count(p);
      if (p.morph) r.morph_targets = p.morph->target_count();
      if (std::find(seen.begin(), seen.end(), p.material.get()) != seen.end()) continue;
      seen.push_back(p.material.get());
      r.materials.push_back(p.material ? p.material->name : std::string());
    }
    r.initial_weights = m.morph_weights;
    out.meshes.push_back(std::move(r));
  }
  for (const Skin& s : model.skins) {
    InfoReport::Skin r;
    r.index = s.source_skin;
    r.name = s.name;
    r.joint_count = s.data.bone_count;
    for (int bone : s.palette_to_scene) r.palette_to_node.push_back(node_of(model, bone));
    r.palette_to_source_joint = s.source_joints;
    r.palette_to_bone = s.palette_to_scene;
    r.bone_to_palette = s.scene_to_palette;
    r.parents = s.data.skeleton_hierarchy;
    r.meshes = s.meshes;
    r.skeleton_root_node = s.data.skeleton_root_node_index;
    out.skins.push_back(std::move(r));
  }
  for (const ModelAnimation& a : model.animations) {
    InfoReport::Clip r;
    r.name = a.name;
    r.duration = seconds_from_ticks(a.duration);
    for (std::size_t s = 0; s < model.skins.size(); ++s) {
      const auto it = model.skins[s].data.animation_clips.find(a.name);
      if (it == model.skins[s].data.animation_clips.end()) continue;
      const auto compressed = model.skins[s].compressed_clips.find(a.name);
      const std::size_t bytes = compressed != model.skins[s].compressed_clips.end() ? compressed->second.size_in_bytes() : 0;
      r.skeletal.push_back({s, it->second.tracks.size(), key_count(it->second), bytes});
    }
    r.rigid_tracks = a.scene_clip.tracks.size();
    r.rigid_keys = key_count(a.scene_clip);
    r.morph_channels = a.morph_channels.size();
    out.clips.push_back(std::move(r));
  }
  out.diagnostics = model.diagnostics;
  return out;
}

}  // namespace marrow
