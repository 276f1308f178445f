#pragma once
// The seed's route for morph weights on a shared part: blend on the CPU into the part's own
// vertex bytes, store the weights and bump the part's revision (so a renderer re-uploads the
// whole buffer). Per-instance playback uses Animator instead, which leaves the model untouched.
#include <span>

#include "marrow/model/model.hpp"

namespace marrow {

// Throws std::logic_error when the part carries no morph targets, std::runtime_error when the
// weight count differs from the target count (G12).
void set_morph_weights(ModelMeshPart& part, std::span<const float> weights);

}  // namespace marrow
