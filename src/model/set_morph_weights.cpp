#include "marrow/model/set_morph_weights.hpp"

#include <stdexcept>

#include "marrow/runtime/blend_morph_targets.hpp"

namespace marrow {

void set_morph_weights(ModelMeshPart& part, std::span<const float> weights) {
  if (!part.morph) throw std::logic_error("set_morph_weights: the part has no morph targets");
  MorphTargetData& morph = *part.morph;
  if (part.vertex_bytes.size() != morph.base_vertex_bytes.size()) part.vertex_bytes.resize(morph.base_vertex_bytes.size());
  part.layout = morph.layout;
  blend_morph_targets(morph, weights, part.vertex_bytes);
  morph.weights.assign(weights.begin(), weights.end());
  ++part.revision;
}

}  // namespace marrow
