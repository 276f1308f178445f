// Plays the built-in demo character through marrow::model alone; exit 0 when a frame poses it.
#include <cstdio>

#include <marrow/model/animator.hpp>
#include <marrow/model/demo_character.hpp>
#include <marrow/version.hpp>

int main() {
  const marrow::Model model = marrow::make_demo_character();
  marrow::Animator animator(model);
  animator.play("Wave");
  animator.update(marrow::ticks_from_seconds(0.5));
  std::printf("marrow %s: %zu joints posed\n", marrow::kVersion, animator.absolute_bone_transforms().size());
  return animator.absolute_bone_transforms().size() == model.bones.size() ? 0 : 1;
}
