#pragma once
// A perspective camera framed on a box: the whole box is in view from the chosen direction, so
// a camera framed on the box that covers every clip (animated_bounds) does not move between
// frames. Right-handed, +Y up, glTF's convention: the front view looks at the model's +Z side.
#include <string_view>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "marrow/model/bounds.hpp"

namespace marrow::render {

// Where the camera sits, in degrees. yaw turns it about +Y (0: on the +Z side, 90: on the +X
// side); pitch raises it (90: straight above, looking down, with -Z up in the picture).
struct ViewAngles {
  float yaw_degrees = 0.f;
  float pitch_degrees = 0.f;
};

enum class ViewPreset { Front, Side, Top, Iso };

// front (0, 0), side (90, 0), top (0, 90), iso (45, 35.26: the cube diagonal).
ViewAngles view_angles(ViewPreset preset) noexcept;
// "front", "side", "top" or "iso"; throws std::invalid_argument naming the text otherwise.
ViewPreset view_preset_from_name(std::string_view name);

struct Camera {
  glm::mat4 view{1.f};
  glm::mat4 projection{1.f};
  glm::mat4 view_projection{1.f};
  glm::vec3 eye{0.f, 0.f, 1.f};
  glm::vec3 forward{0.f, 0.f, -1.f};  // unit, from the eye into the picture
};

struct CameraFraming {
  ViewAngles angles;
  float aspect = 1.f;                  // width / height of the picture
  float vertical_fov_degrees = 30.f;
  float margin = 0.06f;                // border left on each side along the tighter axis,
                                       // a fraction of the picture's size on that axis
};

// Aims at the box centre from the framing's direction and backs off until every corner of the
// box projects inside the picture with the margin. An empty or flat box is grown to a small
// cube so the camera stays well defined. Throws std::invalid_argument for non-finite or
// out-of-range framing values (aspect <= 0, fov outside (0, 170), margin outside [0, 0.45]).
Camera frame_camera(const BoundingBox& box, const CameraFraming& framing);

}  // namespace marrow::render
