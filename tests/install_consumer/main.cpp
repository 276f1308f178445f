// Plays the seed's two-bone clip through the installed library; exit 0 when bone 1 is at (1,1,0).
#include <cmath>
#include <cstdio>

#include <glm/gtc/matrix_transform.hpp>
#include <marrow/marrow.hpp>

int main() {
  marrow::SkinningData data;
  data.bone_count = 2;
  data.skeleton_hierarchy = {-1, 0};
  data.bind_pose = {glm::mat4(1.f), glm::translate(glm::mat4(1.f), glm::vec3(0, 1, 0))};
  data.inverse_bind_pose = {glm::mat4(1.f), glm::mat4(1.f)};
  marrow::AnimationClip clip;
  clip.duration = marrow::ticks_from_seconds(1.0);
  clip.tracks.push_back({0, {{marrow::Ticks{0}, glm::vec3(0)}, {clip.duration, glm::vec3(2, 0, 0)}}});
  marrow::AnimationPlayer player(data);
  player.start_clip(clip);
  player.update(marrow::ticks_from_seconds(0.5), true);
  const glm::vec4 p = player.world_transforms()[1][3];
  std::printf("bone 1 at (%g, %g, %g)\n", p.x, p.y, p.z);
  return std::fabs(p.x - 1.f) < 1e-6f && std::fabs(p.y - 1.f) < 1e-6f ? 0 : 1;
}
