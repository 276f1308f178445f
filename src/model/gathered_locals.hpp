#pragma once
// Private to the Animator and its SkinPose: the local matrices of a gathered pose
// (LocalToModelJob's local_sources form), as that job reads them. The Animator keeps no local
// matrix per node; a caller that asks for them (bone_transforms()) has them made here.
#include <cstdint>
#include <span>

#include <glm/mat4x4.hpp>

#include "marrow/runtime/local_pose.hpp"

namespace marrow::detail {

// out[k] = the local of node nodes[k] (of node k when nodes is empty): matrices[node] for
// kLocalMatrix, else the T/R/S lane its source names, made into a matrix by the same kernel as
// pose_to_matrices (the bits the compose used). Sources were checked by their maker.
void gather_locals(std::span<const std::uint32_t> sources, std::span<const TrsBlock* const> blocks,
                   std::span<const glm::mat4> matrices, std::span<const int> nodes, std::span<glm::mat4> out);

}  // namespace marrow::detail
