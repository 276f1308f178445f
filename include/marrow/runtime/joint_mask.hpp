#pragma once
// Layer masks (B2): per-joint weights that limit a blending layer to part of a skeleton,
// e.g. a wave on the upper body only. A mask is a plain vector of one weight per joint; edit
// its entries for softer borders (0.5 on the spine's first joint, say).
#include <span>
#include <vector>

namespace marrow {

// `inside` for `root` and every joint below it, `outside` for the others. parents as in
// LocalToModelJob (each parent below its joint, negative for a root). Throws
// std::out_of_range for a root outside the skeleton, std::invalid_argument for a negative or
// non-finite weight or a parent at or after its joint.
std::vector<float> subtree_mask(std::span<const int> parents, int root, float inside = 1.f, float outside = 0.f);

}  // namespace marrow
