// The Animator's morph weights (step 6 of its frame, animator.hpp): blended like joints, and the
// targets blended into this instance's vertices only when the weights changed.
#include <algorithm>

#include "marrow/model/animator.hpp"
#include "marrow/runtime/morph_blend_job.hpp"
#include "marrow/runtime/morph_weight_track.hpp"

namespace marrow {

namespace {

const float kThreshold = BlendingJob{}.threshold;  // the joints' fill threshold (B2): morphs blend alike

}  // namespace

void Animator::evaluate_morphs(bool force) {
  for (std::size_t m = 0; m < meshes_.size(); ++m) {
    MeshState& state = meshes_[m];
    if (state.weights.empty()) continue;
    const ModelMesh& mesh = model_.meshes[m];
    const std::vector<float>& initial = mesh.morph_weights;
    // Like joints (B2, B3): normal clips by weighted mean with the initial weights as the
    // rest; additive clips add their deltas. One clip at full weight: its weights exactly.
    std::size_t normal = 0;
    bool additive = false;
    const std::vector<float>* single = nullptr;
    for (const Layer& layer : layers_) {
      for (const Action* a : layer.actions) {
        const float w = action_weight(layer, *a);
        if (w <= 0.f) continue;
        if (layer.additive) {
          additive |= a->morph_driven[m] != 0;
          continue;
        }
        ++normal;
        single = w == 1.f ? (a->morph_driven[m] != 0 ? &a->morph_weights[m] : &initial) : nullptr;
      }
    }
    std::vector<float>& out = state.scratch;
    if (normal == 0 && !additive) {
      std::copy(initial.begin(), initial.end(), out.begin());
    } else if (normal == 1 && single != nullptr && !additive) {
      std::copy(single->begin(), single->end(), out.begin());
    } else {
      std::fill(out.begin(), out.end(), 0.f);
      float total = 0.f;
      for (const Layer& layer : layers_) {
        if (layer.additive) continue;
        for (const Action* a : layer.actions) {
          const float w = action_weight(layer, *a);
          if (w <= 0.f) continue;
          const std::vector<float>& v = a->morph_driven[m] != 0 ? a->morph_weights[m] : initial;
          for (std::size_t i = 0; i < out.size(); ++i) out[i] += w * v[i];
          total += w;
        }
      }
      if (total < kThreshold) {
        for (std::size_t i = 0; i < out.size(); ++i) out[i] += (kThreshold - total) * initial[i];
        total = kThreshold;
      }
      for (float& x : out) x /= total;
      for (const Layer& layer : layers_) {
        if (!layer.additive) continue;
        for (const Action* a : layer.actions) {
          const float w = action_weight(layer, *a);
          if (w <= 0.f || a->morph_driven[m] == 0) continue;
          for (std::size_t i = 0; i < out.size(); ++i) out[i] += w * a->morph_weights[m][i];
        }
      }
    }
    if (!force && out == state.weights) continue;  // only when changed
    state.weights.swap(out);
    for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
      const ModelMeshPart& part = mesh.parts[p];
      if (!part.morph) continue;
      // validate(Model) checked the carrier and sized these: the job runs (it never throws).
      MorphBlendJob{.morph = &*part.morph, .weights = state.weights, .output = state.parts[p].bytes}.run();
      ++state.parts[p].revision;
    }
  }
}

}  // namespace marrow
