#pragma once
// Live retargeting: an Animator plays another model's clip on its own model through a
// RetargetMap, every frame, with nothing baked (RT1-RT7, retarget_map.hpp). Each frame the
// source clip is sampled at the action's time (its skeletal parts per source skin and its rigid
// part, as an Animator of the source would), the RetargetJob turns it into the target's pose,
// and the driven target joints take it; the pose then blends, layers, takes IK and root motion
// like any clip's, and the source clip's markers are the animation's events.
//
//   auto source = std::make_shared<const Model>(load_model_file("jumping.bvh"));
//   auto map = std::make_shared<const RetargetMap>(*source, target);
//   const Model live = retarget_live(source, target, map);    // target + "jumping", live
//   Animator a(live);
//   a.play("jumping");                                          // sampled from the BVH each frame
//
// A live animation is a ModelAnimation whose `live` is set: it holds the source clip's name,
// duration and markers and no keys. The writers refuse it (bake with retarget_clips to write).
// Compared with baking, it keeps one copy of the source's keys for every rig that plays them,
// and costs the source's sampling plus the job per frame.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "marrow/core/ticks.hpp"
#include "marrow/model/retarget_clips.hpp"
#include "marrow/runtime/local_pose.hpp"
#include "marrow/runtime/retarget_job.hpp"
#include "marrow/runtime/sampling_job.hpp"

namespace marrow {

struct CompiledAnimations;

// What every instance playing one live animation shares (immutable).
struct LiveRetarget {
  std::shared_ptr<const Model> source;
  std::shared_ptr<const CompiledAnimations> source_animations;
  std::shared_ptr<const RetargetMap> map;
  int source_animation = -1;
  bool feet_ik = false;
  // Where each source joint of the map's rig reads its local pose: entry `index` of source skin
  // `skin`'s sampled pose (a joint of a skin that has the clip), else scene node `index` of the
  // rigid clip's pose (which holds the rest where the clip has no track).
  struct Read {
    int skin = -1;
    std::size_t index = 0;
  };
  std::vector<Read> reads;
  std::vector<std::size_t> driven;                                    // target joints of the map's rig the clip keys
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> skin_writes;  // per target skin: (driven[k], palette)
  std::vector<std::pair<std::size_t, std::size_t>> scene_writes;     // (driven[k], scene node): joints of no skin
  std::vector<std::vector<std::uint8_t>> skin_joint_driven;          // per target skin, per palette entry
  std::vector<std::uint8_t> scene_node_driven;                       // per target scene node
  std::vector<int> target_parents;                                    // per target scene node (contacts)
};

// The target with each asked source clip added as a live animation, named prefix + source
// name. Throws std::invalid_argument as retarget_clips does (a clip the source lacks, a name the
// target has), or when the map was not made for these two models' node counts.
Model retarget_live(std::shared_ptr<const Model> source, const Model& target, std::shared_ptr<const RetargetMap> map,
                    const RetargetClipsOptions& options = {});

// Whether a live binding was made for this model (its skins' joints, its nodes): validate(Model).
bool live_retarget_fits(const LiveRetarget& live, const Model& model) noexcept;

// The writers' check: throws std::invalid_argument, `who` first, naming the first live
// animation ("bake it with retarget_clips to write it").
void require_no_live_animations(const Model& model, std::string_view who);

// One instance's scratch for one live animation (an Animator's action owns one while it plays).
class LiveRetargetSampler {
 public:
  explicit LiveRetargetSampler(const LiveRetarget& live);  // allocates

  // The target's poses at source time t: each driven joint of skin_poses[s] (palette order,
  // one per target skin) and of scene_pose (per scene node) set, the others left as they are
  // (callers fill them with the rest first). No allocation, no throw.
  void sample(Ticks t, std::span<std::vector<TrsBlock>> skin_poses, std::span<TrsBlock> scene_pose) noexcept;

 private:
  const LiveRetarget* live_;
  std::vector<SamplingContext> skin_contexts_;
  std::vector<std::vector<TrsBlock>> skin_poses_;  // per source skin
  SamplingContext scene_context_;
  std::vector<TrsBlock> scene_pose_;               // per source scene node
  std::vector<TrsBlock> source_, target_;          // the job's poses
  RetargetContext context_;
  std::vector<glm::mat4> node_locals_, node_worlds_;  // contacts
};

}  // namespace marrow
