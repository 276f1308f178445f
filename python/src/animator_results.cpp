#include "animator_results.hpp"

#include <string>

namespace marrow::python {

py::list events_list(const Animator& animator) {
  py::list out;
  const Model& model = animator.model();
  for (const AnimationEvent& e : animator.events()) {
    py::dict d;
    d["name"] = std::string(e.name);
    d["animation"] = model.animations[static_cast<std::size_t>(e.animation)].name;
    d["layer"] = e.layer;
    d["time"] = seconds_from_ticks(e.time);
    d["weight"] = e.weight;
    out.append(d);
  }
  return out;
}

py::dict motion_dict(const RootMotion& motion) {
  py::dict d;
  d["translation"] = py::make_tuple(motion.translation.x, motion.translation.y, motion.translation.z);
  d["yaw"] = static_cast<double>(motion.yaw);
  return d;
}

void enable_root_motion(Animator& animator, const std::optional<std::string>& joint, bool yaw, const std::array<float, 3>& up) {
  by_name([&] {
    animator.enable_root_motion(RootMotionOptions{joint.value_or(""), yaw, glm::vec3(up[0], up[1], up[2])});
    return 0;
  });
}

}  // namespace marrow::python
