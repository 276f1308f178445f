#include "report_dicts.hpp"

#include <span>

namespace marrow::python {

namespace {

// The CLI's JsonWriter::name(): a missing (empty) name is null.
py::object name_or_none(const std::string& name) { return name.empty() ? py::object(py::none()) : py::str(name); }

template <class T>
py::list numbers(std::span<const T> values) {
  py::list out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = py::cast(values[i]);
  return out;
}
template <class T>
py::list numbers(const std::vector<T>& values) {
  return numbers(std::span<const T>(values));
}

py::list floats(const float* values, std::size_t count) {
  py::list out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = py::float_(static_cast<double>(values[i]));
  return out;
}

// 16 numbers, column-major (glTF's order).
py::list matrix(const glm::mat4& m) { return floats(&m[0][0], 16); }

py::list matrices(const std::vector<glm::mat4>& ms) {
  py::list out(ms.size());
  for (std::size_t i = 0; i < ms.size(); ++i) out[i] = matrix(ms[i]);
  return out;
}

// x, y, z of each point in one flat list.
py::list flat_vec3s(const std::vector<glm::vec3>& points) {
  return points.empty() ? py::list() : floats(&points[0].x, 3 * points.size());
}

py::dict info_bone(const InfoReport::Bone& b) {
  py::dict d;
  d["bone"] = b.bone;
  d["node"] = b.node;
  d["name"] = name_or_none(b.name);
  d["parentBone"] = b.parent_bone;
  d["joint"] = b.joint;
  return d;
}

py::dict info_mesh(const InfoReport::Mesh& m) {
  py::dict d;
  d["mesh"] = m.mesh;
  d["name"] = name_or_none(m.name);
  d["node"] = m.node;
  d["skin"] = m.skin;
  d["parts"] = m.parts;
  d["vertices"] = m.vertices;
  d["triangles"] = m.triangles;
  d["morphTargets"] = m.morph_targets;
  py::list materials;
  for (const std::string& name : m.materials) materials.append(name_or_none(name));
  d["materials"] = materials;
  d["initialWeights"] = floats(m.initial_weights.data(), m.initial_weights.size());
  return d;
}

py::dict info_skin(const InfoReport::Skin& s) {
  py::dict d;
  d["index"] = s.index;
  d["name"] = name_or_none(s.name);
  d["jointCount"] = s.joint_count;
  d["paletteToNode"] = numbers(s.palette_to_node);
  d["paletteToSourceJoint"] = numbers(s.palette_to_source_joint);
  d["paletteToBone"] = numbers(s.palette_to_bone);
  d["boneToPalette"] = numbers(s.bone_to_palette);
  d["parents"] = numbers(s.parents);
  d["meshes"] = numbers(s.meshes);
  d["skeletonRootNode"] = s.skeleton_root_node;
  return d;
}

py::dict info_clip(const InfoReport::Clip& c) {
  py::dict d;
  d["name"] = c.name;
  d["duration"] = c.duration;
  py::list skeletal;
  std::size_t compressed = 0;
  for (const InfoReport::SkeletalClip& k : c.skeletal) {
    compressed += k.compressed_bytes;
    py::dict s;
    s["skin"] = k.skin;
    s["targetSpace"] = "JointPalette";
    s["tracks"] = k.tracks;
    s["keys"] = k.keys;
    if (k.compressed_bytes != 0) s["compressed_bytes"] = k.compressed_bytes;
    skeletal.append(s);
  }
  d["skeletal"] = skeletal;
  if (compressed != 0) d["compressed_bytes"] = compressed;
  py::dict rigid;
  rigid["targetSpace"] = "SceneNode";
  rigid["tracks"] = c.rigid_tracks;
  rigid["keys"] = c.rigid_keys;
  d["rigid"] = rigid;
  d["morphChannels"] = c.morph_channels;
  return d;
}

py::dict pose_node(const PoseReport::Node& n) {
  py::dict d;
  d["index"] = n.index;
  d["name"] = name_or_none(n.name);
  d["translation"] = floats(&n.translation.x, 3);
  const float rotation[4] = {n.rotation.x, n.rotation.y, n.rotation.z, n.rotation.w};
  d["rotation"] = floats(rotation, 4);
  d["scale"] = floats(&n.scale.x, 3);
  d["world"] = matrix(n.world);
  return d;
}

py::dict pose_skin(const PoseReport::Skin& s) {
  py::dict d;
  d["index"] = s.index;
  d["name"] = name_or_none(s.name);
  d["joints"] = numbers(s.joints);
  d["meshNode"] = s.mesh_node ? py::object(py::int_(*s.mesh_node)) : py::object(py::none());
  d["jointMatrices"] = matrices(s.joint_matrices);
  d["globalJointMatrices"] = matrices(s.global_joint_matrices);
  if (!s.per_node.empty()) {  // several mesh nodes draw with the skin
    py::list per_node;
    for (const PoseReport::Skin::NodeMatrices& p : s.per_node) {
      py::dict entry;
      entry["node"] = p.node;
      entry["jointMatrices"] = matrices(p.joint_matrices);
      per_node.append(entry);
    }
    d["perNode"] = per_node;
  }
  return d;
}

py::dict pose_mesh(const PoseReport::Mesh& m, bool normals) {
  py::dict d;
  d["node"] = m.node;
  d["mesh"] = m.mesh;
  d["primitive"] = m.primitive;
  d["skinned"] = m.skinned;
  d["vertexCount"] = m.positions.size();
  d["positions"] = flat_vec3s(m.positions);
  if (normals && !m.normals.empty()) d["normals"] = flat_vec3s(m.normals);
  return d;
}

}  // namespace

py::dict info_dict(const std::string& file, const InfoReport& r) {
  py::dict d;
  d["file"] = file;
  d["scene"] = r.scene;
  py::list bones, meshes, skins, clips, diagnostics;
  for (const InfoReport::Bone& b : r.bones) bones.append(info_bone(b));
  for (const InfoReport::Mesh& m : r.meshes) meshes.append(info_mesh(m));
  for (const InfoReport::Skin& s : r.skins) skins.append(info_skin(s));
  for (const InfoReport::Clip& c : r.clips) clips.append(info_clip(c));
  for (const Diagnostic& x : r.diagnostics) {
    py::dict e;
    e["code"] = std::string(to_string(x.code));
    e["count"] = x.count;
    e["message"] = x.message;
    diagnostics.append(e);
  }
  d["bones"] = bones;
  d["meshes"] = meshes;
  d["skins"] = skins;
  d["clips"] = clips;
  d["diagnostics"] = diagnostics;
  if (r.humanoid.found) {
    py::dict humanoid, map;
    for (const auto& [bone, node] : r.humanoid.bones) map[py::str(bone)] = r.bones[node].name;
    humanoid["source"] = r.humanoid.from_file ? "file" : "names";
    humanoid["bones"] = map;
    py::list notes;
    for (const std::string& note : r.humanoid.notes) notes.append(note);
    humanoid["notes"] = notes;
    d["humanoid"] = humanoid;
  } else {
    d["humanoid"] = py::none();
  }
  return d;
}

py::dict pose_dict(const std::string& file, const PoseReport& r, bool normals, const std::optional<RootMotionEntry>& root) {
  py::dict d;
  py::dict engine;
  engine["engine"] = "marrow";
  d["marrow"] = engine;
  d["file"] = file;
  d["scene"] = r.scene >= 0 ? py::object(py::int_(r.scene)) : py::object(py::none());
  if (r.clip >= 0) {
    py::dict clip;
    clip["index"] = r.clip;
    clip["name"] = name_or_none(r.clip_name);
    clip["duration"] = r.duration;
    d["clip"] = clip;
    d["time"] = r.time;
    d["sampledTime"] = r.sampled_time;
  } else {
    d["clip"] = py::none();
    d["time"] = py::none();
    d["sampledTime"] = py::none();
  }
  py::list nodes, skins, meshes, morph_weights, warnings;
  for (const PoseReport::Node& n : r.nodes) nodes.append(pose_node(n));
  for (const PoseReport::Skin& s : r.skins) skins.append(pose_skin(s));
  for (const PoseReport::Mesh& m : r.meshes) meshes.append(pose_mesh(m, normals));
  for (const PoseReport::MorphWeights& w : r.morph_weights) {
    py::dict e;
    e["node"] = w.node;
    e["mesh"] = w.mesh;
    e["weights"] = floats(w.weights.data(), w.weights.size());
    morph_weights.append(e);
  }
  for (const std::string& w : r.warnings) warnings.append(w);
  d["nodes"] = nodes;
  d["skins"] = skins;
  d["meshes"] = meshes;
  d["morphWeights"] = morph_weights;
  d["warnings"] = warnings;
  if (r.graph) {
    d["state"] = r.graph->state;
    py::dict weights;
    for (const auto& [clip, weight] : r.graph->clip_weights) weights[py::str(clip)] = static_cast<double>(weight);
    d["clip_weights"] = weights;
  }
  if (root) {
    py::dict motion;
    motion["node"] = root->node;
    motion["translation"] = floats(&root->motion.translation.x, 3);
    motion["yaw"] = static_cast<double>(root->motion.yaw);
    d["rootMotion"] = motion;
  }
  return d;
}

}  // namespace marrow::python
