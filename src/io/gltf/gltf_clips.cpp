#include "gltf_clips.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "gltf_channel.hpp"
#include "gltf_mesh_builder.hpp"
#include "../unique_clip_name.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/gltf/detail/accessor_reader.hpp"

namespace marrow::gltf {

namespace {

enum Path { kTranslation = 0, kRotation = 1, kScale = 2 };

// The channels that drive one bone: a palette index of one skin, or a scene bone (skin = -1).
struct Target {
  int skin = -1;
  int bone = 0;
  std::uint32_t node = 0;
  const ChannelCurve* curves[3] = {nullptr, nullptr, nullptr};
};


// The largest input time over every sampler of the animation (validated through the cache).
double animation_duration(const GltfAsset& asset, std::uint32_t index, ImportBudget& budget, KeyTimeCache& cache) {
  double duration = 0.0;
  for (std::uint32_t s = 0; s < asset.document.animations[index].samplers.size(); ++s) {
    duration = std::max(duration, cache.times(asset, index, s, budget)->seconds.back());
  }
  return duration;
}

// Charges the keys (max_animation_keys) and their bytes before they are allocated.
void reserve_keys(std::size_t keys, ImportBudget& budget) {
  budget.charge_keys(keys, "animation keys");
  budget.charge(std::uint64_t(keys) * sizeof(Keyframe), "animation keys");
}

BoneTrack build_track(const Target& target, const Trs& bind, const ImportOptions& options, ImportBudget& budget) {
  std::vector<SamplePoint> points;
  // Usual case: the node's channels share one input and need no extra points: its keys it is.
  const KeyTimes* shared = nullptr;
  bool simple = true;
  for (const ChannelCurve* curve : target.curves) {
    if (curve == nullptr) continue;
    simple = simple && curve->keys_suffice(options.union_only) && (shared == nullptr || shared == &curve->keys());
    shared = &curve->keys();
  }
  if (simple && shared != nullptr && shared->distinct) {
    // No two keys share a tick: every point is a key, and key k's values are used as stored.
    const std::vector<SamplePoint>& keys = shared->points;
    reserve_keys(keys.size(), budget);
    BoneTrack track;
    track.bone_index = target.bone;
    track.keys.resize(keys.size());
    const ChannelCurve* t = target.curves[kTranslation];
    const ChannelCurve* r = target.curves[kRotation];
    const ChannelCurve* sc = target.curves[kScale];
    for (std::size_t k = 0; k < keys.size(); ++k) {
      Keyframe& key = track.keys[k];
      key.time = keys[k].tick;
      key.translation = t ? glm::vec3(t->value(k)[0], t->value(k)[1], t->value(k)[2]) : bind.translation;
      key.rotation = r ? glm::quat(r->value(k)[3], r->value(k)[0], r->value(k)[1], r->value(k)[2]) : bind.rotation;
      key.scale = sc ? glm::vec3(sc->value(k)[0], sc->value(k)[1], sc->value(k)[2]) : bind.scale;
    }
    return track;
  }
  if (simple && shared != nullptr) {
    points = merge_sample_points(shared->points, {0});  // keys on one tick fold: evaluated below
  } else {
    std::vector<std::size_t> runs;
    for (const ChannelCurve* curve : target.curves) {
      if (curve == nullptr) continue;
      runs.push_back(points.size());
      curve->append_sample_points(options.union_only, options.curve_tolerance, budget, points);
    }
    points = merge_sample_points(std::move(points), runs);
  }
  reserve_keys(points.size(), budget);
  BoneTrack track;
  track.bone_index = target.bone;
  track.keys.resize(points.size());
  std::size_t cursor[3] = {0, 0, 0};
  double v[4];
  for (std::size_t i = 0; i < points.size(); ++i) {
    Keyframe& key = track.keys[i];
    key.time = points[i].tick;
    key.translation = bind.translation;
    key.rotation = bind.rotation;
    key.scale = bind.scale;
    if (const ChannelCurve* c = target.curves[kTranslation]) {
      c->evaluate(points[i].seconds, cursor[kTranslation], v);
      key.translation = glm::vec3(static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2]));
    }
    if (const ChannelCurve* c = target.curves[kRotation]) {
      c->evaluate(points[i].seconds, cursor[kRotation], v);
      key.rotation = glm::quat(static_cast<float>(v[3]), static_cast<float>(v[0]), static_cast<float>(v[1]),
                               static_cast<float>(v[2]));
    }
    if (const ChannelCurve* c = target.curves[kScale]) {
      c->evaluate(points[i].seconds, cursor[kScale], v);
      key.scale = glm::vec3(static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2]));
    }
  }
  return track;
}

MorphWeightTrack weight_track(const ChannelCurve& curve) {
  MorphWeightTrack track;
  track.interpolation = curve.interpolation() == SamplerInterpolation::Step     ? Interpolation::Step
                        : curve.interpolation() == SamplerInterpolation::Linear ? Interpolation::Linear
                                                                                : Interpolation::CubicSpline;
  track.weight_count = curve.width();
  track.times = curve.times();
  const std::size_t keys = curve.times().size(), n = curve.width();
  track.values.resize(keys * n);
  for (std::size_t k = 0; k < keys; ++k) std::copy_n(curve.value(k), n, track.values.begin() + static_cast<long>(k * n));
  if (track.interpolation == Interpolation::CubicSpline) {
    track.in_tangents.resize(keys * n);
    track.out_tangents.resize(keys * n);
    for (std::size_t k = 0; k < keys; ++k) {
      std::copy_n(curve.in_tangent(k), n, track.in_tangents.begin() + static_cast<long>(k * n));
      std::copy_n(curve.out_tangent(k), n, track.out_tangents.begin() + static_cast<long>(k * n));
    }
  }
  return track;
}

// Per skin: file node -> palette index (joints may lie outside the scene).
std::vector<std::map<std::uint32_t, int>> joints_by_node(const Document& doc, const Model& model) {
  std::vector<std::map<std::uint32_t, int>> joint_of(model.skins.size());
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    const marrow::Skin& skin = model.skins[s];
    const std::vector<std::uint32_t>& joints = doc.skins[static_cast<std::size_t>(skin.source_skin)].joints;
    for (std::size_t p = 0; p < skin.source_joints.size(); ++p) {
      joint_of[s][joints[static_cast<std::size_t>(skin.source_joints[p])]] = static_cast<int>(p);
    }
  }
  return joint_of;
}

// One animation as it is read: its curves (kept while its tracks are built) and the channels of
// each bone they drive.
struct AnimationInProgress {
  std::size_t index = 0;
  std::string here;  // the channel being read, for messages
  ModelAnimation out;
  KeyTimeCache key_times;
  std::vector<std::unique_ptr<ChannelCurve>> curves;
  std::map<std::pair<int, int>, Target> targets;  // (skin or -1, bone) -> channels
};

// Reads every animation of the document into the model: skin clips, scene clips, morph channels.
class AnimationReader {
 public:
  AnimationReader(const GltfAsset& asset, const SceneGraph& graph, const ImportOptions& options, ImportBudget& budget,
                  Model& model, std::vector<Diagnostic>& diagnostics)
      : asset_(asset), doc_(asset.document), graph_(graph), options_(options), budget_(budget), model_(model),
        diagnostics_(diagnostics), joint_of_(joints_by_node(doc_, model)) {
    // The default weight track of a mesh part: the first node (file order) instancing the mesh,
    // in the first animation that animates its weights (the seed's single WeightTrack slot).
    for (std::uint32_t node = 0; node < doc_.nodes.size(); ++node) {
      if (doc_.nodes[node].mesh != kNone) first_instancing_node_.emplace(doc_.nodes[node].mesh, node);
    }
  }

  void read_all() {
    for (std::size_t a = 0; a < doc_.animations.size(); ++a) read(a);
    install_default_tracks();
  }

 private:
  void read(std::size_t a) {
    AnimationInProgress anim;
    anim.index = a;
    anim.out.name = detail::unique_clip_name(doc_.animations[a].name, a, used_names_);
    used_names_.insert(anim.out.name);
    anim.out.duration = ticks_from_seconds(animation_duration(asset_, static_cast<std::uint32_t>(a), budget_, anim.key_times));
    anim.out.scene_clip.name = anim.out.name;
    anim.out.scene_clip.duration = anim.out.duration;
    anim.out.scene_clip.target_space = ClipTargetSpace::SceneNode;
    const std::vector<AnimationChannel>& channels = doc_.animations[a].channels;
    for (std::size_t c = 0; c < channels.size(); ++c) {
      anim.here = "animation " + std::to_string(a) + " channel " + std::to_string(c);
      read_channel(anim, channels[c]);
    }
    store(anim);
  }

  void read_channel(AnimationInProgress& anim, const AnimationChannel& channel) {
    if (channel.mesh != kNone) return read_mesh_weights(anim, channel);
    if (!channel.pointer.empty()) {
      return add_diagnostic(diagnostics_, DiagnosticCode::UnsupportedChannelPath,
                            anim.here + " has KHR_animation_pointer '" + channel.pointer + "' (not a node's TRS or weights)");
    }
    if (channel.node == kNone) {
      return add_diagnostic(diagnostics_, DiagnosticCode::ChannelWithoutTarget, anim.here + " has no target node");
    }
    if (channel.path == "weights") return read_node_weights(anim, channel);
    read_trs(anim, channel);
  }

  // KHR_animation_pointer "/meshes/i/weights": the mesh's default weights, for every node in the
  // scene that shows them.
  void read_mesh_weights(AnimationInProgress& anim, const AnimationChannel& channel) {
    const std::size_t count = morph_target_count(doc_, channel.mesh);
    std::vector<std::uint32_t> users;
    for (std::uint32_t n = 0; n < doc_.nodes.size(); ++n) {
      if (doc_.nodes[n].mesh == channel.mesh && doc_.nodes[n].weights.empty() && graph_.node_to_bone[n] >= 0) {
        users.push_back(n);
      }
    }
    if (count == 0 || users.empty()) {
      return add_diagnostic(diagnostics_, DiagnosticCode::WeightsChannelWithoutMorphTargets,
                            anim.here + " animates the weights of mesh " + std::to_string(channel.mesh) +
                                (count == 0 ? ", which has no morph targets" : ", which no node in the scene shows"));
    }
    add_weights(anim, channel, channel.mesh, count, users);
  }

  void read_node_weights(AnimationInProgress& anim, const AnimationChannel& channel) {
    const std::uint32_t mesh = doc_.nodes[channel.node].mesh;
    const std::size_t count = mesh == kNone ? 0 : morph_target_count(doc_, mesh);
    if (count == 0) {
      return add_diagnostic(diagnostics_, DiagnosticCode::WeightsChannelWithoutMorphTargets,
                            anim.here + " animates the weights of node " + std::to_string(channel.node) +
                                ", which has no morph targets");
    }
    if (graph_.node_to_bone[channel.node] < 0) {
      return add_diagnostic(diagnostics_, DiagnosticCode::ChannelTargetOutsideScene,
                            anim.here + " targets node " + std::to_string(channel.node) + ", outside the scene");
    }
    add_weights(anim, channel, mesh, count, {channel.node});
  }

  // A weights channel of `mesh` (count targets) shown by the file nodes `users`: a morph channel
  // for each of their model meshes, and the mesh part's default track.
  void add_weights(AnimationInProgress& anim, const AnimationChannel& channel, std::uint32_t mesh, std::size_t count,
                   const std::vector<std::uint32_t>& users) {
    const auto ai = static_cast<std::uint32_t>(anim.index);
    anim.curves.push_back(std::make_unique<ChannelCurve>(asset_, ai, channel.sampler, count, false, budget_, anim.key_times));
    const MorphWeightTrack track = weight_track(*anim.curves.back());
    for (std::uint32_t node : users) {
      const int bone = graph_.node_to_bone[node];
      for (std::size_t m = 0; m < model_.meshes.size(); ++m) {
        if (model_.meshes[m].node == bone && model_.meshes[m].source_mesh == static_cast<int>(mesh)) {
          anim.out.morph_channels.push_back(MorphWeightChannel{static_cast<int>(m), track});
        }
      }
      if (first_instancing_node_[mesh] == node && default_tracks_.count(mesh) == 0) default_tracks_.emplace(mesh, track);
    }
  }

  // A translation, rotation or scale channel: it drives the node as a joint of every skin that
  // has it, else as a scene bone.
  void read_trs(AnimationInProgress& anim, const AnimationChannel& channel) {
    const int path = channel.path == "translation" ? kTranslation
                     : channel.path == "rotation"  ? kRotation
                     : channel.path == "scale"     ? kScale
                                                   : -1;
    if (path < 0) {
      return add_diagnostic(diagnostics_, DiagnosticCode::UnsupportedChannelPath,
                            anim.here + " has path '" + channel.path + "'");
    }
    std::vector<std::pair<int, int>> keys;
    for (std::size_t s = 0; s < joint_of_.size(); ++s) {
      if (const auto it = joint_of_[s].find(channel.node); it != joint_of_[s].end()) keys.emplace_back(static_cast<int>(s), it->second);
    }
    const int bone = graph_.node_to_bone[channel.node];
    if (keys.empty() && bone >= 0) keys.emplace_back(-1, bone);
    if (keys.empty()) {
      return add_diagnostic(diagnostics_, DiagnosticCode::ChannelTargetOutsideScene,
                            anim.here + " targets node " + std::to_string(channel.node) + ", outside the scene");
    }
    anim.curves.push_back(std::make_unique<ChannelCurve>(asset_, static_cast<std::uint32_t>(anim.index), channel.sampler,
                                                         path == kRotation ? 4 : 3, path == kRotation, budget_, anim.key_times));
    for (const auto& key : keys) {
      Target& target = anim.targets[key];
      target.skin = key.first;
      target.bone = key.second;
      target.node = channel.node;
      if (target.curves[path] != nullptr) {
        add_diagnostic(diagnostics_, DiagnosticCode::DuplicateChannel,
                       anim.here + " repeats path '" + channel.path + "' of node " + std::to_string(channel.node));
        continue;
      }
      target.curves[path] = anim.curves.back().get();
    }
  }

  // The animation's tracks: scene bones into its scene clip, joints into a clip of their skin.
  void store(AnimationInProgress& anim) {
    std::vector<AnimationClip> skin_clips(model_.skins.size());
    for (const auto& [key, target] : anim.targets) {
      BoneTrack track = build_track(target, graph_.local_trs[target.node], options_, budget_);
      if (target.skin < 0) {
        anim.out.scene_clip.tracks.push_back(std::move(track));
      } else {
        skin_clips[static_cast<std::size_t>(target.skin)].tracks.push_back(std::move(track));
      }
    }
    for (std::size_t s = 0; s < skin_clips.size(); ++s) {
      if (skin_clips[s].tracks.empty()) continue;
      skin_clips[s].name = anim.out.name;
      skin_clips[s].duration = anim.out.duration;
      model_.skins[s].data.animation_clips[anim.out.name] = std::move(skin_clips[s]);
    }
    model_.animations.push_back(std::move(anim.out));
  }

  void install_default_tracks() {
    for (ModelMesh& mesh : model_.meshes) {
      const auto it = default_tracks_.find(static_cast<std::uint32_t>(mesh.source_mesh));
      if (it == default_tracks_.end()) continue;
      for (ModelMeshPart& part : mesh.parts) {
        if (part.morph) part.morph->weight_track = it->second;
      }
    }
  }

  const GltfAsset& asset_;
  const Document& doc_;
  const SceneGraph& graph_;
  const ImportOptions& options_;
  ImportBudget& budget_;
  Model& model_;
  std::vector<Diagnostic>& diagnostics_;
  std::vector<std::map<std::uint32_t, int>> joint_of_;
  std::set<std::string> used_names_;
  std::map<std::uint32_t, std::uint32_t> first_instancing_node_;  // by file mesh
  std::map<std::uint32_t, MorphWeightTrack> default_tracks_;       // by file mesh
};

}  // namespace

void extract_animations(const GltfAsset& asset, const SceneGraph& graph, const ImportOptions& options,
                        ImportBudget& budget, Model& model, std::vector<Diagnostic>& diagnostics) {
  AnimationReader(asset, graph, options, budget, model, diagnostics).read_all();
}

}  // namespace marrow::gltf
