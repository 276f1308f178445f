#pragma once
// Building skeletal meshes and their animations in code (seed 003; T11, T12, T13, T15, T16).
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "marrow/model/bounds.hpp"
#include "marrow/asset/mesh.hpp"
#include "marrow/asset/mesh_animation.hpp"
#include "marrow/asset/mesh_vertex.hpp"

namespace marrow::asset {

struct MeshCreationConfig {
  std::string name;
  std::optional<BoundingBox> bounding_box_override;  // used instead of the computed box
  float bounding_box_additional_margin = 0.f;        // added on every side
  bool allows_per_instance_vertex_mutation = false;  // refused for skeletal meshes
};

// One node of the skeleton tree. Not every node is a bone; bones move vertices.
struct SkeletalAnimationNode {
  glm::mat4 default_local_transform{1.f};   // relative to the parent, the bind pose
  glm::mat4 bind_pose_inversion{1.f};       // model space -> this node's space at bind
  std::optional<int> parent_node_index;     // none: the root
  std::optional<int> corresponding_bone_index;  // none: not a bone
};

struct SkeletalAnimationScalingKeyframe {
  float time_seconds = 0.f;
  glm::vec3 scaling{1.f};
};
struct SkeletalAnimationRotationKeyframe {
  float time_seconds = 0.f;
  glm::quat rotation{1, 0, 0, 0};
};
struct SkeletalAnimationTranslationKeyframe {
  float time_seconds = 0.f;
  glm::vec3 translation{0.f};
};

// Which keyframes (ranges of the three spans) animate which node.
struct SkeletalAnimationNodeMutationDescriptor {
  int target_node_index = 0;
  int scaling_keyframe_start_index = 0, scaling_keyframe_count = 0;
  int rotation_keyframe_start_index = 0, rotation_keyframe_count = 0;
  int translation_keyframe_start_index = 0, translation_keyframe_count = 0;
};

class MeshBuilder {
 public:
  static constexpr int kMaxSkeletalBoneCount = kMaxSkeletalBones;

  // T11. Throws std::invalid_argument naming the problem: more than 255 bones, a bone index
  // given to two nodes or bones that skip a number, a parent outside the nodes, a cycle, not
  // exactly one root, a triangle or vertex bone index out of range, non-finite data, or
  // allows_per_instance_vertex_mutation (not supported for skeletal meshes). Nodes that
  // define no bone at all give one identity root bone (the mesh behaves as static). The box
  // covers the bind pose (or the override), plus the margin.
  std::shared_ptr<Mesh> create_from_vertices(std::span<const MeshVertexSkeletal> vertices,
                                             std::span<const VertexTriangle> triangles,
                                             std::span<const SkeletalAnimationNode> nodes,
                                             const MeshCreationConfig& config = {});

  // T12. A mutation replaces its node's default local transform with the keyed scaling,
  // rotation and translation (a component without keys is identity: scale 1, no rotation,
  // translation 0); untargeted nodes keep their default; outside its keys a node holds the
  // first/last key. Throws std::logic_error for a mesh without skeletal data or a name that is
  // empty or already used, std::invalid_argument for keys out of time order within a mutation,
  // ranges outside the spans, a node targeted twice, non-finite keys or duration, and
  // std::out_of_range for a target node outside the skeleton.
  MeshAnimation attach_animation(Mesh& mesh, std::span<const SkeletalAnimationScalingKeyframe> scaling_keyframes,
                                 std::span<const SkeletalAnimationRotationKeyframe> rotation_keyframes,
                                 std::span<const SkeletalAnimationTranslationKeyframe> translation_keyframes,
                                 std::span<const SkeletalAnimationNodeMutationDescriptor> bone_mutations,
                                 float default_completion_time_seconds, std::string_view name);

  // T13. A name another node has gets a number ("Hand" -> "Hand2", "Hand3"...); an index
  // outside the skeleton throws std::out_of_range; no effect on a mesh without skeletal data.
  void set_skeleton_node_name(Mesh& mesh, std::size_t node_index, std::string_view name);
};

}  // namespace marrow::asset
