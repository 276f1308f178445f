#pragma once
// What the documentation's C++ snippets leave to their reader, so they compile and run as written
// (extract_snippets.py). Every other name a snippet uses is marrow's or its own; the files it
// names are the shared assets, linked into the folder it runs in (run_snippet.sh).
#include <cstddef>
#include <string_view>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include <marrow/marrow.hpp>
#include <marrow/render.hpp>

namespace marrow::snippet_placeholders {

// A game's own state and callbacks.
inline glm::vec3 character_position{0.f};
inline glm::vec3 ground_point{0.f, 0.f, 10.f};          // where a foot should stand, model space
inline glm::vec3 ground_under_left_foot{0.f, 0.f, 10.f};
inline glm::vec3 foot_target{0.f, 0.f, 10.f};
inline glm::vec3 knee_pole{0.f, 30.f, 60.f};
inline float foot_weight = 1.f;
inline double dt = 1 / 60.0;                             // seconds since the last frame
inline bool surveyed = false;
inline void handle(std::string_view /*event*/) {}
inline void play_sound() {}
inline void cull(const BoundingBox& /*box*/) {}          // a game's visibility test

// Poses a blending example mixes (docs/animation.md): eight joints at rest.
inline const std::size_t n = 8;
inline float u = 0.25f;  // the cross-fade's progress
inline std::vector<TrsBlock> walk_pose(pose_block_count(n)), run_pose(pose_block_count(n)), bind(pose_block_count(n)),
    pose(pose_block_count(n));

// A mesh's vertex streams, which an engine keeps in its own buffers (README, docs/runtime.md).
inline StridedSpan<const glm::u16vec4> joints_view;
inline StridedSpan<const glm::vec4> weights_view;
inline StridedSpan<const glm::vec3> positions_view;
inline StridedSpan<glm::vec3> posed_positions;

// The seed's bending strip (T15) for the MeshBuilder example: 2 m tall, "Base" and "Tip" bones,
// a one-second bend of the top half.
inline asset::MeshVertexSkeletal strip_vertex(float x, float y, std::uint8_t b, float weight_b) {
  asset::MeshVertexSkeletal v;
  v.location = {x, y, 0.f};
  v.bone_indices = {0, b, 0, 0};
  v.bone_weights = {1.f - weight_b, weight_b, 0.f, 0.f};
  return v;
}
inline const std::vector<asset::MeshVertexSkeletal> vertices{
    strip_vertex(0.1f, 0.f, 0, 0.f), strip_vertex(-0.1f, 0.f, 0, 0.f), strip_vertex(0.1f, 1.f, 1, 0.5f),
    strip_vertex(-0.1f, 1.f, 1, 0.5f), strip_vertex(0.1f, 2.f, 1, 1.f), strip_vertex(-0.1f, 2.f, 1, 1.f)};
inline const std::vector<asset::VertexTriangle> triangles{{0, 1, 3}, {0, 3, 2}, {2, 3, 5}, {2, 5, 4}};
inline const std::vector<asset::SkeletalAnimationNode> nodes{
    {glm::mat4(1.f), glm::mat4(1.f), std::nullopt, 0},
    {glm::translate(glm::mat4(1.f), glm::vec3(0, 1, 0)), glm::translate(glm::mat4(1.f), glm::vec3(0, -1, 0)), 0, 1}};
inline const std::vector<asset::SkeletalAnimationRotationKeyframe> rotations{
    {0.f, glm::quat(1, 0, 0, 0)}, {1.f, glm::angleAxis(glm::radians(45.f), glm::vec3(0, 0, 1))}};
inline const std::vector<asset::SkeletalAnimationTranslationKeyframe> translations{{0.f, glm::vec3(0, 1, 0)}};
inline const std::vector<asset::SkeletalAnimationNodeMutationDescriptor> mutations{{1, 0, 0, 0, 2, 0, 1}};

}  // namespace marrow::snippet_placeholders
