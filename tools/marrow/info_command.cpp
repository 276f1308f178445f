// `marrow info FILE [--json] [--scene N]`: what marrow imported from a file: scenes, the node
// tree (which nodes are joints), meshes (vertices, triangles, materials), skins with their palette order and both index maps, clips
// (name, duration, target space, tracks), morph targets, and diagnostics.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "commands.hpp"
#include "json_writer.hpp"
#include "loaded_file.hpp"
#include "options.hpp"

namespace marrow::cli {

namespace {

std::size_t key_count(const AnimationClip& clip) {
  std::size_t keys = 0;
  for (const BoneTrack& t : clip.tracks) keys += t.keys.size();
  return keys;
}

// Node index of a bone, -1 for the synthetic root.
int node_of(const Model& model, int bone) { return bone < 0 ? -1 : model.bones[static_cast<std::size_t>(bone)].source_node; }

std::size_t triangle_count(const ModelMeshPart& part) {
  const std::size_t n = part.indices.empty() ? part.vertex_count() : part.indices.size();
  switch (part.mode) {
    case PrimitiveMode::Triangles: return n / 3;
    case PrimitiveMode::TriangleStrip:
    case PrimitiveMode::TriangleFan: return n < 3 ? 0 : n - 2;
    default: return 0;  // points and lines
  }
}

struct MeshCounts {
  std::size_t vertices = 0, triangles = 0, targets = 0;
  std::vector<std::string> materials;  // distinct, in part order ("" for a part without one)
};

MeshCounts count(const ModelMesh& m) {
  MeshCounts c;
  std::vector<const Material*> seen;
  for (const ModelMeshPart& p : m.parts) {
    c.vertices += p.vertex_count();
    c.triangles += triangle_count(p);
    if (p.morph) c.targets = p.morph->target_count();
    if (std::find(seen.begin(), seen.end(), p.material.get()) != seen.end()) continue;
    seen.push_back(p.material.get());
    c.materials.push_back(p.material ? p.material->name : std::string());
  }
  return c;
}

bool is_joint(const Model& model, std::size_t bone) {
  for (const Skin& s : model.skins) {
    if (bone < s.scene_to_palette.size() && s.scene_to_palette[bone] >= 0) return true;
  }
  return false;
}

void write_json(const LoadedFile& f) {
  const Model& model = f.model;
  JsonWriter j(stdout);
  j.begin_object();
  j.key("file").value(f.path.string());
  j.key("scene").value(model.source.scene);
  j.key("bones").begin_array();
  for (std::size_t b = 0; b < model.bones.size(); ++b) {
    const ModelBone& bone = model.bones[b];
    j.begin_object().key("bone").value(b).key("node").value(bone.source_node).key("name").name(bone.name);
    j.key("parentBone").value(bone.parent).key("joint").value(is_joint(model, b)).end_object();
  }
  j.end_array();
  j.key("meshes").begin_array();
  for (const ModelMesh& m : model.meshes) {
    j.begin_object().key("mesh").value(m.source_mesh).key("name").name(m.name).key("node").value(node_of(model, m.parent_bone));
    j.key("skin").value(m.skin).key("parts").value(m.parts.size());
    const MeshCounts c = count(m);
    j.key("vertices").value(c.vertices).key("triangles").value(c.triangles).key("morphTargets").value(c.targets);
    j.key("materials").begin_array();
    for (const std::string& name : c.materials) j.name(name);
    j.end_array();
    j.key("initialWeights").numbers(m.morph_weights.begin(), m.morph_weights.end()).end_object();
  }
  j.end_array();
  j.key("skins").begin_array();
  for (const Skin& s : model.skins) {
    j.begin_object().key("index").value(s.source_skin).key("name").name(s.name).key("jointCount").value(s.data.bone_count);
    j.key("paletteToNode").begin_array();
    for (int bone : s.palette_to_scene) j.value(node_of(model, bone));
    j.end_array();
    j.key("paletteToSourceJoint").numbers(s.source_joints.begin(), s.source_joints.end());
    j.key("paletteToBone").numbers(s.palette_to_scene.begin(), s.palette_to_scene.end());
    j.key("boneToPalette").numbers(s.scene_to_palette.begin(), s.scene_to_palette.end());
    j.key("parents").numbers(s.data.skeleton_hierarchy.begin(), s.data.skeleton_hierarchy.end());
    j.key("meshes").numbers(s.meshes.begin(), s.meshes.end());
    j.key("skeletonRootNode").value(s.data.skeleton_root_node_index).end_object();
  }
  j.end_array();
  j.key("clips").begin_array();
  for (const ModelAnimation& a : model.animations) {
    j.begin_object().key("name").value(a.name).key("duration").value(seconds_from_ticks(a.duration));
    j.key("skeletal").begin_array();
    for (std::size_t s = 0; s < model.skins.size(); ++s) {
      const auto it = model.skins[s].data.animation_clips.find(a.name);
      if (it == model.skins[s].data.animation_clips.end()) continue;
      j.begin_object().key("skin").value(s).key("targetSpace").value("JointPalette");
      j.key("tracks").value(it->second.tracks.size()).key("keys").value(key_count(it->second)).end_object();
    }
    j.end_array();
    j.key("rigid").begin_object().key("targetSpace").value("SceneNode").key("tracks").value(a.scene_clip.tracks.size());
    j.key("keys").value(key_count(a.scene_clip)).end_object();
    j.key("morphChannels").value(a.morph_channels.size()).end_object();
  }
  j.end_array();
  j.key("diagnostics").begin_array();
  for (const Diagnostic& d : model.diagnostics) {
    j.begin_object().key("code").value(d.code).key("count").value(d.count).key("message").value(d.message).end_object();
  }
  j.end_array();
  j.end_object();
  j.finish();
}

void print_tree(const Model& model, std::size_t bone, int depth) {
  const ModelBone& b = model.bones[bone];
  std::printf("  %*s%s", depth * 2, "", bone == 0 ? "(synthetic root)" : (b.name.empty() ? "(unnamed)" : b.name.c_str()));
  if (bone > 0) std::printf("  [node %d, bone %zu]", b.source_node, bone);
  if (is_joint(model, bone)) std::printf(" joint");
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    if (model.meshes[m].parent_bone == static_cast<int>(bone)) {
      std::printf(" mesh %d%s", model.meshes[m].source_mesh, model.meshes[m].skin >= 0 ? " (skinned)" : "");
    }
  }
  std::printf("\n");
  for (std::size_t c = bone + 1; c < model.bones.size(); ++c) {
    if (model.bones[c].parent == static_cast<int>(bone)) print_tree(model, c, depth + 1);
  }
}

void write_text(const LoadedFile& f) {
  const Model& model = f.model;
  std::printf("%s: scene %d, %zu bones, %zu meshes, %zu skins, %zu animations\n", f.path.string().c_str(),
              model.source.scene, model.bones.size(), model.meshes.size(), model.skins.size(), model.animations.size());
  std::printf("node tree:\n");
  print_tree(model, 0, 0);
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const ModelMesh& mesh = model.meshes[m];
    const MeshCounts c = count(mesh);
    std::printf("mesh %d \"%s\"%s: %zu %s, %zu vertices, %zu triangles, %zu %s", mesh.source_mesh, mesh.name.c_str(),
                mesh.skin >= 0 ? (" (skin " + std::to_string(mesh.skin) + ")").c_str() : "", mesh.parts.size(),
                mesh.parts.size() == 1 ? "part" : "parts", c.vertices, c.triangles, c.materials.size(),
                c.materials.size() == 1 ? "material" : "materials");
    for (std::size_t i = 0; i < c.materials.size(); ++i) {
      std::printf("%s\"%s\"", i == 0 ? " " : ", ", c.materials[i].empty() ? "(none)" : c.materials[i].c_str());
    }
    std::printf("\n");
  }
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    const Skin& skin = model.skins[s];
    std::printf("skin %zu (file skin %d \"%s\"): %d joints, drives meshes", s, skin.source_skin, skin.name.c_str(),
                skin.data.bone_count);
    for (int m : skin.meshes) std::printf(" %d", m);
    std::printf("\n  palette -> node:");
    for (int bone : skin.palette_to_scene) std::printf(" %d", node_of(model, bone));
    std::printf("\n  palette -> file joint:");
    for (int k : skin.source_joints) std::printf(" %d", k);
    std::printf("\n");
  }
  for (const ModelAnimation& a : model.animations) {
    std::printf("clip \"%s\": %.4g s, %zu rigid tracks, %zu morph channels", a.name.c_str(), seconds_from_ticks(a.duration),
                a.scene_clip.tracks.size(), a.morph_channels.size());
    for (std::size_t s = 0; s < model.skins.size(); ++s) {
      const auto it = model.skins[s].data.animation_clips.find(a.name);
      if (it != model.skins[s].data.animation_clips.end()) {
        std::printf(", skin %zu: %zu tracks / %zu keys", s, it->second.tracks.size(), key_count(it->second));
      }
    }
    std::printf("\n");
  }
  for (const ModelMesh& m : model.meshes) {
    if (m.morph_weights.empty()) continue;
    std::printf("mesh %d \"%s\": %zu morph targets, initial weights", m.source_mesh, m.name.c_str(), m.morph_weights.size());
    for (float w : m.morph_weights) std::printf(" %.4g", w);
    std::printf("\n");
  }
  for (const Diagnostic& d : model.diagnostics) std::printf("diagnostic %s (x%d): %s\n", d.code.c_str(), d.count, d.message.c_str());
}

}  // namespace

int run_info(const Args& arguments) {
  Args args = arguments;
  const ModelFileOptions options = take_load_options(args);
  const bool json = take_flag(args, "--json");
  const LoadedFile loaded = load_file(take_file(args, "info"), options);
  if (json) {
    write_json(loaded);
  } else {
    write_text(loaded);
  }
  return 0;
}

}  // namespace marrow::cli
