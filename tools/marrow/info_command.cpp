// `marrow info FILE [--json] [--scene N]`: what marrow imported from a file (InfoReport): scenes,
// the node tree (which nodes are joints), meshes (vertices, triangles, materials), skins with
// their palette order and both index maps, clips (name, duration, target space, tracks), morph
// targets, and diagnostics.
#include <cstdio>
#include <string>

#include "commands.hpp"
#include "json_writer.hpp"
#include "loaded_file.hpp"
#include "reports/info_report.hpp"
#include "options.hpp"

namespace marrow::cli {

namespace {

void write_json(const LoadedFile& f, const InfoReport& r) {
  JsonWriter j(stdout);
  j.begin_object();
  j.key("file").value(f.path.string());
  j.key("scene").value(r.scene);
  j.key("bones").begin_array();
  for (const InfoReport::Bone& b : r.bones) {
    j.begin_object().key("bone").value(b.bone).key("node").value(b.node).key("name").name(b.name);
    j.key("parentBone").value(b.parent_bone).key("joint").value(b.joint).end_object();
  }
  j.end_array();
  j.key("meshes").begin_array();
  for (const InfoReport::Mesh& m : r.meshes) {
    j.begin_object().key("mesh").value(m.mesh).key("name").name(m.name).key("node").value(m.node);
    j.key("skin").value(m.skin).key("parts").value(m.parts);
    j.key("vertices").value(m.vertices).key("triangles").value(m.triangles).key("morphTargets").value(m.morph_targets);
    j.key("materials").begin_array();
    for (const std::string& name : m.materials) j.name(name);
    j.end_array();
    j.key("initialWeights").numbers(m.initial_weights.begin(), m.initial_weights.end()).end_object();
  }
  j.end_array();
  j.key("skins").begin_array();
  for (const InfoReport::Skin& s : r.skins) {
    j.begin_object().key("index").value(s.index).key("name").name(s.name).key("jointCount").value(s.joint_count);
    j.key("paletteToNode").numbers(s.palette_to_node.begin(), s.palette_to_node.end());
    j.key("paletteToSourceJoint").numbers(s.palette_to_source_joint.begin(), s.palette_to_source_joint.end());
    j.key("paletteToBone").numbers(s.palette_to_bone.begin(), s.palette_to_bone.end());
    j.key("boneToPalette").numbers(s.bone_to_palette.begin(), s.bone_to_palette.end());
    j.key("parents").numbers(s.parents.begin(), s.parents.end());
    j.key("meshes").numbers(s.meshes.begin(), s.meshes.end());
    j.key("skeletonRootNode").value(s.skeleton_root_node).end_object();
  }
  j.end_array();
  j.key("clips").begin_array();
  for (const InfoReport::Clip& c : r.clips) {
    j.begin_object().key("name").value(c.name).key("duration").value(c.duration);
    // compressed_bytes: when a skin stores the clip compressed, its bytes (the clip's total beside).
    std::size_t compressed = 0;
    j.key("skeletal").begin_array();
    for (const InfoReport::SkeletalClip& k : c.skeletal) {
      j.begin_object().key("skin").value(k.skin).key("targetSpace").value("JointPalette");
      j.key("tracks").value(k.tracks).key("keys").value(k.keys);
      if (k.compressed_bytes != 0) j.key("compressed_bytes").value(k.compressed_bytes);
      j.end_object();
      compressed += k.compressed_bytes;
    }
    j.end_array();
    if (compressed != 0) j.key("compressed_bytes").value(compressed);
    j.key("rigid").begin_object().key("targetSpace").value("SceneNode").key("tracks").value(c.rigid_tracks);
    j.key("keys").value(c.rigid_keys).end_object();
    j.key("morphChannels").value(c.morph_channels).end_object();
  }
  j.end_array();
  j.key("humanoid");
  if (r.humanoid.found) {
    j.begin_object().key("source").value(r.humanoid.from_file ? "file" : "names").key("bones").begin_object();
    for (const auto& [bone, node] : r.humanoid.bones) j.key(bone).value(f.model.nodes[node].name);
    j.end_object().key("notes").begin_array();
    for (const std::string& note : r.humanoid.notes) j.value(note);
    j.end_array().end_object();
  } else {
    j.null();
  }
  j.key("diagnostics").begin_array();
  for (const Diagnostic& d : r.diagnostics) {
    j.begin_object().key("code").value(to_string(d.code)).key("count").value(d.count).key("message").value(d.message).end_object();
  }
  j.end_array();
  j.end_object();
  j.finish();
}

void print_tree(const Model& model, const InfoReport& r, std::size_t bone, int depth) {
  const ModelNode& b = model.nodes[bone];
  std::printf("  %*s%s", depth * 2, "", bone == 0 ? "(synthetic root)" : (b.name.empty() ? "(unnamed)" : b.name.c_str()));
  // The node's index in the model (what pose reports, the humanoid map and Python's arrays
  // count), then its index in the file.
  if (bone > 0) std::printf("  [node %zu, file node %d]", bone, b.source_node);
  if (r.bones[bone].joint) std::printf(" joint");
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    if (model.meshes[m].node == static_cast<int>(bone)) {
      std::printf(" mesh %d%s", model.meshes[m].source_mesh, model.meshes[m].skin >= 0 ? " (skinned)" : "");
    }
  }
  std::printf("\n");
  for (std::size_t c = bone + 1; c < model.nodes.size(); ++c) {
    if (model.nodes[c].parent == static_cast<int>(bone)) print_tree(model, r, c, depth + 1);
  }
}

void write_text(const LoadedFile& f, const InfoReport& r) {
  const Model& model = f.model;
  std::printf("%s: scene %d, %zu bones, %zu meshes, %zu skins, %zu animations\n", f.path.string().c_str(), r.scene,
              r.bones.size(), r.meshes.size(), r.skins.size(), r.clips.size());
  std::printf("node tree:\n");
  print_tree(model, r, 0, 0);
  for (const InfoReport::Mesh& m : r.meshes) {
    std::printf("mesh %d \"%s\"%s: %zu %s, %zu vertices, %zu triangles, %zu %s", m.mesh, m.name.c_str(),
                m.skin >= 0 ? (" (skin " + std::to_string(m.skin) + ")").c_str() : "", m.parts,
                m.parts == 1 ? "part" : "parts", m.vertices, m.triangles, m.materials.size(),
                m.materials.size() == 1 ? "material" : "materials");
    for (std::size_t i = 0; i < m.materials.size(); ++i) {
      std::printf("%s\"%s\"", i == 0 ? " " : ", ", m.materials[i].empty() ? "(none)" : m.materials[i].c_str());
    }
    std::printf("\n");
  }
  for (std::size_t s = 0; s < r.skins.size(); ++s) {
    const InfoReport::Skin& skin = r.skins[s];
    std::printf("skin %zu (file skin %d \"%s\"): %d joints, drives meshes", s, skin.index, skin.name.c_str(), skin.joint_count);
    for (int m : skin.meshes) std::printf(" %d", m);
    std::printf("\n  palette -> node:");
    for (int node : skin.palette_to_node) std::printf(" %d", node);
    std::printf("\n  palette -> file joint:");
    for (int k : skin.palette_to_source_joint) std::printf(" %d", k);
    std::printf("\n");
  }
  for (const InfoReport::Clip& c : r.clips) {
    std::printf("clip \"%s\": %.4g s, %zu rigid tracks, %zu morph channels", c.name.c_str(), c.duration, c.rigid_tracks,
                c.morph_channels);
    for (const InfoReport::SkeletalClip& k : c.skeletal) {
      std::printf(", skin %zu: %zu tracks / %zu keys", k.skin, k.tracks, k.keys);
      if (k.compressed_bytes != 0) std::printf(" (compressed, %zu bytes)", k.compressed_bytes);
    }
    std::printf("\n");
  }
  for (const InfoReport::Mesh& m : r.meshes) {
    if (m.initial_weights.empty()) continue;
    std::printf("mesh %d \"%s\": %zu morph targets, initial weights", m.mesh, m.name.c_str(), m.initial_weights.size());
    for (float w : m.initial_weights) std::printf(" %.4g", w);
    std::printf("\n");
  }
  if (r.humanoid.found) {
    std::printf("humanoid (%s):", r.humanoid.from_file ? "the file's map" : "found from the names");
    for (const auto& [bone, node] : r.humanoid.bones) std::printf(" %s=%s", bone.c_str(), model.nodes[node].name.c_str());
    std::printf("\n");
    for (const std::string& note : r.humanoid.notes) std::printf("  note: %s\n", note.c_str());
  } else {
    std::printf("humanoid: none (%s)\n", r.humanoid.missing.c_str());
  }
  for (const Diagnostic& d : r.diagnostics) std::printf("diagnostic %s (x%d): %s\n", std::string(to_string(d.code)).c_str(), d.count, d.message.c_str());
}

}  // namespace

int run_info(const Args& arguments) {
  Args args = arguments;
  const ModelFileOptions options = take_load_options(args);
  const bool json = take_flag(args, "--json");
  const LoadedFile loaded = load_file(take_file(args, "info"), options);
  const InfoReport report = make_info_report(loaded.model);
  if (json) {
    write_json(loaded, report);
  } else {
    write_text(loaded, report);
  }
  return 0;
}

}  // namespace marrow::cli
