// Plays a two-bone model built in code through marrow::model alone; exit 0 when the arm, moved
// from (0, 1, 0) to (2, 1, 0) over a second, is halfway at 0.5 s.
#include <cmath>
#include <cstdio>

#include <glm/gtc/matrix_transform.hpp>
#include <marrow/model/animator.hpp>
#include <marrow/version.hpp>

int main() {
  marrow::Model model;
  model.nodes = {{"root", -1, glm::mat4(1.f)}, {"Arm", 0, glm::translate(glm::mat4(1.f), glm::vec3(0, 1, 0))}};
  marrow::ModelAnimation swing;
  swing.name = "Swing";
  swing.duration = marrow::ticks_from_seconds(1.0);
  swing.scene_clip.name = swing.name;
  swing.scene_clip.duration = swing.duration;
  swing.scene_clip.target_space = marrow::ClipTargetSpace::SceneNode;
  swing.scene_clip.tracks.push_back({1, {{marrow::Ticks{0}, glm::vec3(0, 1, 0)}, {swing.duration, glm::vec3(2, 1, 0)}}});
  model.animations.push_back(swing);
  marrow::Animator animator(model);
  animator.play("Swing");
  animator.update(marrow::ticks_from_seconds(0.5));
  const glm::vec4 arm = animator.absolute_bone_transforms()[1][3];
  std::printf("marrow %s: arm at (%g, %g, %g)\n", marrow::kVersion, arm.x, arm.y, arm.z);
  return std::fabs(arm.x - 1.f) < 1e-6f && std::fabs(arm.y - 1.f) < 1e-6f ? 0 : 1;
}
