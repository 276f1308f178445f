#pragma once
// Retargeted clips baked onto a target rig (RT1-RT7): every key time of a source clip is posed
// on the source (its skeletal and rigid parts, as an Animator plays them), turned into the
// target's pose by the RetargetJob (retarget_map.hpp, runtime/retarget_job.hpp), and written as
// keys of a new clip of the target. The result is a Model: the target with the new clips, which
// every writer writes and every Animator plays.
//
// The new clip keys the target nodes the map drives (the pairs, the torso chain's bones, the
// hips); a node that is a joint of a skin is keyed in that skin's clip (each skin it belongs
// to), any other in the rigid scene-node clip. Other nodes hold their rest. Its duration and
// markers are the source clip's.
//
// Contacts (RT7, `feet_ik`): after the job, each leg (upperLeg -> lowerLeg -> foot) is bent by
// the two-bone IK job so that the foot reaches
//   P_t_rest(foot) + hips_scale * (P'_s(foot) - P'_s_rest(foot)),
// the source foot's model-space displacement from rest scaled as the hips' is (RT4), when the
// leg reaches it (else as close as it gets); the foot keeps the model rotation the map gave it.
#include <string>
#include <vector>

#include "marrow/model/model.hpp"
#include "marrow/model/retarget_map.hpp"

namespace marrow {

struct RetargetClipsOptions {
  std::vector<std::string> clips{};  // source clip names; empty: every clip of the source
  std::string prefix{};              // put before each new clip's name
  bool feet_ik = false;            // RT7
};

// The target with every asked clip retargeted, named prefix + source name, after its own clips.
// Throws std::invalid_argument naming a clip the source lacks, or a new name the target already
// has (or that two asked clips share).
Model retarget_clips(const Model& source, const Model& target, const RetargetMap& map,
                     const RetargetClipsOptions& options = {});

// One frame's contacts (RT7) on a target pose in the job's target joints (the job's output for
// source_pose): bends the legs so the feet reach their scaled source positions. `parents` are
// the target's scene nodes' parents; `node_locals` and `node_worlds` are scratch of one matrix
// per target scene node. Allocates nothing.
void pin_feet(std::span<const int> parents, const RetargetMap& map, std::span<const TrsBlock> source_pose,
              std::span<TrsBlock> target_pose, std::span<glm::mat4> node_locals, std::span<glm::mat4> node_worlds);

}  // namespace marrow
