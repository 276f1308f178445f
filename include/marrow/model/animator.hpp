#pragma once
// G20: the frame of ONE model instance, in order.
//
//   update():            5. sample the animation's rigid scene-node clip into this instance's
//                           bones (first, because skeletons follow animated ancestors: a root
//                           whose ancestor moves gets the prefix P * inv(W_anc bind) * W_anc(t))
//                        1. advance every skin's player (2. worlds incl. root prefixes and
//                           3. skin matrices are computed inside the player); joints' scene
//                           nodes follow their player
//                        6. evaluate morph weights; blend (and bump the revision) only when
//                           they changed
//   install_palettes():  4. install each skin's palette on its meshes' skinned materials; the
//                           materials are shared by every instance of the model, so call it
//                           immediately before this instance is drawn or skinned
//   draw()/pose_part():  7. visit the parts (drawing never installs palettes, M1)
//
// An Animator is per-instance state: two Animators on one Model hold different poses. It keeps
// references into the Model, which must outlive it and stay put. update() allocates nothing.
// One thread owns an Animator.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "marrow/runtime/animation_player.hpp"
#include "marrow/runtime/track_sampler.hpp"
#include "marrow/model/draw_item.hpp"
#include "marrow/model/model.hpp"

namespace marrow {

class Animator {
 public:
  // Validates the model (std::invalid_argument) and starts in the loaded pose: bind pose,
  // initial morph weights, no animation.
  explicit Animator(const Model& model);

  const Model& model() const noexcept { return model_; }

  // Selects model.animations[index] (skeletal clips of that name on every skin that has one,
  // its rigid clip and its morph-weight channels) and rewinds to 0; -1 returns to the loaded
  // pose. Throws std::out_of_range for any other index.
  void play(int index);
  // By name; throws std::out_of_range naming it when the model has no such animation.
  void play(std::string_view name);
  int current_animation() const noexcept { return animation_; }

  // Steps 1, 5, 6. relative adds time to the position, otherwise seeks; a positive duration
  // loops (floor-modulo) or clamps, exactly as AnimationPlayer::update.
  void update(Ticks time, bool relative_to_current_time = true, bool loop = true);
  Ticks current_time() const noexcept { return time_; }

  // Step 4. Returns how many materials received a palette.
  int install_palettes() const;

  // Per-instance results.
  const AnimationPlayer& player(std::size_t skin) const { return players_.at(skin); }
  // Scene-node transforms of this instance: joints follow their skin's player, other nodes the
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
    std::vector<RootJoint> roots;
    std::vector<glm::mat4> prefixes;   // this instance's prefixes while ancestors move
    bool follows_ancestors = false;
  };

  void evaluate_morphs(bool force);
  glm::mat4 ancestor_world(int bone) const;  // from this instance's current locals

  const Model& model_;
  int animation_ = -1;
  Ticks time_{};
  std::vector<AnimationPlayer> players_;
  std::vector<glm::mat4> locals_;
  std::vector<glm::mat4> worlds_;
  std::vector<glm::mat4> bind_worlds_;
  std::vector<TrackCursor> rigid_cursors_;
  std::vector<MeshState> meshes_;
  std::vector<SkinState> skins_;
  std::vector<glm::mat4> palette_scratch_;
};

}  // namespace marrow
