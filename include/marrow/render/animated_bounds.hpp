#pragma once
// The box a camera is framed on: it holds the posed (morphed + skinned) vertices of the loaded
// pose and of every animation, each sampled at `samples_per_clip` + 1 evenly spaced times from 0
// to its duration. One box for every clip and frame, so pictures of one model share a camera
// and the model does not jump between frames. A model without vertices gets the box of its
// skeleton's joints instead (skeleton_bones.hpp: not the cameras and lights beside it).
//
// Sampling can miss an extreme between two samples; the camera's margin absorbs that, and the
// rasterizer clips whatever still leaves the picture.
#include "marrow/model/bounds.hpp"
#include "marrow/model/model.hpp"

namespace marrow::render {

inline constexpr int kBoundsSamplesPerClip = 32;

// Poses the model with its own Animator (the caller's instances are untouched). Throws
// std::invalid_argument for samples_per_clip < 1 and for a model validate(Model) refuses.
BoundingBox animated_bounds(const Model& model, int samples_per_clip = kBoundsSamplesPerClip);

}  // namespace marrow::render
