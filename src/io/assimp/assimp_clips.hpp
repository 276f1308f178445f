#pragma once
// Private to the Assimp importer: aiAnimations -> ModelAnimations and per-skin clips.
//   - time in seconds = key time / ticks per second: the override, else mTicksPerSecond, else 25
//     when the file records none (0) (T2); duration = mDuration / ticks per second;
//   - each animated node is keyed at the union of its position, rotation and scaling key times;
//     each channel is interpolated there (lerp, shortest-arc slerp), holding its first/last key
//     outside; a channel with no keys holds the node's rest TRS (G9);
//   - channels on a skin's joints become tracks of that skin's JointPalette clip (in every skin
//     that has the node), the others tracks of the animation's SceneNode clip (G10);
//   - channels naming no node ("channel-target-outside-scene"), repeated channels, mesh and
//     morph channels and invalid keys are counted in diagnostics (G11);
//   - an FBX channel holding a node's whole local transform while the node's $AssimpFbx$ pivot
//     helpers stay at rest (an Assimp 5.2.5 bug that applies them twice) is rebased under the
//     helpers ("fbx-pivot-channel-rebased").
#include <assimp/scene.h>

#include <vector>

#include "assimp_scene.hpp"
#include "marrow/core/diagnostic.hpp"
#include "marrow/io/assimp/assimp_importer.hpp"
#include "marrow/model/model.hpp"

namespace marrow::assimp {

// model.skins must be built (scene_to_palette). Adds model.animations and each skin's clips.
// Throws ImportError (LimitExceeded: more keys than ImportLimits::max_animation_keys).
void extract_animations(const aiScene& scene, const NodeTable& nodes, const AssimpOptions& options, ImportBudget& budget,
                        Model& model, std::vector<Diagnostic>& diagnostics);

// The ticks per second of one animation (the override, the file's, or 25).
double ticks_per_second(const aiAnimation& animation, const AssimpOptions& options) noexcept;

}  // namespace marrow::assimp
