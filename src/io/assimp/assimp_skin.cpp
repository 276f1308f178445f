#include "assimp_skin.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "marrow/core/finite.hpp"

namespace marrow::assimp {

namespace {

// One future Skin: the bones' nodes with their offsets, in first-seen order.
struct Group {
  glm::mat4 mesh_world{1.f};
  int first_instance = 0;
  std::vector<int> bone_nodes;
  std::map<int, glm::mat4> offsets;  // by node
  std::size_t joint_count = 0;       // bones plus in-between nodes
};

bool nearly_equal(const glm::mat4& a, const glm::mat4& b) {
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      if (std::fabs(a[c][r] - b[c][r]) > 1e-6f * std::max(1.f, std::fabs(a[c][r]))) return false;
    }
  }
  return true;
}

// The bones' nodes plus every node between two of them, bones first, then the added nodes in
// the order found. mark is scratch with one entry per node, all false on entry and on exit.
std::vector<int> joint_set(const NodeTable& nodes, const std::vector<int>& bone_nodes, std::vector<char>& mark) {
  std::vector<int> joints;
  for (int n : bone_nodes) {
    if (!mark[static_cast<std::size_t>(n)]) {
      mark[static_cast<std::size_t>(n)] = 1;
      joints.push_back(n);
    }
  }
  std::vector<int> path;
  for (std::size_t i = 0, bones = joints.size(); i < bones; ++i) {
    path.clear();
    int p = nodes.parent[static_cast<std::size_t>(joints[i])];
    for (; p >= 0 && !mark[static_cast<std::size_t>(p)]; p = nodes.parent[static_cast<std::size_t>(p)]) {
      path.push_back(p);
    }
    if (p < 0) continue;  // no joint above: these are ancestors of a root joint, not in between
    // Reached a joint (a bone, or an in-between node whose own chain up to a bone is in).
    for (int q : path) {
      mark[static_cast<std::size_t>(q)] = 1;
      joints.push_back(q);
    }
  }
  for (int n : joints) mark[static_cast<std::size_t>(n)] = 0;
  return joints;
}

marrow::Skin make_skin(const NodeTable& nodes, const Group& group, const std::vector<int>& joints, unsigned source_mesh,
                       const std::string& name) {
  const std::size_t n = joints.size();
  std::map<int, int> ordinal;  // node -> position in joints (the skin's own joint list)
  for (std::size_t k = 0; k < n; ++k) ordinal.emplace(joints[k], static_cast<int>(k));
  const auto in_set = [&](int node) { return node >= 0 && ordinal.count(node) != 0; };

  // Breadth-first from the roots; siblings and roots in depth-first node order.
  std::vector<int> by_node(joints);
  std::sort(by_node.begin(), by_node.end());
  std::map<int, std::vector<int>> children;
  std::vector<int> order;
  order.reserve(n);
  for (int node : by_node) {
    const int parent = nodes.parent[static_cast<std::size_t>(node)];
    if (in_set(parent)) {
      children[parent].push_back(node);
    } else {
      order.push_back(node);
    }
  }
  for (std::size_t head = 0; head < order.size(); ++head) {
    const auto it = children.find(order[head]);
    if (it != children.end()) order.insert(order.end(), it->second.begin(), it->second.end());
  }

  marrow::Skin skin = sized_skin(n, nodes.nodes.size() + 1);
  skin.name = name;
  skin.source_skin = static_cast<int>(source_mesh);
  SkinningData& data = skin.data;
  const glm::mat4 mesh_inverse = glm::inverse(group.mesh_world);
  for (std::size_t p = 0; p < n; ++p) {
    skin.scene_to_palette[static_cast<std::size_t>(order[p]) + 1] = static_cast<int>(p);
  }
  for (std::size_t p = 0; p < n; ++p) {
    const int node = order[p];
    const auto u = static_cast<std::size_t>(node);
    const int parent = nodes.parent[u];
    data.skeleton_hierarchy[p] = in_set(parent) ? skin.scene_to_palette[static_cast<std::size_t>(parent) + 1] : -1;
    data.bind_pose[p] = nodes.local[u];
    const auto offset = group.offsets.find(node);
    data.inverse_bind_pose[p] = offset != group.offsets.end() ? offset->second : glm::inverse(nodes.world[u]);
    if (data.skeleton_hierarchy[p] < 0) {
      data.skeleton_root_prefix[p] =
          parent < 0 ? mesh_inverse : mesh_inverse * nodes.world[static_cast<std::size_t>(parent)];
    }
    skin.palette_to_scene[p] = node + 1;
    skin.source_joints[p] = ordinal[node];
  }
  if (n > 0) {
    data.skeleton_root_node_index = order[0];
    data.skeleton_root_name = nodes.names[static_cast<std::size_t>(order[0])];
  }
  return skin;
}

}  // namespace

BuiltSkins build_skins(const aiScene& scene, const NodeTable& nodes, const std::vector<MeshInstance>& instances,
                       int max_bones, std::vector<Diagnostic>& diagnostics) {
  BuiltSkins out;
  out.instances.resize(instances.size());
  std::vector<Group> groups;
  std::vector<int> instance_group(instances.size(), -1);
  std::vector<std::vector<int>> instance_bone_nodes(instances.size());
  std::vector<char> mark(nodes.nodes.size(), 0);
  const auto limit = static_cast<std::size_t>(max_bones);

  for (std::size_t i = 0; i < instances.size(); ++i) {
    const aiMesh& mesh = *scene.mMeshes[instances[i].mesh];
    if (mesh.mNumBones == 0 || mesh.mBones == nullptr) continue;
    const std::string here = "mesh " + std::to_string(instances[i].mesh) + " ('" + mesh.mName.C_Str() + "') on node '" +
                             nodes.names[static_cast<std::size_t>(instances[i].node)] + "'";
    // The mesh's own bones: node and offset each.
    std::vector<int>& bone_nodes = instance_bone_nodes[i];
    std::map<int, glm::mat4> offsets;
    bool usable = true;
    for (unsigned b = 0; b < mesh.mNumBones && usable; ++b) {
      const aiBone* bone = mesh.mBones[b];
      const int node = bone == nullptr ? -1 : nodes.find(bone->mName, diagnostics);
      if (node < 0) {
        add_diagnostic(diagnostics, DiagnosticCode::BoneWithoutNode,
                       here + ": bone " + std::to_string(b) + " names no node; the mesh loads static");
        usable = false;
        break;
      }
      const glm::mat4 offset = to_glm(bone->mOffsetMatrix);
      if (!is_finite(offset)) {
        add_diagnostic(diagnostics, DiagnosticCode::InvalidBoneOffset,
                       here + ": bone '" + nodes.names[static_cast<std::size_t>(node)] +
                           "' has a non-finite offset matrix; the mesh loads static");
        usable = false;
        break;
      }
      const auto [it, inserted] = offsets.emplace(node, offset);
      if (!inserted && !nearly_equal(it->second, offset)) {
        add_diagnostic(diagnostics, DiagnosticCode::ConflictingBoneOffsets,
                       here + ": two bones name node '" + nodes.names[static_cast<std::size_t>(node)] +
                           "' with different offsets; the mesh loads static");
        usable = false;
      }
      bone_nodes.push_back(node);
    }
    const glm::mat4& mesh_world = nodes.world[static_cast<std::size_t>(instances[i].node)];
    if (usable && !is_finite(glm::inverse(mesh_world))) {
      add_diagnostic(diagnostics, DiagnosticCode::SingularMeshNode,
                     here + ": the node's transform cannot be inverted; the mesh loads static");
      usable = false;
    }
    if (!usable) continue;
    const std::size_t joints = joint_set(nodes, bone_nodes, mark).size();
    if (joints > limit) {
      add_diagnostic(diagnostics, DiagnosticCode::PaletteLimitLoadedStatic,
                     here + " has " + std::to_string(joints) + " joints, more than " + std::to_string(max_bones) +
                         " (AssimpOptions::max_bones): it loads static");
      continue;
    }
    // Join a skin of the same mesh-node transform whose shared bones agree, if the union fits.
    int chosen = -1;
    for (std::size_t g = 0; g < groups.size() && chosen < 0; ++g) {
      Group& group = groups[g];
      if (group.mesh_world != mesh_world) continue;
      bool agree = true;
      for (const auto& [node, offset] : offsets) {
        const auto it = group.offsets.find(node);
        agree = agree && (it == group.offsets.end() || nearly_equal(it->second, offset));
      }
      if (!agree) continue;
      std::vector<int> merged = group.bone_nodes;
      merged.insert(merged.end(), bone_nodes.begin(), bone_nodes.end());
      const std::size_t count = joint_set(nodes, merged, mark).size();
      if (count > limit) continue;
      chosen = static_cast<int>(g);
      for (int node : bone_nodes) {
        if (group.offsets.emplace(node, offsets[node]).second) group.bone_nodes.push_back(node);
      }
      group.joint_count = count;
    }
    if (chosen < 0) {
      chosen = static_cast<int>(groups.size());
      Group group;
      group.mesh_world = mesh_world;
      group.first_instance = static_cast<int>(i);
      for (int node : bone_nodes) {
        if (group.offsets.emplace(node, offsets[node]).second) group.bone_nodes.push_back(node);
      }
      group.joint_count = joints;
      groups.push_back(std::move(group));
    }
    instance_group[i] = chosen;
  }

  for (const Group& group : groups) {
    const MeshInstance& first = instances[static_cast<std::size_t>(group.first_instance)];
    out.skins.push_back(make_skin(nodes, group, joint_set(nodes, group.bone_nodes, mark), first.mesh,
                                  nodes.names[static_cast<std::size_t>(first.node)]));
  }
  for (std::size_t i = 0; i < instances.size(); ++i) {
    if (instance_group[i] < 0) continue;
    SkinAssignment& assignment = out.instances[i];
    assignment.skin = instance_group[i];
    const marrow::Skin& skin = out.skins[static_cast<std::size_t>(assignment.skin)];
    for (int node : instance_bone_nodes[i]) {
      assignment.bone_to_palette.push_back(skin.scene_to_palette[static_cast<std::size_t>(node) + 1]);
    }
  }
  return out;
}

}  // namespace marrow::assimp
