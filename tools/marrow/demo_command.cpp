// `marrow demo`: plays every clip of the built-in character through an Animator (one instance)
// and prints, per frame, the time, three joint positions, the morph weights and the box around
// the posed (morphed + skinned) vertices.
#include <cstdio>
#include <vector>

#include "commands.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/bounds.hpp"
#include "marrow/model/demo_character.hpp"

namespace marrow::cli {

namespace {

constexpr int kFramesPerClip = 12;

BoundingBox posed_bounds(Animator& animator) {
  const Model& model = animator.model();
  BoundingBox box;
  std::vector<glm::vec3> positions;
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    for (std::size_t p = 0; p < model.meshes[m].parts.size(); ++p) {
      positions.resize(model.meshes[m].parts[p].vertex_count());
      animator.pose_part(m, p, positions);
      box.extend(bounding_box_of(positions));
    }
  }
  return box;
}

void print_clip(Animator& animator, int index, const std::vector<int>& joints) {
  const Model& model = animator.model();
  const ModelAnimation& anim = model.animations[static_cast<std::size_t>(index)];
  animator.play(index);
  std::printf("\nclip %d \"%s\"  duration %.3f s  (%zu skeletal tracks, %zu rigid tracks, %zu morph channels)\n", index,
              anim.name.c_str(), seconds_from_ticks(anim.duration),
              model.skins.empty() ? std::size_t{0} : model.skins[0].data.animation_clips.count(anim.name)
                                                         ? model.skins[0].data.animation_clips.at(anim.name).tracks.size()
                                                         : std::size_t{0},
              anim.scene_clip.tracks.size(), anim.morph_channels.size());
  std::printf("%7s", "time");
  for (int j : joints) std::printf("  %-24s", (model.bones[static_cast<std::size_t>(j)].name + " (world)").c_str());
  std::printf("  %-15s  %s\n", "morph weights", "posed bounds min .. max");
  for (int f = 0; f <= kFramesPerClip; ++f) {
    const Ticks t{anim.duration.count() * f / kFramesPerClip};
    animator.update(t, false, false);
    std::printf("%7.3f", seconds_from_ticks(t));
    for (int j : joints) {
      const glm::vec3 p(animator.absolute_bone_transforms()[static_cast<std::size_t>(j)][3]);
      std::printf("  (%6.3f, %6.3f, %6.3f)  ", p.x, p.y, p.z);
    }
    const auto w = animator.morph_weights(0);
    std::printf("  %6.3f %6.3f  ", w.size() > 0 ? w[0] : 0.f, w.size() > 1 ? w[1] : 0.f);
    const BoundingBox box = posed_bounds(animator);
    std::printf("  (%6.3f, %6.3f, %6.3f) .. (%6.3f, %6.3f, %6.3f)\n", box.min.x, box.min.y, box.min.z, box.max.x,
                box.max.y, box.max.z);
  }
}

}  // namespace

int run_demo(const Args& args) {
  if (!args.empty()) {
    std::fprintf(stderr, "marrow demo: loading files needs the glTF importer; run without arguments\n");
    return 2;
  }
  const Model model = make_demo_character();
  Animator animator(model);
  std::printf("marrow demo: built-in character \"tentacle\": %zu scene nodes, %zu meshes, %zu skin (%d joints), "
              "%zu animations\n",
              model.bones.size(), model.meshes.size(), model.skins.size(), model.skins[0].data.bone_count,
              model.animations.size());
  const std::vector<int> joints = {2, 6, 10};  // Seg0, Seg4, Seg8
  for (std::size_t i = 0; i < model.animations.size(); ++i) print_clip(animator, static_cast<int>(i), joints);
  return 0;
}

}  // namespace marrow::cli
