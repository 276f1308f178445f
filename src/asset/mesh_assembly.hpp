#pragma once
// Private to the scene layer: what every mesh needs once its vertices and skeleton are set
// (bind palette, widened joints, bounding box, T14), shared by the MeshBuilder and the
// AssetLoader.
#include <optional>

#include "marrow/asset/mesh.hpp"

namespace marrow::asset {

struct MeshAssembly {
  // Derives the bind palette and the skinning joints, and registers the mesh with its rig.
  static void finish(Mesh& mesh);
  // T14 through the one animated-bounds routine (model/animated_bounds.hpp): the bind pose
  // posed exactly, widened (when with_animations) by every animation at each of its key times,
  // each through the bones' boxes of the vertices they influence (S5, O(bones) per key time).
  // Then the override replaces it and the margin is added on every side.
  static void compute_bounds(Mesh& mesh, bool with_animations, const std::optional<BoundingBox>& override_box,
                             float margin);
  static Mesh& access(Mesh& mesh) { return mesh; }
  static std::shared_ptr<SkeletalRig>& rig(Mesh& mesh) { return mesh.rig_; }
  static std::vector<MeshVertexSkeletal>& vertices(Mesh& mesh) { return mesh.vertices_; }
  static std::vector<VertexTriangle>& triangles(Mesh& mesh) { return mesh.triangles_; }
  static std::string& name(Mesh& mesh) { return mesh.name_; }
};

// Times an animation is keyed at, from its tracks (sorted, distinct).
std::vector<Ticks> animation_key_times(const RigAnimation& animation);

}  // namespace marrow::asset
