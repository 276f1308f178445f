#include "marrow/io/gltf_pose_report.hpp"

#include <algorithm>

#include "marrow/core/trs.hpp"

namespace marrow {

namespace {

using gltf::kNone;

void report_skins(const gltf::Document& doc, const Model& model, const Animator& animator, PoseReport& out) {
  const std::span<const glm::mat4> world = animator.absolute_bone_transforms();
  const std::vector<int>& node_to_bone = model.source.node_to_bone;
  for (std::uint32_t s = 0; s < doc.skins.size(); ++s) {
    const gltf::Skin& source = doc.skins[s];
    const marrow::Skin* skin = nullptr;
    for (const marrow::Skin& candidate : model.skins) {
      if (candidate.source_skin == static_cast<int>(s)) {
        skin = &candidate;
        break;
      }
    }
    bool in_scene = skin != nullptr;
    for (std::uint32_t joint : source.joints) in_scene = in_scene && node_to_bone[joint] >= 0;
    if (!in_scene) {
      out.warnings.push_back("skin " + std::to_string(s) + " is not reported: it was not imported or a joint is outside the scene");
      continue;
    }
    PoseReport::Skin r;
    r.index = s;
    r.name = source.name;
    r.joints = source.joints;
    for (std::uint32_t n = 0; n < doc.nodes.size(); ++n) {
      if (doc.nodes[n].skin == s && doc.nodes[n].mesh != kNone && node_to_bone[n] >= 0) {
        r.mesh_node = n;
        break;
      }
    }
    std::vector<glm::mat4> inverse_bind(source.joints.size());
    for (std::size_t p = 0; p < skin->source_joints.size(); ++p) {
      inverse_bind[static_cast<std::size_t>(skin->source_joints[p])] = skin->data.inverse_bind_pose[p];
    }
    const glm::mat4 mesh_inverse =
        r.mesh_node ? glm::inverse(world[static_cast<std::size_t>(node_to_bone[*r.mesh_node])]) : glm::mat4(1.f);
    for (std::size_t j = 0; j < source.joints.size(); ++j) {
      const glm::mat4 global = world[static_cast<std::size_t>(node_to_bone[source.joints[j]])] * inverse_bind[j];
      r.global_joint_matrices.push_back(global);
      r.joint_matrices.push_back(mesh_inverse * global);
    }
    out.skins.push_back(std::move(r));
  }
}

void report_meshes(const gltf::Document& doc, const Model& model, Animator& animator, PoseReport& out) {
  std::vector<glm::vec3> positions, normals;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const ModelMesh& mesh = model.meshes[m];
    const auto node = static_cast<std::uint32_t>(model.bones[static_cast<std::size_t>(mesh.parent_bone)].source_node);
    for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
      const ModelMeshPart& part = mesh.parts[p];
      const std::size_t n = part.vertex_count();
      const gltf::Primitive& prim = doc.meshes[static_cast<std::size_t>(mesh.source_mesh)]
                                        .primitives[static_cast<std::size_t>(part.source_primitive)];
      const bool file_normals = prim.find("NORMAL") != kNone && part.mode == PrimitiveMode::Triangles;
      positions.resize(n);
      normals.resize(file_normals ? n : 0);
      animator.pose_part(m, p, positions, normals);
      PoseReport::Mesh r;
      r.node = node;
      r.mesh = static_cast<std::uint32_t>(mesh.source_mesh);
      r.primitive = static_cast<std::uint32_t>(part.source_primitive);
      r.skinned = mesh.skin >= 0;
      if (part.source_vertices.empty()) {
        r.positions = positions;
        r.normals = normals;
      } else {
        // Split primitives: every file vertex is represented; the first copy reports it.
        r.positions.assign(part.source_vertex_count, glm::vec3(0.f));
        r.normals.assign(file_normals ? part.source_vertex_count : 0, glm::vec3(0.f));
        std::vector<bool> seen(part.source_vertex_count, false);
        for (std::size_t v = 0; v < n; ++v) {
          const std::uint32_t s = part.source_vertices[v];
          if (s >= seen.size() || seen[s]) continue;
          seen[s] = true;
          r.positions[s] = positions[v];
          if (file_normals) r.normals[s] = normals[v];
        }
      }
      out.meshes.push_back(std::move(r));
    }
    if (!mesh.morph_weights.empty()) {
      const auto w = animator.morph_weights(m);
      out.morph_weights.push_back(
          PoseReport::MorphWeights{node, static_cast<std::uint32_t>(mesh.source_mesh), std::vector<float>(w.begin(), w.end())});
    }
  }
  std::stable_sort(out.meshes.begin(), out.meshes.end(), [](const PoseReport::Mesh& a, const PoseReport::Mesh& b) {
    return a.node != b.node ? a.node < b.node : a.primitive < b.primitive;
  });
  std::stable_sort(out.morph_weights.begin(), out.morph_weights.end(),
                   [](const PoseReport::MorphWeights& a, const PoseReport::MorphWeights& b) { return a.node < b.node; });
}

}  // namespace

PoseReport make_pose_report(const gltf::Document& doc, const Model& model, Animator& animator) {
  PoseReport out;
  out.scene = model.source.scene;
  const std::span<const glm::mat4> local = animator.bone_transforms();
  const std::span<const glm::mat4> world = animator.absolute_bone_transforms();
  for (std::uint32_t n = 0; n < doc.nodes.size() && n < model.source.node_to_bone.size(); ++n) {
    const int bone = model.source.node_to_bone[n];
    if (bone < 0) continue;
    const Trs trs = decompose_trs(local[static_cast<std::size_t>(bone)]);
    out.nodes.push_back(PoseReport::Node{n, doc.nodes[n].name, trs.translation, trs.rotation, trs.scale,
                                         world[static_cast<std::size_t>(bone)]});
  }
  report_skins(doc, model, animator, out);
  report_meshes(doc, model, animator, out);
  for (const Diagnostic& d : model.diagnostics) out.warnings.push_back(d.code + ": " + d.message);
  return out;
}

PoseReport pose_at(const gltf::Document& document, const Model& model, int clip, double seconds) {
  Animator animator(model);
  animator.play(clip);
  if (clip >= 0) animator.update(ticks_from_seconds(seconds), false, false);
  PoseReport report = make_pose_report(document, model, animator);
  report.clip = clip;
  if (clip >= 0) {
    const ModelAnimation& anim = model.animations[static_cast<std::size_t>(clip)];
    report.clip_name = anim.name;
    report.duration = seconds_from_ticks(anim.duration);
    report.time = seconds;
    report.sampled_time = std::clamp(seconds, 0.0, report.duration);
  }
  return report;
}

}  // namespace marrow
