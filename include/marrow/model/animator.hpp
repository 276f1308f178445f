#pragma once
// G20: the frame of ONE model instance, in order, as a facade over the runtime jobs (X4).
//
//   update():            5. sample the animation's rigid scene-node clip (SamplingJob) into
//                           this instance's scene-node locals
//                        1. sample each skin's clip (SamplingJob); its joints' scene nodes take
//                           the sampled locals
//                        2. compose the whole scene once (LocalToModelJob): skeletons follow
//                           animated ancestors as glTF says
//                        3. form each skin's palette once (SkinPaletteJob): the glTF joint
//                           matrix inverse(W_meshNode) * W_joint * IBM
//                        6. evaluate morph weights; blend (and bump the revision) only when
//                           they changed
//   install_palettes():  4. install each skin's palette on its meshes' skinned materials; the
//                           materials are shared by every instance of the model, so call it
//                           immediately before this instance is drawn or skinned
//   draw()/pose_part():  7. visit the parts (drawing never installs palettes, M1)
//
// A skin whose joints are not all in the scene (G4: joints outside the selected scene), or
// whose palette space is not one fixed transform of the scene's, composes its skeleton on its
// own with its root prefixes instead (the seed's player path), with the same results.
//
// An Animator is per-instance state: two Animators on one Model hold different poses. It keeps
// references into the Model, which must outlive it and stay put. update() allocates nothing.
// One thread owns an Animator; many are posed in parallel with pose_instances().
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "marrow/model/compiled_animations.hpp"
#include "marrow/model/draw_item.hpp"
#include "marrow/model/model.hpp"
#include "marrow/runtime/local_pose.hpp"
#include "marrow/runtime/sampling_job.hpp"

namespace marrow {

// One skin's results in one instance (what an AnimationPlayer of that skin would hold).
class SkinPose {
 public:
  std::span<const glm::mat4> bone_transforms() const noexcept { return locals_; }   // local, palette order
  std::span<const glm::mat4> world_transforms() const noexcept { return worlds_; }  // palette space
  std::span<const glm::mat4> skin_transforms() const noexcept { return palette_; }  // world * inverse bind
  Ticks current_time() const noexcept { return time_; }
  const AnimationClip* current_clip() const noexcept { return clip_; }

 private:
  friend class Animator;
  std::vector<glm::mat4> locals_, worlds_, palette_;
  Ticks time_{};
  const AnimationClip* clip_ = nullptr;
};

class Animator {
 public:
  // Validates the model (std::invalid_argument) and starts in the loaded pose: bind pose,
  // initial morph weights, no animation. Compiles the model's animations for this instance;
  // pass `animations` (compile_animations(model)) to share one compiled copy between instances.
  explicit Animator(const Model& model);
  Animator(const Model& model, std::shared_ptr<const CompiledAnimations> animations);

  const Model& model() const noexcept { return model_; }

  // Selects model.animations[index] (skeletal clips of that name on every skin that has one,
  // its rigid clip and its morph-weight channels) and rewinds to 0; -1 returns to the loaded
  // pose. Throws std::out_of_range for any other index.
  void play(int index);
  // By name; throws std::out_of_range naming it when the model has no such animation.
  void play(std::string_view name);
  int current_animation() const noexcept { return animation_; }

  // relative adds time to the position, otherwise seeks; a positive duration loops
  // (floor-modulo) or clamps (playback_time), exactly as AnimationPlayer::update.
  void update(Ticks time, bool relative_to_current_time = true, bool loop = true);
  Ticks current_time() const noexcept { return time_; }

  // Step 4. Returns how many materials received a palette.
  int install_palettes() const;

  // Per-instance results.
  const SkinPose& player(std::size_t skin) const { return skins_.at(skin).pose; }
  // Scene-node transforms of this instance: joints follow their skin's clip, other nodes the
  // rigid clip (M4: indexed by scene node, no inverse bind matrices).
  std::span<const glm::mat4> bone_transforms() const noexcept { return locals_; }             // local
  std::span<const glm::mat4> absolute_bone_transforms() const noexcept { return worlds_; }    // model space
  std::span<const float> morph_weights(std::size_t mesh) const { return meshes_.at(mesh).weights; }
  std::span<const std::byte> vertex_bytes(std::size_t mesh, std::size_t part) const;
  std::uint64_t vertex_revision(std::size_t mesh, std::size_t part) const;

  // The matrix a part is drawn with: its node's absolute transform; for a skinned part the
  // mesh node's bind-time transform, so that draw * palette = W_joint * IBM (glTF).
  glm::mat4 part_world(std::size_t mesh) const;

  // Step 7 on the CPU: the part's positions (and normals, when the part has them and normals is
  // not empty) in model space, after morphing and skinning. Sizes must equal the vertex count.
  void pose_part(std::size_t mesh, std::size_t part, std::span<glm::vec3> positions, std::span<glm::vec3> normals = {});

  // Visits every part with this instance's vertex bytes and transforms.
  void draw(const DrawCallback& callback) const;

  // Bytes this instance holds (its own state; the shared compiled animations not counted).
  std::size_t size_in_bytes() const noexcept;

 private:
  struct PartState {
    std::vector<std::byte> bytes;  // morphed vertices; empty when the part has no targets
    std::uint64_t revision = 0;
  };
  struct MeshState {
    std::vector<float> weights;
    std::vector<float> scratch;
    const MorphWeightTrack* track = nullptr;
    std::vector<PartState> parts;
  };

  // A root joint whose parent is a scene node (its prefix carries that ancestry).
  struct RootJoint {
    std::size_t palette;
    int ancestor;                      // the root joint's parent bone
    glm::mat4 inverse_bind_ancestor;   // inverse of that bone's absolute transform at bind
  };
  struct SkinState {
    SkinPose pose;
    SamplingContext context;
    std::vector<TrsBlock> sampled;
    std::vector<std::size_t> animated;  // palette entries the current clip drives
    std::vector<std::size_t> still;     // and the others (they keep their bind matrix)
    const RuntimeClip* clip = nullptr;
    // Composed with the scene: palette space = scene_to_palette * scene space.
    bool with_scene = false;
    glm::mat4 scene_to_palette{1.f};
    // Composed on its own (with_scene false): prefixes following moving ancestors.
    std::vector<RootJoint> roots;
    std::vector<glm::mat4> prefixes;
    bool follows_ancestors = false;
  };

  void evaluate_morphs(bool force);

  const Model& model_;
  std::shared_ptr<const CompiledAnimations> animations_;
  int animation_ = -1;
  Ticks time_{};
  std::vector<int> parents_;          // per scene node
  std::vector<glm::mat4> locals_;
  std::vector<glm::mat4> worlds_;
  std::vector<glm::mat4> bind_worlds_;
  SamplingContext scene_context_;
  std::vector<TrsBlock> scene_pose_;
  std::vector<std::size_t> scene_animated_;  // scene nodes the current rigid clip drives
  std::vector<MeshState> meshes_;
  std::vector<SkinState> skins_;
  std::vector<glm::mat4> palette_scratch_;
};

}  // namespace marrow
