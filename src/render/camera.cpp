#include "marrow/render/camera.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include <glm/gtc/matrix_transform.hpp>

namespace marrow::render {

ViewAngles view_angles(ViewPreset preset) noexcept {
  switch (preset) {
    case ViewPreset::Front: return {0.f, 0.f};
    case ViewPreset::Side: return {90.f, 0.f};
    case ViewPreset::Top: return {0.f, 90.f};
    case ViewPreset::Iso: return {45.f, 35.264389f};  // atan(1 / sqrt(2))
  }
  return {};
}

ViewPreset view_preset_from_name(std::string_view name) {
  if (name == "front") return ViewPreset::Front;
  if (name == "side") return ViewPreset::Side;
  if (name == "top") return ViewPreset::Top;
  if (name == "iso") return ViewPreset::Iso;
  throw std::invalid_argument("unknown view '" + std::string(name) + "' (front, side, top or iso)");
}

Camera frame_camera(const BoundingBox& box, const CameraFraming& f) {
  const auto finite = [](float v) { return std::isfinite(v); };
  if (!finite(f.angles.yaw_degrees) || !finite(f.angles.pitch_degrees)) {
    throw std::invalid_argument("frame_camera: yaw and pitch must be finite");
  }
  if (!finite(f.aspect) || !(f.aspect > 0.f)) throw std::invalid_argument("frame_camera: aspect " + std::to_string(f.aspect) + " must be positive");
  if (!(f.vertical_fov_degrees > 0.f && f.vertical_fov_degrees < 170.f)) {
    throw std::invalid_argument("frame_camera: vertical field of view " + std::to_string(f.vertical_fov_degrees) +
                                " is outside (0, 170) degrees");
  }
  if (!(f.margin >= 0.f && f.margin <= 0.45f)) {
    throw std::invalid_argument("frame_camera: margin " + std::to_string(f.margin) + " is outside [0, 0.45]");
  }

  // A box too small (or absent) to frame: a small cube about its centre.
  glm::vec3 lo(-0.5f), hi(0.5f);
  if (!box.empty) {
    const glm::vec3 c = box.center();
    const float extent = std::max({box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z});
    const glm::vec3 half = glm::max(glm::vec3(box.max - box.min) * 0.5f, glm::vec3(std::max(extent, 1e-4f) * 0.05f));
    lo = c - half;
    hi = c + half;
  }
  const glm::vec3 centre = (lo + hi) * 0.5f;

  // Camera axes: rotate about Y by yaw, then tilt down by pitch.
  const glm::mat4 rotation = glm::rotate(glm::rotate(glm::mat4(1.f), glm::radians(f.angles.yaw_degrees), glm::vec3(0, 1, 0)),
                                         glm::radians(-f.angles.pitch_degrees), glm::vec3(1, 0, 0));
  const glm::vec3 right = glm::normalize(glm::vec3(rotation[0]));
  const glm::vec3 up = glm::normalize(glm::vec3(rotation[1]));
  const glm::vec3 back = glm::normalize(glm::vec3(rotation[2]));

  const float tan_y = std::tan(glm::radians(f.vertical_fov_degrees) * 0.5f) * (1.f - 2.f * f.margin);
  const float tan_x = tan_y * f.aspect;
  // Distance along `back` so that each corner's offset across the view fits the half-angle.
  float distance = 0.f, nearest = -1e30f, farthest = 1e30f;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 corner((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
    const glm::vec3 d = corner - centre;
    const float x = std::fabs(glm::dot(d, right)), y = std::fabs(glm::dot(d, up)), z = glm::dot(d, back);
    distance = std::max({distance, z + x / tan_x, z + y / tan_y});
    nearest = std::max(nearest, z);
    farthest = std::min(farthest, z);
  }
  const float radius = glm::length(hi - lo) * 0.5f;
  distance = std::max(distance, nearest + radius * 0.05f);
  const float z_near = std::max((distance - nearest) * 0.5f, distance * 1e-4f);
  const float z_far = (distance - farthest) * 2.f + radius;

  Camera camera;
  camera.eye = centre + back * distance;
  camera.forward = -back;
  camera.view = glm::lookAt(camera.eye, centre, up);
  camera.projection = glm::perspective(glm::radians(f.vertical_fov_degrees), f.aspect, z_near, z_far);
  camera.view_projection = camera.projection * camera.view;
  return camera;
}

}  // namespace marrow::render
