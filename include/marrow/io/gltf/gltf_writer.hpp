#pragma once
// Model -> glTF 2.0. Bones become nodes (the synthetic root bone 0 is dropped when it is the
// identity), meshes keep their parts as primitives with the zero-weight base vertices and the
// morph targets, skins list their joints in palette order (so JOINTS_0 are palette indices), and
// each animation writes its skeletal and rigid tracks as LINEAR channels (the keys are already
// resampled) and its morph weight tracks with their own interpolation (STEP, LINEAR or
// CUBICSPLINE with tangents). Vertex and index bufferViews carry their target; skin.skeleton is
// the joints' deepest common root (absent when they have none). Texture coordinates are not
// written: marrow keeps no textures, so nothing in the file could use them.
#include <filesystem>

#include "marrow/io/gltf/detail/gltf_document.hpp"
#include "marrow/model/model.hpp"

namespace marrow {

// Throws std::invalid_argument when the model cannot be expressed in glTF (a joint outside the
// scene, an invalid model).
gltf::GltfAsset model_to_gltf(const Model& model);

struct GltfWriteOptions {
  bool meshopt = false;  // EXT_meshopt_compression for the bulk data (gltf_meshopt_compress.hpp)
};

// Writes .glb (binary) or .gltf (JSON with base64 data: URIs) by the path's extension.
// Throws std::invalid_argument for another extension, std::runtime_error when writing fails.
void write_gltf(const Model& model, const std::filesystem::path& path, const GltfWriteOptions& options = {});

}  // namespace marrow
