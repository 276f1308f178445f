#include "marrow/io/bvh/bvh_importer.hpp"

#include <set>
#include <stdexcept>
#include <string>

#include <glm/gtc/matrix_transform.hpp>

#include "../unique_clip_name.hpp"
#include "bvh_document.hpp"
#include "bvh_joint_pose.hpp"
#include "marrow/core/finite.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/file_bytes.hpp"
#include "marrow/io/finish_import.hpp"

namespace marrow {

namespace {

// Nodes (synthetic root 0, joint j as node j + 1) and the one skin over every joint, posed at
// the OFFSETs with zero rotations.
void add_skeleton(const bvh::Document& doc, ImportBudget& budget, Model& model) {
  const std::size_t n = doc.joints.size();
  budget.charge(n * (sizeof(ModelNode) + 3 * sizeof(glm::mat4) + 4 * sizeof(int)) + n * 64, "BVH joints");
  model.nodes.resize(n + 1);
  model.nodes[0] = ModelNode{"<root>", -1, glm::mat4(1.f), -1};
  model.source.scene = 0;
  model.source.node_to_bone.resize(n);
  Skin skin = sized_skin(n, n + 1);
  skin.name = doc.joints[0].name;
  skin.source_skin = 0;
  SkinningData& data = skin.data;
  std::vector<glm::vec3> rest_world(n);
  for (std::size_t j = 0; j < n; ++j) {
    const bvh::Joint& joint = doc.joints[j];
    const glm::mat4 local = glm::translate(glm::mat4(1.f), joint.offset);
    model.nodes[j + 1] = ModelNode{joint.name, joint.parent + 1, local, static_cast<int>(j)};
    model.source.node_to_bone[j] = static_cast<int>(j) + 1;
    rest_world[j] = joint.offset + (joint.parent < 0 ? glm::vec3(0.f) : rest_world[static_cast<std::size_t>(joint.parent)]);
    if (!is_finite(rest_world[j])) {
      throw ImportError(ImportErrorCode::InvalidDocument, "line " + std::to_string(joint.line) + ": the rest position of '" +
                                                              joint.name + "' (its OFFSETs summed) leaves the float range");
    }
    data.skeleton_hierarchy[j] = joint.parent;
    data.bind_pose[j] = local;
    data.inverse_bind_pose[j] = glm::translate(glm::mat4(1.f), -rest_world[j]);
    skin.scene_to_palette[j + 1] = static_cast<int>(j);
    skin.palette_to_scene[j] = static_cast<int>(j) + 1;
    skin.source_joints[j] = static_cast<int>(j);
  }
  data.skeleton_root_node_index = 0;
  data.skeleton_root_name = doc.joints[0].name;
  model.skins.push_back(std::move(skin));
}

// The one clip: a track per joint with channels, a key per frame.
void add_clip(const bvh::Document& doc, std::string_view clip_name, ImportBudget& budget, Model& model) {
  if (doc.frame_count == 0) return;  // a skeleton without motion
  std::size_t animated = 0;
  for (const bvh::Joint& joint : doc.joints) animated += joint.channels.empty() ? 0 : 1;
  const std::uint64_t keys = static_cast<std::uint64_t>(animated) * doc.frame_count;  // both below the file size
  budget.charge_keys(keys, "BVH motion");
  budget.charge(keys * sizeof(Keyframe), "BVH motion");

  AnimationClip clip;
  clip.name = detail::unique_clip_name(clip_name, 0, {});
  clip.duration = ticks_from_seconds(static_cast<double>(doc.frame_count - 1) * doc.frame_time);
  clip.target_space = ClipTargetSpace::JointPalette;
  for (std::size_t j = 0; j < doc.joints.size(); ++j) {
    const bvh::Joint& joint = doc.joints[j];
    if (joint.channels.empty()) continue;
    BoneTrack track;
    track.bone_index = static_cast<int>(j);
    track.keys.resize(doc.frame_count);
    for (std::size_t f = 0; f < doc.frame_count; ++f) {
      const bvh::JointPose pose = bvh::joint_pose(joint, doc.values.data() + f * doc.columns + joint.first_column);
      Keyframe& key = track.keys[f];
      key.time = ticks_from_seconds(static_cast<double>(f) * doc.frame_time);
      key.translation = pose.translation;
      key.rotation = pose.rotation;
      // Euler angles jump by 360 degrees across +-180; q and -q are the same rotation, and
      // keeping consecutive keys in one hemisphere makes slerp take the short way between them.
      if (f > 0 && glm::dot(track.keys[f - 1].rotation, key.rotation) < 0.f) key.rotation = -key.rotation;
    }
    clip.tracks.push_back(std::move(track));
  }

  ModelAnimation animation;
  animation.name = clip.name;
  animation.duration = clip.duration;
  animation.scene_clip.name = clip.name;
  animation.scene_clip.duration = clip.duration;
  animation.scene_clip.target_space = ClipTargetSpace::SceneNode;
  model.skins[0].data.animation_clips[clip.name] = std::move(clip);
  model.animations.push_back(std::move(animation));
}

}  // namespace

Model import_bvh(std::span<const std::byte> bytes, const ImportOptions& options, std::string_view clip_name) {
  check_import_options(options);
  check_file_size(bytes.size(), options.limits, "");
  if (bytes.empty()) throw ImportError(ImportErrorCode::EmptyFile, "empty file");
  ImportBudget budget(options.limits);  // the one account of this import (bytes, keys)
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  Model model;
  {
    const bvh::Document doc = bvh::parse_bvh(text, budget);
    add_skeleton(doc, budget, model);
    add_clip(doc, clip_name, budget, model);
  }
  try {
    validate(model);
  } catch (const std::invalid_argument& e) {
    throw ImportError(ImportErrorCode::InvalidDocument, std::string("the imported skeleton is inconsistent: ") + e.what());
  }
  finish_import(model, options);  // G18, compression, S5, G17 (no meshes: nothing to split or install)
  return model;
}

Model import_bvh(const std::filesystem::path& path, const ImportOptions& options) {
  check_import_options(options);
  const FileBytes bytes = read_file(path, options.limits);  // names the path in its own refusals
  try {
    return import_bvh(bytes.bytes(), options, path.stem().string());
  } catch (const ImportError& e) {
    throw ImportError(e.code(), path.filename().string() + ": " + e.detail());
  }
}

}  // namespace marrow
