#pragma once
// The native reader's FBND section (docs/native-format.md): the frame bounds (S5) a load reads
// instead of making them from every vertex. Private to src/io/native.
#include "marrow/model/model.hpp"
#include "native_section_reader.hpp"

namespace marrow::native {

// Reads FBND into every Skin::joint_bounds and ModelMesh::local_bounds (SKIN and MESH read).
void read_frame_bounds(SectionReader& r, Model& model);

}  // namespace marrow::native
