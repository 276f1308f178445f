#pragma once
// Private to the glTF importer: KHR_draco_mesh_compression primitives decoded into plain
// accessors before the mesh builder reads them.
#include "marrow/io/gltf/detail/gltf_document.hpp"
#include "marrow/io/import_options.hpp"

namespace marrow::gltf {

// Decodes every primitive with KHR_draco_mesh_compression through Debian's libdraco and gives it
// new accessors (same count, type and componentType as the ones it declared) over a new buffer,
// so the mesh builder reads them like any other. Before decoding, the declared accessors are
// checked (TRIANGLES with indices, no sparse data, every Draco attribute one of the primitive's)
// and their decoded bytes, twice over for Draco's own copy, charged to the budget. Throws
// ImportError: InvalidCompression (a stream Draco refuses, a mesh whose point, face or component
// counts differ from the accessors', an index or value the accessor's type cannot hold, a
// missing attribute id), InvalidDocument, LimitExceeded.
void decode_draco_primitives(GltfAsset& asset, ImportBudget& budget);

}  // namespace marrow::gltf
