#include "native_frame_bounds_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "marrow/core/finite.hpp"

namespace marrow::native {

// FBND: the frame bounds, checked to be what compute_frame_bounds could have made for this model
// (one box set per skin for its palette size, joints ascending inside it, finite boxes, a box
// for every mesh with vertices), so every consumer can use them as made at load. Whether they
// are the boxes of these vertices is the writer's word, as with any stored value.
void read_frame_bounds(SectionReader& r, Model& model) {
  read_skin_count(r, model);
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    const auto scope = r.enter("skin", s);
    Skin& skin = model.skins[s];
    JointBounds& b = skin.joint_bounds;
    const std::uint64_t joint_count = r.u64("joint_count");
    if (joint_count != skin.data.inverse_bind_pose.size()) {
      r.fail(ImportErrorCode::InvalidDocument, "joint_count " + std::to_string(joint_count) + " differs from the skin's " +
                                                   std::to_string(skin.data.inverse_bind_pose.size()) + " joints");
    }
    b.joint_count = static_cast<std::size_t>(joint_count);
    const std::size_t n = r.count("box count", joint_count, "joint_count", kJointBoxBytes);
    r.copy_into(b.joints, n, "joints");
    r.copy_into(b.centers, n, "centers");
    r.copy_into(b.extents, n, "extents");
    for (std::size_t k = 0; k < n; ++k) {
      if (b.joints[k] >= joint_count || (k > 0 && b.joints[k] <= b.joints[k - 1])) {
        r.fail(ImportErrorCode::InvalidDocument, "box " + std::to_string(k) + ": joint " + std::to_string(b.joints[k]) +
                                                     " is not after the previous box's and below joint_count");
      }
      const glm::vec3 e = b.extents[k];
      if (!is_finite(b.centers[k]) || !is_finite(e) || e.x < 0.f || e.y < 0.f || e.z < 0.f) {
        r.fail(ImportErrorCode::InvalidDocument, "box " + std::to_string(k) + " of joint " + std::to_string(b.joints[k]) +
                                                     " is not finite or has a negative extent");
      }
    }
  }
  const std::uint64_t meshes = r.u64("mesh count");
  if (meshes != model.meshes.size()) {
    r.fail(ImportErrorCode::InvalidDocument, "mesh count " + std::to_string(meshes) + " differs from section 'MESH' (" +
                                                 std::to_string(model.meshes.size()) + ")");
  }
  r.fits("mesh count", meshes, kMeshBoxBytes);
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const auto scope = r.enter("mesh", m);
    ModelMesh& mesh = model.meshes[m];
    BoundingBox& box = mesh.local_bounds;
    box.empty = r.flag("empty");
    std::memcpy(&box.min, r.take(kVec3Bytes, "min"), kVec3Bytes);
    std::memcpy(&box.max, r.take(kVec3Bytes, "max"), kVec3Bytes);
    const glm::vec3 lo = box.min, hi = box.max;
    if (!is_finite(lo) || !is_finite(hi) || (!box.empty && !(lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z))) {
      r.fail(ImportErrorCode::InvalidDocument, "the box is not finite or its min exceeds its max");
    }
    if (box.empty) {
      for (const ModelMeshPart& part : mesh.parts) {
        if (part.vertex_count() > 0) r.fail(ImportErrorCode::InvalidDocument, "an empty box for a mesh with vertices");
      }
    }
  }
}

}  // namespace marrow::native
