#pragma once
// Private to the glTF importer: one glTF primitive becomes one ModelMeshPart with interleaved
// vertices in marrow's fixed formats (float positions/normals/tangents/UVs/colours, uint16
// palette joints, float weights), morph targets, and flat normals where none were authored.
#include <cstdint>
#include <memory>
#include <vector>

#include "marrow/core/diagnostic.hpp"
#include "marrow/io/gltf/detail/gltf_document.hpp"
#include "marrow/io/import_options.hpp"
#include "marrow/model/model.hpp"

namespace marrow::gltf {

struct PartSkinning {
  const std::vector<int>* source_to_palette = nullptr;  // JOINTS_n value -> palette index
  std::uint32_t skin = 0;                               // the file's skin, for messages
  std::uint32_t max_influences = 0;                     // ImportOptions::max_influences (0: all)
};

struct PartRequest {
  std::uint32_t mesh = 0;
  std::uint32_t primitive = 0;
  const PartSkinning* skinning = nullptr;    // null: unskinned (JOINTS_0/WEIGHTS_0 ignored)
  const std::vector<float>* weights = nullptr;  // initial morph weights (applied to vertex_bytes)
};

// Every JOINTS_n/WEIGHTS_n set of a skinned primitive is read (S1): the part's layout holds 4
// influences per set (fewer with max_influences). Throws ImportError: InvalidMesh (no POSITION,
// attribute counts that differ, wrong attribute type, index >= vertex count, unknown mode; a
// skinned primitive without JOINTS_0 or WEIGHTS_0, JOINTS/WEIGHTS sets not numbered 0..n-1 or
// of different numbers, a JOINTS_n value beyond the skin's joints, a non-finite WEIGHTS_n value),
// LimitExceeded (more than kMaxInfluences influences per vertex), accessor errors from the
// reader. Irregularities it repairs are added to diagnostics (negative weights set to 0, skin
// weights renormalised, all-zero weights bound to the first joint, influences reduced to
// max_influences, tangents or normal deltas ignored without normals).
ModelMeshPart build_part(const GltfAsset& asset, const PartRequest& request, ImportBudget& budget,
                         std::vector<Diagnostic>& diagnostics);

// Number of morph targets of a mesh (its first primitive's; glTF requires all to agree).
std::size_t morph_target_count(const Document& document, std::uint32_t mesh) noexcept;

}  // namespace marrow::gltf
