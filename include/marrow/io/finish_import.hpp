#pragma once
// Finishing an import: what every reader does once its Model is built, in one order, so the glTF,
// Assimp and BVH importers, the native reader, load_model_file and the asset layer's MeshBuilder
// cannot drift apart:
//   1. G18: ImportOptions::unit_scale (a scale that is not finite and positive is the caller's
//      mistake, std::invalid_argument; one that takes the file's lengths beyond the float range
//      is the file's, ImportError(InvalidDocument));
//   2. ImportOptions::compression compresses the skeletal clips, within a tolerance in the
//      scaled units (compress_model_clips);
//   3. S4: PalettePolicy::Split splits the parts of skins over max_palette (split_skin_palettes);
//   4. M2: each skin's bind palette onto its meshes' skinned materials, after the split so that
//      a split part gets its sub-palette (apply_bind_pose_bone_transforms);
//   5. S5 and G17: the frame bounds and the loaded pose's spheres (compute_import_bounds), last,
//      because the spheres pose the vertices with the palettes of step 4.
// A reader that checks its model (validate) does so before finishing: the steps keep a valid
// model valid, and steps 4 and 5 read joint indices that must be in range.
#include "marrow/io/import_options.hpp"
#include "marrow/model/model.hpp"

namespace marrow {

// What the model being finished already holds.
enum class ImportSource {
  Built,       // an importer's fresh model: every step
  NativeFile,  // read from a native file, finished when it was written: its units and split are
               // the file's (steps 1 and 3 are skipped), its spheres are stored, and the frame
               // bounds are made only when the file has none (a writer before FBND)
};

void finish_import(Model& model, const ImportOptions& options, ImportSource source = ImportSource::Built);

}  // namespace marrow
