#include "reports/pose_report.hpp"

#include <algorithm>

#include "marrow/core/trs.hpp"

namespace marrow {

namespace {

int node_of(const Model& model, int bone) {
  return bone < 0 ? -1 : model.nodes[static_cast<std::size_t>(bone)].source_node;
}

void report_skins(const Model& model, const Animator& animator, PoseReport& out) {
  const std::span<const glm::mat4> world = animator.absolute_bone_transforms();
  std::vector<int> reported;
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    const Skin& skin = model.skins[s];
    // One entry per file skin (a file skin used from differently placed mesh nodes becomes
    // several marrow skins with the same joints).
    if (std::find(reported.begin(), reported.end(), skin.source_skin) != reported.end()) continue;
    reported.push_back(skin.source_skin);
    const std::size_t n = skin.source_joints.size();
    std::vector<int> joint_bone(n, -1);
    std::vector<glm::mat4> inverse_bind(n);
    bool in_scene = n == skin.palette_to_scene.size();
    for (std::size_t p = 0; p < n && in_scene; ++p) {
      const auto k = static_cast<std::size_t>(skin.source_joints[p]);
      in_scene = k < n && skin.palette_to_scene[p] >= 0;
      if (!in_scene) break;
      joint_bone[k] = skin.palette_to_scene[p];
      inverse_bind[k] = skin.data.inverse_bind_pose[p];
    }
    if (!in_scene) {
      out.warnings.push_back("skin " + std::to_string(skin.source_skin) + " is not reported: a joint is outside the scene");
      continue;
    }
    PoseReport::Skin r;
    r.index = static_cast<std::uint32_t>(std::max(skin.source_skin, 0));
    r.name = skin.name;
    for (int bone : joint_bone) r.joints.push_back(static_cast<std::uint32_t>(node_of(model, bone)));
    // The mesh nodes that draw with this file skin, by file index (the oracle's schema): the
    // first is meshNode; when several do, each gets its own joint matrices (perNode).
    std::vector<std::pair<int, int>> users;  // (file node, bone)
    for (const Skin& other : model.skins) {
      if (other.source_skin != skin.source_skin) continue;
      for (int m : other.meshes) {
        const int bone = model.meshes[static_cast<std::size_t>(m)].node;
        users.emplace_back(node_of(model, bone), bone);
      }
    }
    std::sort(users.begin(), users.end());
    users.erase(std::unique(users.begin(), users.end()), users.end());
    for (std::size_t j = 0; j < n; ++j) r.global_joint_matrices.push_back(world[static_cast<std::size_t>(joint_bone[j])] * inverse_bind[j]);
    const auto relative_to = [&](int bone) {
      const glm::mat4 inverse = glm::inverse(world[static_cast<std::size_t>(bone)]);
      std::vector<glm::mat4> out;
      for (const glm::mat4& global : r.global_joint_matrices) out.push_back(inverse * global);
      return out;
    };
    if (users.empty()) {
      r.joint_matrices = r.global_joint_matrices;
    } else {
      r.mesh_node = static_cast<std::uint32_t>(users[0].first);
      r.joint_matrices = relative_to(users[0].second);
    }
    if (users.size() > 1) {
      r.per_node.push_back({*r.mesh_node, r.joint_matrices});  // the first is meshNode's, made above
      for (std::size_t u = 1; u < users.size(); ++u)
        r.per_node.push_back({static_cast<std::uint32_t>(users[u].first), relative_to(users[u].second)});
    }
    out.skins.push_back(std::move(r));
  }
  std::sort(out.skins.begin(), out.skins.end(), [](const PoseReport::Skin& a, const PoseReport::Skin& b) { return a.index < b.index; });
}

void report_meshes(const Model& model, Animator& animator, PoseReport& out) {
  std::vector<glm::vec3> positions, normals;
  std::vector<bool> seen;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const ModelMesh& mesh = model.meshes[m];
    const auto node = static_cast<std::uint32_t>(node_of(model, mesh.node));
    const std::size_t first_entry = out.meshes.size();
    for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
      const ModelMeshPart& part = mesh.parts[p];
      const std::size_t n = part.vertex_count();
      // Normals the file authored: a normal slot that does not hold computed flat normals.
      const bool file_normals =
          part.layout.has(VertexAttribute::Normal) && !part.flat_normals && part.mode == PrimitiveMode::Triangles;
      positions.resize(n);
      normals.resize(file_normals ? n : 0);
      animator.pose_part(m, p, positions, normals);
      // The sub-parts of a palette split (S4) report together as their file primitive.
      PoseReport::Mesh* r = nullptr;
      for (std::size_t e = first_entry; e < out.meshes.size() && !part.palette_joints.empty() && part.source_primitive >= 0; ++e) {
        if (out.meshes[e].primitive == static_cast<std::uint32_t>(part.source_primitive)) r = &out.meshes[e];
      }
      if (r == nullptr) {
        r = &out.meshes.emplace_back();
        r->node = node;
        r->mesh = static_cast<std::uint32_t>(std::max(mesh.source_mesh, 0));
        r->primitive = static_cast<std::uint32_t>(std::max(part.source_primitive, 0));
        r->skinned = mesh.skin >= 0;
        if (part.source_vertices.empty()) {
          r->positions = positions;
          r->normals = normals;
          continue;
        }
        r->positions.assign(part.source_vertex_count, glm::vec3(0.f));
        if (file_normals) r->normals.assign(part.source_vertex_count, glm::vec3(0.f));
        seen.assign(part.source_vertex_count, false);
      }
      // Split vertices (flat normals, palette split): every file vertex is represented; its
      // first copy reports it.
      for (std::size_t v = 0; v < n; ++v) {
        const std::uint32_t s = part.source_vertices[v];
        if (s >= seen.size() || seen[s]) continue;
        seen[s] = true;
        r->positions[s] = positions[v];
        if (!r->normals.empty() && file_normals) r->normals[s] = normals[v];
      }
    }
    if (!mesh.morph_weights.empty()) {
      const auto w = animator.morph_weights(m);
      out.morph_weights.push_back(PoseReport::MorphWeights{node, static_cast<std::uint32_t>(std::max(mesh.source_mesh, 0)),
                                                           std::vector<float>(w.begin(), w.end())});
    }
  }
  std::stable_sort(out.meshes.begin(), out.meshes.end(), [](const PoseReport::Mesh& a, const PoseReport::Mesh& b) {
    return a.node != b.node ? a.node < b.node : a.primitive < b.primitive;
  });
  std::stable_sort(out.morph_weights.begin(), out.morph_weights.end(),
                   [](const PoseReport::MorphWeights& a, const PoseReport::MorphWeights& b) { return a.node < b.node; });
}

}  // namespace

PoseReport make_pose_report(const Model& model, Animator& animator) {
  PoseReport out;
  out.scene = model.source.scene;
  const std::span<const glm::mat4> local = animator.bone_transforms();
  const std::span<const glm::mat4> world = animator.absolute_bone_transforms();
  for (std::size_t b = 1; b < model.nodes.size(); ++b) {
    const ModelNode& bone = model.nodes[b];
    if (bone.source_node < 0) continue;
    const Trs trs = decompose_trs(local[b]);
    out.nodes.push_back(PoseReport::Node{static_cast<std::uint32_t>(bone.source_node), bone.name, trs.translation,
                                         trs.rotation, trs.scale, world[b]});
  }
  std::sort(out.nodes.begin(), out.nodes.end(), [](const PoseReport::Node& a, const PoseReport::Node& b) { return a.index < b.index; });
  report_skins(model, animator, out);
  report_meshes(model, animator, out);
  for (const Diagnostic& d : model.diagnostics) out.warnings.push_back(std::string(to_string(d.code)) + ": " + d.message);
  return out;
}

void describe_clip(const Model& model, int clip, double seconds, PoseReport& report) {
  report.clip = clip;
  if (clip < 0) return;
  const ModelAnimation& anim = model.animations[static_cast<std::size_t>(clip)];
  report.clip_name = anim.name;
  report.duration = seconds_from_ticks(anim.duration);
  report.time = seconds;
  report.sampled_time = std::clamp(seconds, 0.0, report.duration);
}

PoseReport::Graph describe_graph(const GraphInstance& instance) {
  PoseReport::Graph out;
  out.state = std::string(instance.state());
  const Model& model = instance.graph().model();
  // Every slot, even at weight 0, so a report lists every clip the graph can play.
  for (const GraphInstance::ClipWeight& slot : instance.clip_weights()) {
    if (slot.animation < 0) continue;
    const std::string& name = model.animations[static_cast<std::size_t>(slot.animation)].name;
    const auto same = [&](const auto& entry) { return entry.first == name; };
    const auto it = std::find_if(out.clip_weights.begin(), out.clip_weights.end(), same);
    if (it == out.clip_weights.end()) {
      out.clip_weights.emplace_back(name, slot.weight);
    } else {
      it->second += slot.weight;
    }
  }
  return out;
}

PoseReport pose_at(const Model& model, int clip, double seconds) {
  Animator animator(model);
  animator.play(clip);
  if (clip >= 0) animator.update(ticks_from_seconds(seconds), false, false);
  PoseReport report = make_pose_report(model, animator);
  describe_clip(model, clip, seconds, report);
  return report;
}

}  // namespace marrow
