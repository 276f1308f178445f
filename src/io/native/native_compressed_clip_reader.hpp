#pragma once
// The native reader's CCLP section (docs/native-format.md, version 2): every skin's compressed
// clips, each also rebuilt as the skin's authored clip of its key. Private to src/io/native.
#include "marrow/model/model.hpp"
#include "native_section_reader.hpp"

namespace marrow::native {

// Reads CCLP into every Skin::compressed_clips and Skin::data.animation_clips (SKIN read).
void read_compressed_clips(SectionReader& r, Model& model);

}  // namespace marrow::native
