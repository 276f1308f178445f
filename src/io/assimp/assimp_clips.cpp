#include "assimp_clips.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>

#include "../unique_clip_name.hpp"
#include "marrow/core/finite.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/runtime/track_sampler.hpp"

namespace marrow::assimp {

namespace {

constexpr double kDefaultTicksPerSecond = 25.0;  // seed 003: formats that record no rate

// One channel component's keys (translation, rotation or scale; the others unused) in marrow
// time, sorted, so they play through THE track sampler (track_sampler.hpp) like every key list.
using Lane = std::vector<Keyframe>;

// Converts Assimp keys; false when a time or value is not finite (or a rotation has no length).
template <class Key, class Set>
bool read_lane(const Key* keys, unsigned count, double tps, Set set, Lane& lane, bool& sorted) {
  lane.resize(count);
  for (unsigned k = 0; k < count; ++k) {
    const double seconds = keys[k].mTime / tps;
    if (!std::isfinite(seconds) || !set(keys[k].mValue, lane[k])) return false;
    lane[k].time = ticks_from_seconds(seconds);
  }
  const auto earlier = [](const Keyframe& x, const Keyframe& y) { return x.time < y.time; };
  if (!std::is_sorted(lane.begin(), lane.end(), earlier)) {
    sorted = true;
    std::stable_sort(lane.begin(), lane.end(), earlier);
  }
  return true;
}

bool set_translation(const aiVector3D& v, Keyframe& key) {
  key.translation = glm::vec3(v.x, v.y, v.z);
  return is_finite(key.translation);
}

bool set_scale(const aiVector3D& v, Keyframe& key) {
  key.scale = glm::vec3(v.x, v.y, v.z);
  return is_finite(key.scale);
}

// Used as given, like import_gltf (a slightly non-unit key scales its bone at that key, as glTF
// viewers do; slerp between keys returns unit quaternions); a (near) zero one is refused.
bool set_rotation(const aiQuaternion& q, Keyframe& key) {
  key.rotation = glm::quat(q.w, q.x, q.y, q.z);
  return is_finite(key.rotation) && glm::length(key.rotation) > 1e-6f;
}


// Assimp 5.2.5's FBX reader turns a node N with pre/post-rotation into a chain of helper nodes
// "N_$AssimpFbx$_Translation", "..._PreRotation", ... above N, kept at rest; but when it writes
// the simple kind of channel it names N and stores N's WHOLE local transform (translation, pre-
// rotation, rotation, post-rotation, scale) in it, so played as is the helpers apply twice
// (assimp#5759: its complex-chain tests disagree). The chain's product must equal the channel:
// N's keys become inverse(H) * key, H the helpers' rest product. Returns H, or nothing when N has
// no helpers or a helper has its own channel (then Assimp wrote the per-helper kind).
std::optional<glm::mat4> fbx_helper_chain(const NodeTable& nodes, int node, const std::set<int>& animated) {
  const std::string prefix = nodes.names[static_cast<std::size_t>(node)] + "_$AssimpFbx$_";
  glm::mat4 helpers(1.f);
  bool found = false;
  for (int p = nodes.parent[static_cast<std::size_t>(node)];
       p >= 0 && nodes.names[static_cast<std::size_t>(p)].compare(0, prefix.size(), prefix) == 0;
       p = nodes.parent[static_cast<std::size_t>(p)]) {
    if (animated.count(p) != 0) return std::nullopt;
    helpers = nodes.local[static_cast<std::size_t>(p)] * helpers;
    found = true;
  }
  if (!found) return std::nullopt;
  return helpers;
}

}  // namespace

double ticks_per_second(const aiAnimation& animation, const AssimpOptions& options) noexcept {
  if (options.ticks_per_second) return *options.ticks_per_second;
  const double tps = animation.mTicksPerSecond;
  return std::isfinite(tps) && tps > 0.0 ? tps : kDefaultTicksPerSecond;
}

namespace {

// One animation as it is read: the clip of its scene bones, one per skin, and what its channels name.
struct AnimationInProgress {
  std::string here;  // "animation a ('name')", for messages
  double tps = kDefaultTicksPerSecond;
  ModelAnimation out;
  std::vector<AnimationClip> skin_clips;
  double last_key = 0.0;  // seconds
  std::set<int> targeted;  // every node some channel names (fbx_helper_chain)
  std::set<int> animated;  // the nodes channels read so far animate
};

// Mesh and morph-mesh channels are not imported: counted, not silently dropped.
void note_mesh_channels(const aiAnimation& animation, const std::string& here, std::vector<Diagnostic>& diagnostics) {
  if (animation.mNumMeshChannels > 0) {
    add_diagnostic(diagnostics, DiagnosticCode::MeshChannelNotImported,
                   here + ": " + std::to_string(animation.mNumMeshChannels) + " mesh (vertex-animation) channels",
                   static_cast<int>(animation.mNumMeshChannels));
  }
  if (animation.mNumMorphMeshChannels > 0) {
    add_diagnostic(diagnostics, DiagnosticCode::MorphChannelNotImported,
                   here + ": " + std::to_string(animation.mNumMorphMeshChannels) + " morph-mesh channels",
                   static_cast<int>(animation.mNumMorphMeshChannels));
  }
}

std::set<int> targeted_nodes(const aiAnimation& animation, const NodeTable& nodes) {
  std::set<int> targeted;
  for (unsigned c = 0; c < animation.mNumChannels && animation.mChannels != nullptr; ++c) {
    if (animation.mChannels[c] == nullptr) continue;
    const auto it = nodes.by_name.find(std::string(animation.mChannels[c]->mNodeName.C_Str(), animation.mChannels[c]->mNodeName.length));
    if (it != nodes.by_name.end()) targeted.insert(it->second);
  }
  return targeted;
}

// The channel's three lanes (translation, rotation, scale); false when a key list is missing or
// a key is not finite (the caller ignores the channel).
bool read_lanes(const aiNodeAnim& channel, double tps, const std::string& where, Lane (&lanes)[3],
                std::vector<Diagnostic>& diagnostics) {
  bool resorted = false;
  const bool ok = (channel.mNumPositionKeys == 0 || channel.mPositionKeys != nullptr) &&
                  (channel.mNumRotationKeys == 0 || channel.mRotationKeys != nullptr) &&
                  (channel.mNumScalingKeys == 0 || channel.mScalingKeys != nullptr) &&
                  read_lane(channel.mPositionKeys, channel.mNumPositionKeys, tps, set_translation, lanes[0], resorted) &&
                  read_lane(channel.mRotationKeys, channel.mNumRotationKeys, tps, set_rotation, lanes[1], resorted) &&
                  read_lane(channel.mScalingKeys, channel.mNumScalingKeys, tps, set_scale, lanes[2], resorted);
  if (!ok) {
    add_diagnostic(diagnostics, DiagnosticCode::InvalidChannelKeys,
                   where + " has a key time or value that is not finite (or a zero rotation); ignored");
    return false;
  }
  if (resorted) add_diagnostic(diagnostics, DiagnosticCode::ChannelKeysSorted, where + " lists keys out of time order; sorted");
  return true;
}

// The union of the three lanes' times.
std::vector<Ticks> union_of_times(const Lane (&lanes)[3]) {
  std::vector<Ticks> times;
  for (const Lane& lane : lanes) {
    for (const Keyframe& key : lane) times.push_back(key.time);
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

// The node's key at every time: each lane sampled (the rest value where a lane has no keys),
// rebased under the node's FBX helpers when Assimp stored its whole local transform.
BoneTrack sample_lanes(const Lane (&lanes)[3], const std::vector<Ticks>& times, const NodeTable& nodes, int node,
                       const AnimationInProgress& anim, const std::string& where, std::vector<Diagnostic>& diagnostics) {
  BoneTrack track;
  track.keys.resize(times.size());
  const Trs& rest = nodes.local_trs[static_cast<std::size_t>(node)];
  TrackCursor cursor[3];
  for (std::size_t k = 0; k < times.size(); ++k) {
    Keyframe& key = track.keys[k];
    key.time = times[k];
    key.translation = lanes[0].empty() ? rest.translation : sample_track(lanes[0], times[k], cursor[0]).translation;
    key.rotation = lanes[1].empty() ? rest.rotation : sample_track(lanes[1], times[k], cursor[1]).rotation;
    key.scale = lanes[2].empty() ? rest.scale : sample_track(lanes[2], times[k], cursor[2]).scale;
  }
  if (const std::optional<glm::mat4> helpers = fbx_helper_chain(nodes, node, anim.targeted)) {
    const glm::mat4 undo = glm::inverse(*helpers);
    for (Keyframe& key : track.keys) {
      const Trs local = decompose_trs(undo * compose_trs(key.translation, key.rotation, key.scale));
      key.translation = local.translation;
      key.rotation = local.rotation;
      key.scale = local.scale;
    }
    add_diagnostic(diagnostics, DiagnosticCode::FbxPivotChannelRebased,
                   where +
                       " holds the node's whole local transform while its $AssimpFbx$ helper nodes stay at "
                       "rest (Assimp 5.2.5); its keys are rebased under the helpers");
  }
  return track;
}

// One channel into the animation's clips: a track for each skin whose palette has the node, else
// one for the scene bone.
void read_channel(const aiNodeAnim& channel, unsigned c, const NodeTable& nodes, const Model& model, ImportBudget& budget,
                  AnimationInProgress& anim, std::vector<Diagnostic>& diagnostics) {
  const std::string where = anim.here + " channel " + std::to_string(c) + " ('" + channel.mNodeName.C_Str() + "')";
  const int node = nodes.find(channel.mNodeName, diagnostics);
  if (node < 0) {
    return add_diagnostic(diagnostics, DiagnosticCode::ChannelTargetOutsideScene, where + " names no node of the scene");
  }
  if (!anim.animated.insert(node).second) {
    return add_diagnostic(diagnostics, DiagnosticCode::DuplicateChannel, where + " animates a node an earlier channel animates; ignored");
  }
  if (channel.mPreState == aiAnimBehaviour_REPEAT || channel.mPreState == aiAnimBehaviour_LINEAR ||
      channel.mPostState == aiAnimBehaviour_REPEAT || channel.mPostState == aiAnimBehaviour_LINEAR) {
    add_diagnostic(diagnostics, DiagnosticCode::ChannelBehaviourIgnored,
                   where + " repeats or extrapolates outside its keys; marrow holds the first/last key");
  }
  // The keys this channel yields are at least its longest key list: refuse before copying.
  budget.require_keys(std::max({channel.mNumPositionKeys, channel.mNumRotationKeys, channel.mNumScalingKeys}), where);
  Lane lanes[3];
  if (!read_lanes(channel, anim.tps, where, lanes, diagnostics)) return;
  const std::vector<Ticks> times = union_of_times(lanes);
  if (times.empty()) return;
  anim.last_key = std::max(anim.last_key, seconds_from_ticks(times.back()));

  std::vector<std::pair<int, int>> targets;  // (skin or -1, bone index in that space)
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    const int p = model.skins[s].scene_to_palette[static_cast<std::size_t>(node) + 1];
    if (p >= 0) targets.emplace_back(static_cast<int>(s), p);
  }
  if (targets.empty()) targets.emplace_back(-1, node + 1);
  budget.charge_keys(std::uint64_t{times.size()} * targets.size(), "animation keys");
  BoneTrack track = sample_lanes(lanes, times, nodes, node, anim, where, diagnostics);
  for (const auto& [skin, bone] : targets) {
    track.bone_index = bone;
    (skin < 0 ? anim.out.scene_clip : anim.skin_clips[static_cast<std::size_t>(skin)]).tracks.push_back(track);
  }
}

// The animation's duration (its last key when the file's is unusable), its clips sorted by bone
// and stored: the scene clip in the animation, each skin's clip in that skin.
void store(const aiAnimation& animation, AnimationInProgress& anim, Model& model, std::vector<Diagnostic>& diagnostics) {
  double duration = animation.mDuration / anim.tps;
  if (!std::isfinite(duration) || duration < 0.0) {
    add_diagnostic(diagnostics, DiagnosticCode::InvalidAnimationDuration,
                   anim.here + ": duration is not finite and >= 0; its last key time is used");
    duration = anim.last_key;
  }
  ModelAnimation& out = anim.out;
  out.duration = ticks_from_seconds(duration);
  out.scene_clip.name = out.name;
  out.scene_clip.duration = out.duration;
  out.scene_clip.target_space = ClipTargetSpace::SceneNode;
  const auto by_bone = [](const BoneTrack& x, const BoneTrack& y) { return x.bone_index < y.bone_index; };
  std::sort(out.scene_clip.tracks.begin(), out.scene_clip.tracks.end(), by_bone);
  for (std::size_t s = 0; s < anim.skin_clips.size(); ++s) {
    AnimationClip& clip = anim.skin_clips[s];
    if (clip.tracks.empty()) continue;
    std::sort(clip.tracks.begin(), clip.tracks.end(), by_bone);
    clip.name = out.name;
    clip.duration = out.duration;
    clip.target_space = ClipTargetSpace::JointPalette;
    model.skins[s].data.animation_clips[out.name] = std::move(clip);
  }
  model.animations.push_back(std::move(out));
}

}  // namespace

void extract_animations(const aiScene& scene, const NodeTable& nodes, const AssimpOptions& options, ImportBudget& budget, Model& model,
                        std::vector<Diagnostic>& diagnostics) {
  std::set<std::string> used;
  for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
    const aiAnimation* animation = scene.mAnimations == nullptr ? nullptr : scene.mAnimations[a];
    if (animation == nullptr) continue;
    AnimationInProgress anim;
    anim.tps = ticks_per_second(*animation, options);
    if (!options.ticks_per_second && !(std::isfinite(animation->mTicksPerSecond) && animation->mTicksPerSecond > 0.0)) {
      add_diagnostic(diagnostics, DiagnosticCode::TicksPerSecondDefaulted,
                     "animation " + std::to_string(a) + " records no ticks per second; 25 assumed");
    }
    anim.out.name = detail::unique_clip_name(std::string_view(animation->mName.data, animation->mName.length), a, used);
    used.insert(anim.out.name);
    anim.here = "animation " + std::to_string(a) + " ('" + anim.out.name + "')";
    note_mesh_channels(*animation, anim.here, diagnostics);
    anim.skin_clips.resize(model.skins.size());
    anim.targeted = targeted_nodes(*animation, nodes);
    for (unsigned c = 0; c < animation->mNumChannels; ++c) {
      const aiNodeAnim* channel = animation->mChannels == nullptr ? nullptr : animation->mChannels[c];
      if (channel != nullptr) read_channel(*channel, c, nodes, model, budget, anim, diagnostics);
    }
    store(*animation, anim, model, diagnostics);
  }
}

}  // namespace marrow::assimp
