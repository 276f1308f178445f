#pragma once
// The flags `marrow pose` and `marrow render` share for poses past one clip (DESIGN.md's CLI
// contract): --layer CLIP@SECONDS=WEIGHT[/NODE] (repeated), --additive CLIP@SECONDS=WEIGHT[/NODE]
// (repeated), --two-bone-ik START,MID,END=X,Y,Z[,PX,PY,PZ] (repeated), --root-motion (the root
// joint's horizontal motion taken out; its yaw measured), --root-motion-yaw (the yaw taken out
// too), --root-joint NODE (default: the first skin's root joint) and --root-up X,Y,Z (default
// 0,1,0), checked against the model and applied to an Animator.
#include <optional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "commands.hpp"
#include "marrow/model/animator.hpp"

namespace marrow::cli {

struct LayerFlag {
  std::string text;       // as given, for messages
  int clip = -1;
  double seconds = 0.0;
  float weight = 1.f;
  std::string mask;       // node name, or empty
};

struct IkFlag {
  std::string start, mid, end;
  glm::vec3 target{0.f};
  std::optional<glm::vec3> pole;
};

struct PoseFlags {
  std::vector<LayerFlag> layers, additive;
  std::vector<IkFlag> two_bone_ik;
  bool root_motion = false;
  bool root_motion_yaw = false;
  std::string root_joint;  // empty: the default
  glm::vec3 root_up{0.f, 1.f, 0.f};  // --root-up X,Y,Z: the scene's up axis (0,0,1 for a Z-up file)

  bool blends() const noexcept { return !layers.empty() || !additive.empty(); }
};

// Takes the flags out of args (UsageError for a malformed one). Clips are resolved later.
PoseFlags take_pose_flags(Args& args);

// Resolves clip names against the model and checks weights (UsageError: unknown clip, negative
// or non-finite weight, every --layer weight zero).
void resolve_pose_flags(PoseFlags& flags, const Model& model);

// Sets the animator up and poses it: the layers at their own times (clamped to their clips, no
// looping) or, without layers, `clip` at `seconds` (-1: the loaded pose), then the additive
// layers, IK chains and root motion (accumulated from 0 to the time). UsageError for an
// unknown node or a chain that is not parent -> child -> grandchild.
void pose_animator(Animator& animator, const PoseFlags& flags, int clip, double seconds);

}  // namespace marrow::cli
