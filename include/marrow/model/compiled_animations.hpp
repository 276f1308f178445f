#pragma once
// A model's animations compiled for the runtime jobs (runtime_clip.hpp): made once, immutable,
// shared by every Animator of the model (pass the same pointer to each), so a thousand
// instances hold one copy of the key data.
#include <cstddef>
#include <memory>
#include <vector>

#include "marrow/model/model.hpp"
#include "marrow/runtime/local_pose.hpp"
#include "marrow/runtime/runtime_clip.hpp"

namespace marrow {

// What a frame reads of it (the skin clips' table, live, has_scene_tracks, has_morphs) lies in
// its first 64 bytes: a frame visits a few animations, each after the last frame's sampling has
// pushed them out of L1.
struct alignas(64) CompiledAnimation {
  // Per skin: the skeletal clip of this animation's name (null when the skin has no such clip),
  // and the authored clip it came from.
  std::vector<std::unique_ptr<const RuntimeClip>> skin_clips;
  // A live retargeted animation (ModelAnimation::live): no clips of its own; its Animator actions
  // sample the source through the map. References (additive) are its pose at 0.
  const LiveRetarget* live = nullptr;
  // has_scene_tracks: scene_clip animates a node; has_morphs: the animation has a morph channel
  // (ModelAnimation::morph_channels).
  bool has_scene_tracks = false;
  bool has_morphs = false;
  std::vector<const AnimationClip*> skin_sources;
  // The rigid scene-node clip over every bone (rest: the model's bone transforms).
  RuntimeClip scene_clip;
  // Additive layers (B3) take each part's delta from its first frame: the pose at time 0 per
  // skin (palette order) and of the scene nodes, and each morph channel's weights at 0.
  std::vector<std::vector<TrsBlock>> skin_references;
  std::vector<TrsBlock> scene_reference;
  std::vector<std::vector<float>> morph_references;  // parallel to ModelAnimation::morph_channels
  std::vector<Ticks> marker_times;                    // of ModelAnimation::markers

  // Whether the animation moves skin s (a clip of it, or live joints of it).
  bool drives_skin(std::size_t s) const noexcept { return skin_clips[s] != nullptr || (live != nullptr && live_drives_skin(s)); }
  // Whether it moves palette entry p of skin s.
  bool drives_joint(std::size_t s, std::size_t p) const noexcept;
  // Whether it moves scene node i (a rigid track, or a live node of no skin).
  bool drives_node(std::size_t i) const noexcept;
  // drives_skin's live part (out of line: LiveRetarget is incomplete here).
  bool live_drives_skin(std::size_t s) const noexcept;
};

struct CompiledAnimations {
  std::vector<CompiledAnimation> animations;  // parallel to Model::animations
  std::size_t size_in_bytes() const noexcept;
};

// Compiles every animation of model (std::invalid_argument for a clip validate_clip refuses, or
// a compressed clip not of its skin's joint count). A skin clip with a compressed form
// (Skin::compressed_clips) plays that form, shared, not recompiled.
// The result refers to model's clips (skin_sources): the model must outlive it. Markers are
// copied: add them (add_marker) before compiling.
std::shared_ptr<const CompiledAnimations> compile_animations(const Model& model);

}  // namespace marrow
