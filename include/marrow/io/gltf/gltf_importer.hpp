#pragma once
// glTF 2.0 -> Model, with the seed's semantics (DESIGN.md G1-G11, G16, G17, M2, M3, M5):
//   - the selected scene flattens into bones under a synthetic root bone 0, scene-node index ==
//     bone index (G1); every node keeps its bone, mesh nodes included;
//   - each skin's joints are reordered breadth-first, JOINTS_0 rewritten (G2), both index maps
//     kept (G3), root prefixes carry the full ancestry (G4), the palette limit applies (G8);
//   - animations become per-skin JointPalette clips, a SceneNode clip for the other nodes, and
//     morph weight tracks (G9, G10, G16); what is not imported is counted in diagnostics (G11);
//   - initial morph weights are the node's, else the mesh's, applied at load (G17);
//   - each skin's bind palette is installed on exactly its meshes' materials, and two skins never
//     share a material (M2, M3, M5).
// Refused files throw ImportError; accepted ones carry Model::diagnostics.
#include <cstddef>
#include <filesystem>
#include <span>

#include "marrow/io/gltf/detail/gltf_document.hpp"
#include "marrow/io/import_options.hpp"
#include "marrow/model/model.hpp"

namespace marrow {

// A .gltf (with data: URIs or files next to it) or a .glb.
Model import_gltf(const std::filesystem::path& path, const ImportOptions& options = {});

// From bytes (.gltf JSON or .glb). External files are read relative to base_dir when given;
// without it, only data: URIs and the GLB chunk are allowed.
Model import_gltf(std::span<const std::byte> bytes, const ImportOptions& options = {},
                  const std::filesystem::path* base_dir = nullptr);

// From a parsed document with its buffers.
Model import_gltf(const gltf::GltfAsset& asset, const ImportOptions& options = {});

// Reads and validates a file into a document with its buffers, without building a Model.
gltf::GltfAsset load_gltf_asset(std::span<const std::byte> bytes, const ImportOptions& options,
                                const std::filesystem::path* base_dir, std::vector<Diagnostic>& diagnostics);

}  // namespace marrow
