#pragma once
// A loaded (or built) model: scene nodes as bones, meshes of parts with interleaved vertex
// bytes, skins, and animations.
//
// Thread safety: after loading, a Model is read-only and may be shared by any number of
// instances and threads. Per-frame state (bone poses, morph weights, posed vertices) lives in
// an Animator; the only shared mutable state is each SkinnedMaterial's palette, which is
// drawing state owned by the drawing thread (see SkinnedMaterial).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "marrow/core/bounding_box.hpp"
#include "marrow/runtime/animation_clip.hpp"
#include "marrow/core/diagnostic.hpp"
#include "marrow/core/vertex_layout.hpp"
#include "marrow/model/animation_marker.hpp"
#include "marrow/model/humanoid_map.hpp"
#include "marrow/model/material.hpp"
#include "marrow/model/skin.hpp"
#include "marrow/model/skinned_material.hpp"
#include "marrow/runtime/morph_target_data.hpp"
#include "marrow/runtime/morph_weight_track.hpp"
#include "marrow/runtime/skinning_job.hpp"

namespace marrow {

struct LiveRetarget;
class MotionDatabase;

// A scene node (joints of skins are nodes too; Skin maps them to palette entries). Node 0 of an
// imported or built model is a synthetic root. Per-node arrays elsewhere (Animator's
// bone_transforms, rigid clips' bone_index, the M4 rule's "bone") use the node index.
struct ModelNode {
  std::string name;
  int parent = -1;             // node index, always below this node's own index; -1 for the root
  glm::mat4 transform{1.f};    // local, relative to the parent
  int source_node = -1;        // node index in the source file, -1 for the synthetic root
};

enum class PrimitiveMode : std::uint8_t { Points, Lines, LineLoop, LineStrip, Triangles, TriangleStrip, TriangleFan };

struct BoundingSphere {
  glm::vec3 center{0.f};
  float radius = 0.f;
};

struct ModelMeshPart {
  std::vector<std::byte> vertex_bytes;  // vertex_count() * layout.stride, zero morph weights applied
  VertexLayout layout;
  std::vector<std::uint32_t> indices;   // empty = non-indexed
  PrimitiveMode mode = PrimitiveMode::Triangles;
  std::shared_ptr<Material> material;
  std::shared_ptr<SkinnedMaterial> skinned_material;  // set when the part is drawn skinned
  std::optional<MorphTargetData> morph;                // CPU morph targets, if any
  // How the part is skinned (S3): linear blending (glTF's, the default) or dual quaternions.
  // Animator::pose_part (and so the renderer) follows it; a GPU path picks its shader by it.
  SkinningMode skinning = SkinningMode::Linear;
  std::uint64_t revision = 0;                          // bumped whenever vertex_bytes change
  int source_primitive = -1;                           // primitive index in the source mesh
  // Model vertex i came from source vertex source_vertices[i] (empty: the identity). Lets tools
  // report vertices in the file's order even after splitting.
  std::vector<std::uint32_t> source_vertices;
  std::uint32_t source_vertex_count = 0;
  // The normals were computed (flat normals of a primitive that authored none), not read from
  // the file; tools report only authored normals.
  bool flat_normals = false;
  // S4: empty = JOINTS index the skin's palette; else JOINTS index this list of the skin's
  // palette indices (a sub-part made by split_skin_palettes draws with the sub-palette
  // skin[palette_joints[0]], skin[palette_joints[1]], ...).
  std::vector<std::uint32_t> palette_joints;

  std::size_t vertex_count() const noexcept { return layout.stride == 0 ? 0 : vertex_bytes.size() / layout.stride; }
};

struct ModelMesh {
  std::string name;
  int node = 0;         // drawn with this node's absolute transform
  int skin = -1;        // index into Model::skins, -1 when not skinned
  std::vector<ModelMeshPart> parts;
  BoundingSphere bounding_sphere;    // of the loaded pose, in the parent bone's space
  // S5: every part's vertices in the mesh's own space (before skinning), widened by the range
  // its morph targets can move them through (compute_frame_bounds). A rigid mesh's per-frame
  // box is this box moved by its bone.
  BoundingBox local_bounds;
  std::vector<float> morph_weights;  // initial weights, one per morph target (all parts share them)
  int source_mesh = -1;              // mesh index in the source file
};

// Animated morph weights of one mesh within one animation.
struct MorphWeightChannel {
  int mesh = 0;  // index into Model::meshes
  MorphWeightTrack track;
};

// One animation of the file. Its skeletal part lives in each skin's SkinningData under the same
// name; its rigid part (scene-node tracks) and its morph-weight part live here.
struct ModelAnimation {
  std::string name;
  Ticks duration{};
  AnimationClip scene_clip;  // target_space SceneNode; may have no tracks
  std::vector<MorphWeightChannel> morph_channels;
  std::vector<AnimationMarker> markers{};  // sorted by time, within [0, duration] (add_marker)
  // Set for an animation that plays another model's clip through a retarget map each frame
  // (live_retarget.hpp): it has no keys of its own, and the writers refuse it.
  std::shared_ptr<const LiveRetarget> live{};
};

// Where an imported model came from, so tools can report in the file's own index spaces.
struct ModelSource {
  int scene = -1;                  // the file's scene that was flattened (-1: built in code)
  std::vector<int> node_to_bone;   // per file node: its bone, -1 when outside the scene
};

struct Model {
  std::vector<ModelNode> nodes;
  std::vector<ModelMesh> meshes;
  std::vector<Skin> skins;
  std::vector<ModelAnimation> animations;
  std::vector<Diagnostic> diagnostics;
  ModelSource source;
  // The file's own humanoid map (RT1), from VRM's extension (`VRMC_vrm` or 0.x's `VRM`); empty
  // otherwise (humanoid_map then finds one from the node names).
  std::optional<HumanoidMap> humanoid;
  // Motion matching's database over this model's animations (motion_database.hpp; its ranges
  // name them as model 0), as `marrow match build` writes it; null otherwise. Shared, immutable.
  std::shared_ptr<const MotionDatabase> motion_database;

  // Index of the animation with that name, or -1.
  int find_animation(std::string_view name) const noexcept;
  // Index of the first node with that name, or -1.
  int find_node(std::string_view name) const noexcept;
  // Whether node lies strictly below ancestor (walking parents; a parent at or after its node
  // ends the walk, so a malformed hierarchy answers false instead of looping).
  bool descends_from(int node, int ancestor) const noexcept;
};

// Throws std::invalid_argument naming the object, index and value for a model that cannot be
// animated or drawn safely: a parent at or after its bone, out-of-range mesh/skin references,
// a part whose bytes are not whole vertices or whose indices or joints exceed its vertices or
// palette (its palette_joints map when it has one, whose entries must name joints of the skin), inconsistent morph data, skins that fail validate(SkinningData) or whose maps have
// the wrong sizes, invalid clips, a compressed clip that names no clip of its skin or is not one
// of the skin's joint count.
void validate(const Model& model);

}  // namespace marrow
