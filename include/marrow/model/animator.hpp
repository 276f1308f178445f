#pragma once
// One model instance's frame (G20) with layered playback (B2-B7), root motion (R1) and IK
// (K1, K2), as a facade over the runtime jobs (X4).
//
// The frame, in the order it runs (G20 numbers the seven steps of the seed's frame; its step
// numbers are given in brackets):
//   update():            a. advance every playing clip's clock (rate, loop mode, sync groups,
//                           cross-fades), collecting the markers crossed (events())
//                        b. sample every playing clip (SamplingJob): its skeletal part per skin
//                           and its rigid scene-node part
//                        c. [5] blend the rigid scene nodes' layers like joints
//                        d. [1] blend each skin's layers (BlendingJob: normal layers with weights
//                           and masks, then additive ones); take root motion out; the joints'
//                           scene nodes read the result
//                        e. [2] compose the whole scene once (LocalToModelJob, gathered: each node
//                           reads its local from the pose that drives it, or its loaded
//                           transform): skeletons follow animated ancestors as glTF says; then IK
//                           chains, recomposing below them
//                        f. [3] form each skin's palette once (SkinPaletteJob): the glTF joint
//                           matrix inverse(W_meshNode) * W_joint * IBM
//                        g. [6] evaluate morph weights (blended like joints: a weighted mean);
//                           blend the targets (and bump the revision) only when they changed
//   install_palettes():  [4] install each skin's palette on its meshes' skinned materials; the
//                           materials are shared by every instance of the model, so call it
//                           immediately before this instance is drawn or skinned
//   draw()/pose_part():  [7] visit the parts (drawing never installs palettes, M1)
//
// One clip on layer 0 at full weight is exactly the seed's single-clip frame: no blending job
// runs and the pose is bit for bit the sampled one.
//
// Layers (B2, B3): layer 0 is the base; each layer plays one clip at a time (two or more while
// it cross-fades, B4) with its weight and optional mask; normal layers blend in index order
// (B2), then additive layers apply in index order (B3: each clip's delta from its own first
// frame). Rigid scene nodes blend like joints; morph weights by weighted mean.
//
// A skin whose joints are not all in the scene (G4: joints outside the selected scene), or
// whose palette space is not one fixed transform of the scene's, composes its skeleton on its
// own with its root prefixes instead (the seed's player path), with the same results.
//
// An Animator is per-instance state: two Animators on one Model hold different poses. It keeps
// references into the Model, which must outlive it and stay put. It keeps no local matrix per
// node: a frame makes its poses into matrices in a scratch of the thread's, shared by the
// Animators that thread updates (sized once, by the largest model the thread poses), and
// bone_transforms() makes them again when asked. update() allocates nothing but that scratch, once
// per thread (play() and set_layer() may, when more clips play at once than before). One thread
// owns an Animator; many are posed in parallel with update_instances().
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "marrow/model/animation_marker.hpp"
#include "marrow/model/compiled_animations.hpp"
#include "marrow/model/compiled_model.hpp"
#include "marrow/model/draw_item.hpp"
#include "marrow/model/driven_clip.hpp"
#include "marrow/model/frame_bounds.hpp"
#include "marrow/model/ik_chain.hpp"
#include "marrow/model/live_retarget.hpp"
#include "marrow/model/model.hpp"
#include "marrow/model/play_options.hpp"
#include "marrow/model/root_motion.hpp"
#include "marrow/runtime/blending_job.hpp"
#include "marrow/runtime/gpu_palette.hpp"
#include "marrow/runtime/inertialization_job.hpp"
#include "marrow/runtime/local_pose.hpp"
#include "marrow/runtime/playback_clock.hpp"
#include "marrow/runtime/sampling_job.hpp"
#include "marrow/runtime/track_sampler.hpp"

namespace marrow {

// One skin's results in one instance (what an AnimationPlayer of that skin would hold).
class SkinPose {
 public:
  // Local, palette order.
  std::span<const glm::mat4> bone_transforms() const;
  // Palette space.
  std::span<const glm::mat4> world_transforms() const;
  // World * inverse bind.
  std::span<const glm::mat4> skin_transforms() const noexcept { return palette_; }
  Ticks current_time() const noexcept { return time_; }
  const AnimationClip* current_clip() const noexcept { return clip_; }

 private:
  friend class Animator;
  // A skin composed with the scene (CompiledSkin::with_scene) keeps no local matrices: its
  // joints' locals are where the scene's gathered pose reads them (the Animator's sources), and
  // its worlds are the scene's when palette space is scene space. The first call after a frame
  // gathers them (the only allocation, once). Other skins keep their own.
  std::vector<glm::mat4> locals_, worlds_, palette_;  // own locals and worlds: empty when in the scene
  std::span<const int> to_scene_;                     // per joint its node, when the scene keeps them
  std::span<const glm::mat4> scene_worlds_;
  // The scene's gathered pose (the Animator's, re-pointed when its block table grows).
  std::span<const std::uint32_t> scene_sources_;
  std::span<const TrsBlock* const> scene_blocks_;
  std::span<const glm::mat4> scene_matrices_;
  bool worlds_in_scene_ = false;
  std::uint64_t revision_ = 0;  // frames posed
  mutable std::vector<glm::mat4> gathered_locals_, gathered_worlds_;
  mutable std::uint64_t locals_at_ = ~std::uint64_t{0}, worlds_at_ = ~std::uint64_t{0};
  Ticks time_{};
  const AnimationClip* clip_ = nullptr;
};

class Animator {
 public:
  // Starts in the loaded pose: bind pose, initial morph weights, no animation. From a compiled
  // model (compiled_model.hpp) it only sizes its buffers: the way to make many instances. The
  // other two compile the model for this instance first (validate(model), std::invalid_argument),
  // sharing `animations` (compile_animations(model)) when given.
  explicit Animator(std::shared_ptr<const CompiledModel> compiled);
  explicit Animator(const Model& model);
  Animator(const Model& model, std::shared_ptr<const CompiledAnimations> animations);

  const Model& model() const noexcept { return model_; }
  const std::shared_ptr<const CompiledModel>& compiled() const noexcept { return compiled_; }

  // Plays model.animations[index] (skeletal clips of that name on every skin that has one,
  // its rigid clip and its morph-weight channels) on options.layer, from options.start,
  // cross-fading over options.fade from what the layer played (B4); -1
  // plays nothing (the layer fades out; on layer 0 alone: the loaded pose). Without a fade the
  // layer's other clips stop at once. Poses are recomputed at the current time.
  // Throws std::out_of_range for any other index, std::invalid_argument naming the value for
  // a negative fade or a non-finite rate.
  void play(int index, const PlayOptions& options = {});
  // By name; throws std::out_of_range naming it when the model has no such animation.
  void play(std::string_view name, const PlayOptions& options = {});
  // Fades layer out over `fade` (0: at once). No-op for a layer that plays nothing.
  void stop(std::size_t layer = 0, Ticks fade = {});
  // The animation a layer plays (the one fading in during a cross-fade), or -1.
  int current_animation(std::size_t layer = 0) const noexcept;

  // Layer settings (B2, B3); a layer is created on first use. Throws std::invalid_argument for
  // a negative or non-finite weight, std::out_of_range naming a mask node the model lacks.
  void set_layer(std::size_t layer, const LayerOptions& options);
  void set_layer_weight(std::size_t layer, float weight);
  // Per-scene-node weights (one per model bone, each finite and >= 0); empty: no mask.
  void set_layer_mask(std::size_t layer, std::span<const float> node_weights);
  std::size_t layer_count() const noexcept { return layers_.size(); }
  static constexpr std::size_t kMaxLayers = 64;

  // relative adds time (scaled by each clip's rate) to every clip, otherwise seeks every clip
  // to it; each clip follows its loop mode, and loop = false clamps this update as Once would
  // (the seed's AnimationPlayer::update rule for one clip: playback_time).
  void update(Ticks time, bool relative_to_current_time = true, bool loop = true);
  // The clock of the clip a layer plays (the one fading in), 0 when none.
  Ticks current_time(std::size_t layer = 0) const noexcept;
  // Once (B5): the clip a layer plays has reached its end in its play direction.
  bool finished(std::size_t layer = 0) const noexcept;
  // A layer's clip's rate: set_rate changes it in place (the clock keeps its position).
  void set_rate(std::size_t layer, float rate);

  // Driven playback (an animation graph, graph_instance.hpp): the caller runs each clip's clock
  // and weight; layer i plays exactly clips[i] (its sampling state kept while the animation
  // stays the same), layers past clips.size() are dropped, and the frame is posed as update()
  // poses it: events of the clips with weight > 0 along their steps (B7, AG7), root motion
  // along them (R1), then the steps of the frame. dt (>= 0) advances an inertialization.
  // Allocates only when a layer starts a new animation or more clips come than before. Throws
  // std::invalid_argument naming the clip for an animation out of range, a negative or
  // non-finite weight, a mask of another size than the model's nodes or with such a value,
  // more than kMaxDrivenClips clips.
  void drive(std::span<const DrivenClip> clips, Ticks dt);
  static constexpr std::size_t kMaxDrivenClips = 1024;

  // Inertialization (AG4, runtime/inertialization_job.hpp): the next pose this Animator makes
  // (play(), update() or drive()) is the new one, shown at once; the difference between the
  // last pose shown and it, per joint with its velocity, decays to zero over `duration`, counted
  // by the updates' dt. The pose inertialized is each skin's blended local pose after root motion
  // is taken out, and the rigid nodes' (morph weights switch at once). The velocity comes from
  // the last two poses shown: enable_inertialization() keeps them (two poses per skin; it
  // allocates), and inertialize() enables it, so call it ahead for the first switch to carry
  // the velocity too. A switch during a switch starts from the pose shown. duration <= 0 stops
  // an inertialization in progress. PlayOptions::transition = Inertialize does this from play().
  void enable_inertialization();
  void inertialize(Ticks duration);
  bool inertializing() const noexcept;

  // The markers the last update crossed (B7), in order: layer by layer, each clip's in the order
  // its clock crossed them. Valid until the next update. At most kMaxEvents are kept;
  // events_dropped() counts the rest.
  static constexpr std::size_t kMaxEvents = 256;
  std::span<const AnimationEvent> events() const noexcept { return events_; }
  std::size_t events_dropped() const noexcept { return events_dropped_; }

  // Root motion (R1). enable_root_motion takes the joint's horizontal motion (and its yaw, when
  // asked) out of the pose from then on; root_motion() is the last update's delta in scene
  // space, for the game to move the character by. Throws std::out_of_range for an unknown
  // joint name, std::invalid_argument when the model has no skin to take a default from or
  // the up axis is zero or not finite.
  void enable_root_motion(const RootMotionOptions& options = {});
  void disable_root_motion();
  const RootMotion& root_motion() const noexcept { return root_.delta; }
  // The sum of root_motion() since root motion was enabled (or play() on layer 0).
  const RootMotion& accumulated_root_motion() const noexcept { return root_.total; }
  // The motion taken out of the current pose: the playing clips' motion since their time 0,
  // blended like the pose (a clip played from 0 to t: the accumulated motion from 0 to t).
  RootMotion root_motion_offset() const noexcept { return root_.enabled ? root_.offset : RootMotion{}; }
  // The scene node whose motion is extracted, -1 when root motion is off.
  int root_motion_node() const noexcept { return root_.enabled ? root_.node : -1; }

  // IK (K1, K2), run by update() after the pose is composed, two-bone chains then aim chains,
  // each in the order added; a chain starts at weight 0 (off). Targets and poles are in model
  // (scene) space. add_* throw std::out_of_range for an unknown node name, and
  // std::invalid_argument for a chain that is not parent -> child -> grandchild or aim axes
  // that are not unit length or are parallel; set_* throw std::out_of_range for an unknown
  // chain and std::invalid_argument naming a non-finite target or pole, a weight outside
  // [0, 1] or a soften outside (0, 1].
  std::size_t add_two_bone_ik(std::string_view start, std::string_view mid, std::string_view end);
  void set_two_bone_ik(std::size_t chain, const glm::vec3& target, float weight = 1.f,
                       const std::optional<glm::vec3>& pole = std::nullopt, float soften = 1.f);
  const TwoBoneIkChain& two_bone_ik(std::size_t chain) const;  // std::out_of_range naming the chain
  std::size_t add_aim_ik(std::string_view node, const glm::vec3& forward = {0.f, 0.f, 1.f},
                         const glm::vec3& up = {0.f, 1.f, 0.f}, const glm::vec3& offset = glm::vec3(0.f));
  void set_aim_ik(std::size_t chain, const glm::vec3& target, float weight = 1.f,
                  const glm::vec3& pole = {0.f, 1.f, 0.f});
  const AimIkChain& aim_ik(std::size_t chain) const;

  // Step 4. Returns how many materials received a palette. A split part's material receives its
  // sub-palette (S4).
  int install_palettes() const;
  // S6: skin `skin`'s palette (skin_transforms(): the glTF joint matrices) into caller memory as
  // GPU data (gpu_palette.hpp), from a const instance, writing nothing shared: the route for
  // engines that keep one palette buffer per instance. Returns the floats written. Throws
  // std::out_of_range for an unknown skin and std::invalid_argument (naming both sizes) when
  // out is too small.
  std::size_t write_palette(std::size_t skin, PaletteFormat format, std::span<float> out) const;
  // S4, S6: the palette part `part` of mesh `mesh` draws with: its skin's whole palette, or for
  // a split part (ModelMeshPart::palette_joints) the sub-palette its JOINTS index. Returns the
  // floats written. Throws std::out_of_range for an unknown mesh or part, std::invalid_argument
  // for a part that is not skinned or when out is too small (naming both sizes).
  std::size_t write_part_palette(std::size_t mesh, std::size_t part, PaletteFormat format, std::span<float> out) const;

  // Per-instance results.
  const SkinPose& player(std::size_t skin) const { return skins_.at(skin).pose; }
  // Scene-node transforms of this instance: joints follow their skin's clip, other nodes the
  // rigid clip (M4: indexed by scene node, no inverse bind matrices). The locals are gathered
  // by the first call after a frame (the instance keeps no local matrices of its own).
  std::span<const glm::mat4> bone_transforms() const;                                         // local
  std::span<const glm::mat4> absolute_bone_transforms() const noexcept { return worlds_; }    // model space
  std::span<const float> morph_weights(std::size_t mesh) const { return meshes_.at(mesh).weights; }
  std::span<const std::byte> vertex_bytes(std::size_t mesh, std::size_t part) const;
  std::uint64_t vertex_revision(std::size_t mesh, std::size_t part) const;

  // The matrix a part is drawn with: its node's absolute transform; for a skinned part the
  // mesh node's bind-time transform, so that draw * palette = W_joint * IBM (glTF).
  glm::mat4 part_world(std::size_t mesh) const;

  // Step 7 on the CPU: the part's positions (and normals, when the part has them and normals is
  // not empty) in model space, after morphing and skinning (every influence of the part, S1; by
  // its ModelMeshPart::skinning mode, S3; normals under non-uniform scale through the inverse
  // transpose, S2). Sizes must equal the vertex count. The first call on a model without dual
  // quaternion parts sizes this instance's CPU palette (an instance never skinned on the CPU
  // keeps none); later calls allocate nothing.
  void pose_part(std::size_t mesh, std::size_t part, std::span<glm::vec3> positions, std::span<glm::vec3> normals = {});

  // S5: the box around every posed vertex of this frame (every part of every mesh, as
  // pose_part would output it), in O(joints + meshes) with no vertex pass: each skin's
  // per-joint boxes (Skin::joint_bounds, made at load) moved by its joints this frame
  // (SkinnedBoundsJob, whose header gives the containment argument), then by the part's draw
  // matrix; a rigid mesh's local box (ModelMesh::local_bounds) moved by its bone. Morph targets
  // are covered over the weight range frame_bounds.hpp describes. Parts skinned with dual
  // quaternions (S3) are not convex blends: their vertices are posed (O(vertices)), which is
  // why this is not const. Empty when the model has no vertices. Allocates nothing (unless a
  // part switched to dual quaternions after construction).
  BoundingBox bounds();

  // Visits every part with this instance's vertex bytes and transforms.
  void draw(const DrawCallback& callback) const;

  // Bytes this instance holds: its own state, not the compiled model it shares.
  std::size_t size_in_bytes() const noexcept;

 private:
  friend class GraphInstance;  // drives with clips it checked when the graph was made (pose_driven)

  struct PartState {
    std::vector<std::byte> bytes;  // morphed vertices; empty when the part has no targets
    std::uint64_t revision = 0;
  };
  struct MeshState {
    std::vector<float> weights;
    std::vector<float> scratch;
    std::vector<PartState> parts;
  };

  struct SkinState {
    const CompiledSkin* shared = nullptr;  // the model's, compiled once
    SkinPose pose;
    std::vector<TrsBlock> blended;      // this frame's pose when layers blend
    std::uint32_t lane = 0;             // its pose's first lane in blocks_
    bool read = false;                  // a node reads its lanes (sources_)
    // Composed on its own (shared->with_scene false): the palette entries no playing clip
    // drives (they keep their bind matrix), and prefixes following moving ancestors.
    std::vector<std::uint32_t> still;
    std::vector<glm::mat4> prefixes;
    bool follows_ancestors = false;
  };

  // One clip playing on one layer: its clock, fade weight and what it sampled this frame.
  // What a frame reads of an action (its animation, weight, clock, live, poses and contexts)
  // lies in its first two lines, of a layer its weight and actions in its first: the frame's
  // sampling pushes them out of L1 before the next frame reads them again.
  struct alignas(64) Action {
    int animation = -1;
    float weight = 0.f;       // its part of the layer now (cross-fades)
    float fade_from = 0.f;    // its weight when its fade-out began
    int sync_group = -1;
    bool fading_out = false;
    PlaybackClock clock;
    const RootMotionTrack* root = nullptr;             // of the root-motion joint (root_tracks_ or live_root)
    alignas(64) std::vector<std::vector<TrsBlock>> skin_poses;  // per skin, palette order
    std::vector<SamplingContext> skin_contexts;       // per skin
    std::unique_ptr<LiveRetargetSampler> live;         // a live retargeted animation's scratch
    ClockStep step;           // the last update's path
    std::vector<std::uint8_t> morph_driven;           // per mesh: the animation has its channel
    std::vector<std::vector<float>> morph_weights;    // per mesh (deltas on an additive layer)
    SamplingContext scene_context;
    std::vector<TrsBlock> scene_pose;                 // per scene node
    RootMotionTrack live_root;                         // a live retargeted animation's own
    RootMotionMemo root_memo;                          // root's places sampled last (move_root writes it)
    std::vector<Keyframe> live_root_keys;              // its root-motion joint's keys (root's view)
  };
  struct alignas(64) Layer {
    std::vector<Action*> actions;                     // fading out first, the current one last
    float weight = 1.f;
    bool additive = false;
    std::vector<float> node_mask;                     // per scene node; empty: none
    std::vector<std::vector<float>> skin_masks;       // per skin, palette order (from node_mask)
    double fade_elapsed = 0.0, fade_duration = 0.0;
    FadeCurve curve = FadeCurve::Linear;
  };
  struct SyncGroup {
    int id = -1;
    double phase = 0.0;       // normalized time, unwrapped
  };
  struct RootMotionState {
    bool enabled = false;
    bool yaw = false;
    int node = -1;            // scene node
    int skin = -1;            // the skin whose pose holds it (-1: a rigid node)
    std::size_t joint = 0;    // its palette entry in that skin
    glm::mat4 parent_world{1.f};
    glm::mat3 parent_inverse{1.f};                    // of parent_world's 3x3, made once
    glm::vec3 up{0.f, 1.f, 0.f};                      // unit
    glm::vec3 local_up{0.f, 1.f, 0.f};                // up in the parent's frame: the yaw's axis in the joint's local
    RootMotion delta, total;
    RootMotion offset;                                // taken out of the current pose (pose_frame)
  };

  Layer& layer_at(std::size_t layer);
  const Action* current_action(std::size_t layer) const noexcept;
  Action* take_action(int animation);
  void release(Action* action);
  void join_sync_group(Action& action);
  void attach_root_motion(Action& action);
  std::span<const Keyframe> live_root_keys(Action& action);
  void refresh_action_sets();  // animated joints and nodes, after the playing clips change
  void ready_blending();
  void advance_clocks(Ticks time, bool relative, bool loop);
  void advance_sync_groups(Ticks time, bool loop);
  void collect_events(std::size_t layer, const Action& action);
  void move_root();  // root motion along the clips' steps (R1)
  // drive() after its checks: clips a caller made valid (a graph's, every frame).
  void pose_driven(std::span<const DrivenClip> clips, Ticks dt);
  void sample_actions();
  void sample_live(Action& action, const CompiledAnimation& compiled, Ticks t);
  // The pose shown (empty: the rest), and `shown` the action's buffer that holds it when it is
  // one clip's sampled pose as it is (else null).
  std::span<TrsBlock> blend_skin(std::size_t skin, std::vector<TrsBlock>*& shown);
  std::span<TrsBlock> blend_scene(std::vector<TrsBlock>*& shown);
  // The layers that show, collected into blend_layers_ and blend_additive_ for one pose (a skin's
  // or the scene's): pose_of(action) is the action's sampled pose of it, null when its clip does
  // not drive it (a normal layer then blends `rest`); mask_of(layer) is the layer's mask of it.
  // Returns the last normal layer's own pose (null: none).
  template <class PoseOf, class MaskOf>
  std::vector<TrsBlock>* collect_layers(std::span<const TrsBlock> rest, const PoseOf& pose_of, const MaskOf& mask_of);
  // blend_layers_ and blend_additive_ (as collect_layers collected them) blended into output;
  // `sampled` is the last normal layer's own pose (null: none), passed as it is, and named in
  // `shown`, when it is the only source at full weight.
  std::span<TrsBlock> blend_collected(std::vector<TrsBlock>* sampled, std::span<const TrsBlock> rest, std::size_t joints,
                                      std::span<TrsBlock> output, std::vector<TrsBlock>*& shown);
  void remove_root_motion(std::span<TrsBlock> pose, std::size_t joint) const;
  RootMotion blended_root_offset() const noexcept;  // the playing clips' motion since their time 0, blended
  template <class F>
  RootMotion blend_root_motion(const F& motion_of) const;
  void refresh_sources(bool inertial);
  void point_blocks(std::uint32_t lane, std::span<const TrsBlock> pose, std::size_t blocks, bool read);
  void point_skin_poses();
  void begin_frame_matrices();
  void reserve_ik_lanes();
  void compose_scene(std::size_t from = 0, std::size_t to = std::numeric_limits<std::size_t>::max());
  void run_ik();
  void solve_two_bone(std::span<const std::size_t> chains);
  void rotate_node(int node, const glm::quat& correction);
  void undo_ik();
  bool joint_driven(std::size_t skin, std::size_t joint) const noexcept;
  void form_palettes();
  void evaluate_morphs(bool force);
  void pose_frame();
  static float action_weight(const Layer& layer, const Action& action) noexcept { return layer.weight * action.weight; }
  // A layer of weight 0 shows none of its actions, which a frame then does not read (a graph's
  // idle slots).
  static bool shows(const Layer& layer) noexcept { return layer.weight > 0.f; }
  int node_named(std::string_view name, const char* what) const;

  // Inertialization's state (allocated by enable_inertialization): per skin, then the scene.
  struct Inertia {
    std::vector<std::vector<TrsBlock>> previous, current, output;  // the last two poses shown
    std::vector<InertializationState> states;
    std::size_t shown = 0;       // poses recorded (0, 1, 2 or more)
    double shown_dt = 0.0;       // seconds between the two
    bool pending = false;        // the next pass sets up
    bool active = false;
    float duration = 0.f, elapsed = 0.f;
  };
  std::span<TrsBlock> inertialize_pose(std::size_t index, std::span<TrsBlock> pose, std::vector<TrsBlock>* sampled,
                                       std::span<const TrsBlock> rest, std::size_t joints);
  void advance_inertia(double seconds);
  void assign_mask(Layer& layer, std::span<const float> node_weights);

  std::shared_ptr<const CompiledModel> compiled_;  // what every instance of the model shares
  const Model& model_;
  const CompiledAnimations* animations_;
  std::span<const int> parents_;            // per scene node
  std::span<const glm::mat4> bind_worlds_;
  std::span<const TrsBlock> scene_rest_;    // the nodes' loaded transforms as T/R/S
  // The scene's locals, gathered (LocalToModelJob's local_sources): per node, a lane of this
  // frame's poses in blocks_ (skins' lanes first, then the rigid nodes', then IK's), or
  // kLocalMatrix for its loaded transform (compiled_->locals, shared). No local matrix is kept:
  // during a frame the poses are made into matrices in a scratch of the thread's
  // (frame_matrices_, a row per lane), which the compose reads.
  std::vector<std::uint32_t> sources_;
  std::vector<const TrsBlock*> blocks_;
  std::span<glm::mat4> frame_matrices_;
  std::uint32_t scene_lane_ = 0, ik_lane_ = 0;
  bool sources_inertial_ = false;           // sources_ take every joint (an offset may show)
  std::vector<TrsBlock> ik_pose_;           // the locals IK rotated this frame, one lane each
  std::size_t ik_used_ = 0;
  std::uint64_t frames_ = 0;                // frames posed
  mutable std::vector<glm::mat4> gathered_locals_;
  mutable std::uint64_t locals_at_ = ~std::uint64_t{0};
  std::vector<glm::mat4> worlds_;
  std::vector<TrsBlock> scene_blended_;
  std::vector<std::uint32_t> scene_animated_;  // scene nodes some playing rigid clip drives
  std::vector<std::uint8_t> moving_;        // per scene node, scratch of refresh_action_sets
  std::vector<MeshState> meshes_;
  std::vector<SkinState> skins_;
  std::vector<glm::mat4> palette_scratch_;
  std::vector<SkinDualQuaternion> dual_quaternion_scratch_;  // pose_part of DQS parts (S3)
  std::vector<glm::mat4> scale_shear_scratch_;
  std::vector<glm::vec3> bounds_scratch_;           // bounds(): the largest DQS part posed
  std::vector<BoundingBox> skin_boxes_;             // bounds(): per skin, palette space
  std::vector<Layer> layers_;
  std::vector<std::unique_ptr<Action>> actions_;  // every action ever made (playing or free)
  std::vector<Action*> free_actions_;
  std::vector<SyncGroup> sync_groups_;
  std::vector<BlendingLayer> blend_layers_, blend_additive_;  // scratch, sized by play()
  std::vector<AnimationEvent> events_;
  std::size_t events_dropped_ = 0;
  std::vector<std::uint32_t> marker_scratch_;
  RootMotionState root_;
  std::vector<TwoBoneIkChain> two_bone_;
  std::vector<AimIkChain> aim_;
  // Per chain, where recomposing after its correction may stop (subtree_end): its first node's
  // subtree when that is one index range, else every node after it.
  std::vector<std::size_t> two_bone_end_, aim_end_;
  std::unique_ptr<Inertia> inertia_;
  // Per animation, its root-motion track, made at its first play after enable_root_motion: a
  // later switch to it allocates nothing.
  std::vector<std::unique_ptr<const RootMotionTrack>> root_tracks_;
  double pass_seconds_ = 0.0;  // the dt of the pass pose_frame makes (0: a jump, play or seek)
  // Nodes IK rotated last frame and their sources before: back to them before the next.
  std::vector<std::pair<int, std::uint32_t>> ik_touched_;
};

}  // namespace marrow
