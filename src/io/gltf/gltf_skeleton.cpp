#include "gltf_skeleton.hpp"

#include <string>
#include <unordered_map>

#include "marrow/core/finite.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/gltf/detail/accessor_reader.hpp"

namespace marrow::gltf {

namespace {

[[noreturn]] void fail(ImportErrorCode code, std::uint32_t skin, const std::string& message) {
  throw ImportError(code, "skin " + std::to_string(skin) + ": " + message);
}

std::vector<glm::mat4> read_inverse_binds(const GltfAsset& asset, std::uint32_t skin_index, std::size_t joints,
                                          const ImportOptions& options) {
  const gltf::Skin& skin = asset.document.skins[skin_index];
  std::vector<glm::mat4> out(joints, glm::mat4(1.f));
  if (skin.inverse_bind_matrices == kNone) return out;
  const Accessor& accessor = asset.document.accessors[skin.inverse_bind_matrices];
  if (accessor.type != AccessorType::Mat4 || accessor.component_type != ComponentType::Float) {
    fail(ImportErrorCode::InvalidSkin, skin_index,
         "inverseBindMatrices accessor " + std::to_string(skin.inverse_bind_matrices) + " is not float MAT4");
  }
  if (accessor.count < joints) {
    fail(ImportErrorCode::InvalidSkin, skin_index,
         "inverseBindMatrices accessor " + std::to_string(skin.inverse_bind_matrices) + " has " +
             std::to_string(accessor.count) + " matrices for " + std::to_string(joints) + " joints");
  }
  std::vector<float> values;
  read_accessor_floats(asset, skin.inverse_bind_matrices, options.limits, values);
  for (std::size_t j = 0; j < joints; ++j) {
    glm::mat4& m = out[j];
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) m[c][r] = values[j * 16 + static_cast<std::size_t>(c * 4 + r)];
    }
    if (!is_finite(m)) {
      fail(ImportErrorCode::InvalidSkin, skin_index, "inverse bind matrix " + std::to_string(j) + " is not finite");
    }
  }
  return out;
}

}  // namespace

BuiltSkin build_skin(const GltfAsset& asset, const SceneGraph& graph, std::uint32_t skin_index,
                     const glm::mat4& mesh_node_world, const ImportOptions& options) {
  const Document& doc = asset.document;
  const gltf::Skin& source = doc.skins[skin_index];
  const std::vector<std::uint32_t>& joints = source.joints;
  const std::size_t n = joints.size();
  if (options.palette_policy == PalettePolicy::Refuse && n > static_cast<std::size_t>(options.max_palette)) {
    fail(ImportErrorCode::PaletteLimit, skin_index,
         std::to_string(n) + " joints exceed the palette limit of " + std::to_string(options.max_palette) + " (" +
             std::string(kPaletteLimitRemedy) + ")");
  }

  if (n > 65536) {
    fail(ImportErrorCode::InvalidSkin, skin_index,
         std::to_string(n) + " joints do not fit marrow's 16-bit palette indices");
  }
  // Joint node -> source ordinal; a node listed twice is refused.
  std::unordered_map<std::uint32_t, int> ordinal;
  ordinal.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    const auto [it, inserted] = ordinal.emplace(joints[k], static_cast<int>(k));
    if (!inserted) {
      fail(ImportErrorCode::InvalidSkin, skin_index,
           "node " + std::to_string(joints[k]) + " is listed twice (joints " + std::to_string(it->second) + " and " +
               std::to_string(k) + ")");
    }
  }

  // The joint parent of each joint, or -1 for a root joint (whose prefix carries the ancestry).
  std::vector<int> joint_parent(n, -1);
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t parent = graph.parent[joints[k]];
    if (parent == kNone) continue;
    if (const auto it = ordinal.find(parent); it != ordinal.end()) {
      joint_parent[k] = it->second;
      continue;
    }
    for (std::uint32_t up = graph.parent[parent]; up != kNone; up = graph.parent[up]) {
      if (ordinal.count(up) != 0) {
        fail(ImportErrorCode::InvalidSkin, skin_index,
             "joint node " + std::to_string(joints[k]) + " hangs below non-joint node " + std::to_string(parent) +
                 " under joint node " + std::to_string(up) + " (its parent chain leaves and re-enters the joint set)");
      }
    }
  }

  // Breadth-first from the root joints (in source order), children in source order.
  std::vector<std::vector<int>> children(n);
  std::vector<int> order;
  order.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    if (joint_parent[k] < 0) {
      order.push_back(static_cast<int>(k));
    } else {
      children[static_cast<std::size_t>(joint_parent[k])].push_back(static_cast<int>(k));
    }
  }
  for (std::size_t head = 0; head < order.size(); ++head) {
    for (int child : children[static_cast<std::size_t>(order[head])]) order.push_back(child);
  }

  BuiltSkin built;
  built.source_to_palette.assign(n, -1);
  for (std::size_t p = 0; p < order.size(); ++p) built.source_to_palette[static_cast<std::size_t>(order[p])] = static_cast<int>(p);

  const std::vector<glm::mat4> inverse_binds = read_inverse_binds(asset, skin_index, n, options);
  // Joint roots are expressed in the skinned mesh node's space (docs/semantics.md), which needs
  // its world transform to be invertible.
  const glm::mat4 mesh_inverse = glm::inverse(mesh_node_world);
  if (!is_finite(mesh_inverse)) {
    fail(ImportErrorCode::InvalidSkin, skin_index,
         "the world transform of the mesh node it skins cannot be inverted (a zero scale on it or an ancestor)");
  }
  marrow::Skin& skin = built.skin;
  skin = sized_skin(n, graph.bone_to_node.size());
  skin.name = source.name;
  skin.source_skin = static_cast<int>(skin_index);
  SkinningData& data = skin.data;
  for (std::size_t p = 0; p < n; ++p) {
    const auto k = static_cast<std::size_t>(order[p]);
    const std::uint32_t node = joints[k];
    data.skeleton_hierarchy[p] =
        joint_parent[k] < 0 ? -1 : built.source_to_palette[static_cast<std::size_t>(joint_parent[k])];
    data.bind_pose[p] = graph.local[node];
    data.inverse_bind_pose[p] = inverse_binds[k];
    if (joint_parent[k] < 0) {
      const std::uint32_t parent = graph.parent[node];
      data.skeleton_root_prefix[p] = parent == kNone ? mesh_inverse : mesh_inverse * graph.world[parent];
      if (!is_finite(data.skeleton_root_prefix[p])) {
        fail(ImportErrorCode::InvalidSkin, skin_index,
             "the transforms above joint node " + std::to_string(node) + " overflow the float range");
      }
    }
    const int bone = graph.node_to_bone[node];
    skin.palette_to_scene[p] = bone;
    if (bone >= 0) skin.scene_to_palette[static_cast<std::size_t>(bone)] = static_cast<int>(p);
    skin.source_joints[p] = static_cast<int>(k);
  }
  const std::uint32_t root_node = source.skeleton != kNone ? source.skeleton : (n > 0 ? joints[static_cast<std::size_t>(order[0])] : kNone);
  if (root_node != kNone) {
    data.skeleton_root_node_index = static_cast<int>(root_node);
    data.skeleton_root_name = doc.nodes[root_node].name;
  }
  return built;
}

}  // namespace marrow::gltf
