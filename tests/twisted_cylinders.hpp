#pragma once
// S3's candy-wrapper fixture: two upright cylinders side by side, each skinned to its own chain
// of two joints and twisted about its axis by the same animation, the left one skinned by linear
// blending and the right one by dual quaternions (ModelMeshPart::skinning), so one frame shows
// both (tests/dual_quaternion_skinning_test.cpp, tests/make_dqs_picture_main.cpp).
//
//   each cylinder: radius kRadius, y from 0 to kHeight, kRings rings of kSegments vertices (ring
//   r at y = kHeight * r / (kRings - 1)); joint 0 at its foot, joint 1 at y = 1; the weight of
//   joint 1 ramps linearly from 0 at y = 0.5 to 1 at y = 1.5, so the middle ring (y = 1) is
//   half and half; glTF mesh 0 (LBS) stands at x = -kSpacing, mesh 1 (DQS) at x = +kSpacing
//   (ModelMesh::source_mesh), in an orange and a blue material
//   animation 0 "Twist": joint 1 turned about +Y by 0, 90, 180 degrees at 0, 1, 2 seconds
#include <cstddef>

#include "marrow/model/model.hpp"

namespace marrow::test {

struct TwistedCylinders {
  static constexpr float kRadius = 0.25f;
  static constexpr float kHeight = 2.f;
  static constexpr float kSpacing = 0.6f;
  static constexpr int kRings = 21;
  static constexpr int kSegments = 48;
  static constexpr int kMiddleRing = kRings / 2;  // y = 1
};

// Imported from the glTF this builds (so it is an ordinary loaded model).
Model twisted_cylinders();

}  // namespace marrow::test
