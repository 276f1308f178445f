#pragma once
// Private to the Assimp importer: one aiMesh becomes one ModelMeshPart in marrow's fixed vertex
// formats (float positions, normals, tangents with w = handedness from Assimp's bitangent, UV0,
// UV1, colour 0; uint16 palette joints and float weights: every bone weight of the vertex (S1),
// in rows of a multiple of four, largest first, renormalised), and aiMaterials become Materials.
#include <assimp/scene.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "marrow/core/diagnostic.hpp"
#include "marrow/io/import_options.hpp"
#include "marrow/model/model.hpp"

namespace marrow::assimp {

// One Material per aiMaterial (name, base colour: $clr.base, else diffuse with opacity as
// alpha; two-sided), plus a default material at the end for meshes whose index names none.
std::vector<std::shared_ptr<Material>> make_materials(const aiScene& scene);

// bone_to_palette: null for a static part, else the palette index of every aiBone of the mesh.
// The part's bytes are charged to the import's budget. options.max_influences keeps each vertex's largest weights (S1). Throws ImportError:
// InvalidMesh (no positions, a non-finite position, an index beyond the vertices), LimitExceeded
// (max_accessor_elements vertices or indices, max_total_bytes).
ModelMeshPart build_part(const aiMesh& mesh, unsigned mesh_index, const std::vector<int>* bone_to_palette,
                         const ImportOptions& options, ImportBudget& budget, std::vector<Diagnostic>& diagnostics);

}  // namespace marrow::assimp
