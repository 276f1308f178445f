#pragma once
// S4 palette split: every part of a mesh whose skin has more joints than a palette may hold
// becomes sub-parts that each draw with at most max_palette of the skin's joints, so a shader
// with a fixed-size bone array can draw any skin. The skin itself keeps every joint.
//
//   - primitives (triangles, lines, points; strips, fans and line strips/loops first become
//     lists) are assigned greedily in file order: the first sub-part whose joints plus the
//     primitive's stay within max_palette takes it, else a new sub-part opens; only joints
//     with a nonzero weight count. Vertices no primitive uses go the same way, one at a time;
//   - a vertex used by primitives of several sub-parts is copied into each (a seam); every
//     other vertex lands in exactly one sub-part, in the part's vertex order;
//   - each sub-part's JOINTS (every influence set, S1) are rewritten to indices into its
//     palette_joints, the sorted skin palette indices it uses; zero-weight slots name entry 0;
//   - every attribute, the morph targets (deltas, flat-normal triangles), material, skinning
//     mode and source primitive are carried along; source_vertices maps back to the file's
//     vertices; each sub-part gets its own SkinnedMaterial of max_palette bones (M2 installs its
//     sub-palette).
// Posed vertices equal the unsplit ones: a vertex is skinned by the same matrices and weights.
#include "marrow/model/model.hpp"

namespace marrow {

// Splits the parts of every mesh whose skin has more than max_palette joints; parts of smaller
// skins are left alone, and so is a model without such skins. Returns how many sub-parts were
// made. Throws ImportError (PaletteLimit) naming the mesh, primitive, triangle (line, point or
// vertex), its joint count and the limit when one primitive alone uses more than max_palette
// joints, and std::invalid_argument when max_palette is not positive; the model is unchanged
// when it throws.
std::size_t split_skin_palettes(Model& model, int max_palette);

}  // namespace marrow
