#pragma once
// Private to the glTF importer: BuildSkeleton (G2-G4, G8). One glTF skin, as seen from one mesh
// node world transform, becomes a marrow Skin:
//   - joints reordered breadth-first so parents precede children, with old->new (source joint
//     ordinal -> palette index) kept for rewriting JOINTS_0;
//   - bind pose = each joint node's local transform, inverse binds from the file (or identity);
//   - a root joint's prefix P = inverse(W_meshNode) * W_parent, with W_parent the full world
//     transform of the root joint's parent node through the whole node graph (not stopping at
//     skin.skeleton, not limited to the selected scene), so palette = glTF joint matrix.
#include <cstdint>
#include <vector>

#include <glm/mat4x4.hpp>

#include "gltf_scene_graph.hpp"
#include "marrow/core/diagnostic.hpp"
#include "marrow/io/import_options.hpp"
#include "marrow/model/skin.hpp"

namespace marrow::gltf {

struct BuiltSkin {
  marrow::Skin skin;                    // meshes left empty for the caller
  std::vector<int> source_to_palette;   // per skin.joints ordinal
};

// Throws ImportError: InvalidSkin (a joint listed twice; a joint whose parent chain leaves the
// joint set and re-enters it; too few or non-finite inverse bind matrices), PaletteLimit
// (more joints than options.max_palette, when the policy is Refuse).
BuiltSkin build_skin(const GltfAsset& asset, const SceneGraph& graph, std::uint32_t skin_index,
                     const glm::mat4& mesh_node_world, const ImportOptions& options);

}  // namespace marrow::gltf
