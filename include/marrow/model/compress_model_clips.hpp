#pragma once
// A model's skeletal clips compressed (offline/clip_compression.hpp), as the import option
// ImportOptions::compression and `marrow convert --compress` do it.
#include <string>

#include "marrow/model/model.hpp"
#include "marrow/runtime/offline/clip_compression.hpp"

namespace marrow {

// Compresses every clip of every skin: the compressed clip goes to Skin::compressed_clips, and
// the authored clip becomes what it plays (decompress_clip), so the paths that read authored
// keys (AnimationPlayer, pose reports, bounds, the glTF writer) agree with the Animator. Lossy,
// within the tolerance in object space. Clips compressed already are left as they are. A clip
// that cannot be compressed (beyond a compressed clip's size, or a tolerance finer than 18-bit
// keys reach) stays as it was, with a diagnostic `clip-not-compressed` naming it and why.
// Throws std::invalid_argument for options compress_clip refuses (a tolerance that is not
// positive, a negative distance).
void compress_model_clips(Model& model, const ClipCompression& options);

// What a front end that asked for compression tells its user (the command line's warnings,
// Python's UserWarning): the model's clip-not-compressed diagnostic as a line, the first clip's
// message and how many more; empty when every clip was compressed.
std::string uncompressed_clips(const Model& model);

}  // namespace marrow
