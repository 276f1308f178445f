#pragma once
// G18: converting a model's units (e.g. centimetres to metres) scales every translation-bearing
// quantity and nothing else: bone and bind translations, the translation column of inverse binds
// and root prefixes, clip translation keys, vertex positions, morph position deltas, bounding
// spheres. Rotations, scales, normals, tangents and morph weights are unchanged. (In matrix terms:
// M -> S M S^-1 with S = scale(s), which keeps the linear part and scales the translation.)
// Compressed clips (Skin::compressed_clips) scale their translation ranges, and the authored
// clip of each becomes what the scaled compressed clip plays (decompress_clip).
#include "marrow/model/model.hpp"

namespace marrow {

// Throws std::invalid_argument, leaving the model unchanged, for a scale that is not finite and
// positive or that would take some length beyond the float range.
void apply_unit_scale(Model& model, float scale);

}  // namespace marrow
