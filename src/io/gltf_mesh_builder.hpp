#pragma once
// Private to the glTF importer: one glTF primitive becomes one ModelMeshPart with interleaved
// vertices in marrow's fixed formats (float positions/normals/tangents/UVs/colours, uint16
// palette joints, float weights), morph targets, and flat normals where none were authored.
#include <cstdint>
#include <memory>
#include <vector>

#include "marrow/core/diagnostic.hpp"
#include "marrow/io/gltf_document.hpp"
#include "marrow/io/import_options.hpp"
#include "marrow/model/model.hpp"

namespace marrow::gltf {

struct PartSkinning {
  const std::vector<int>* source_to_palette = nullptr;  // JOINTS_0 value -> palette index
  std::uint32_t skin = 0;                               // the file's skin, for messages
};

struct PartRequest {
  std::uint32_t mesh = 0;
  std::uint32_t primitive = 0;
  const PartSkinning* skinning = nullptr;    // null: unskinned (JOINTS_0/WEIGHTS_0 ignored)
  const std::vector<float>* weights = nullptr;  // initial morph weights (applied to vertex_bytes)
};

// Throws ImportError: InvalidMesh (no POSITION, attribute counts that differ, wrong attribute
// type, index >= vertex count, unknown mode, JOINTS_0 value beyond the skin's joints),
// accessor errors from the reader. Irregularities it repairs are added to diagnostics
// (skin weights renormalised, tangents or normal deltas ignored without normals).
ModelMeshPart build_part(const GltfAsset& asset, const PartRequest& request, ImportBudget& budget,
                         std::vector<Diagnostic>& diagnostics);

// Number of morph targets of a mesh (its first primitive's; glTF requires all to agree).
std::size_t morph_target_count(const Document& document, std::uint32_t mesh) noexcept;

}  // namespace marrow::gltf
