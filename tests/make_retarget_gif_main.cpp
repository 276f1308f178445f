// marrow_retarget_gif SHARED_ASSETS OUT.gif [SHEET.png]: docs/images/retarget_jumping.gif, rendered by marrow's
// own renderer: AnimatedDrawings' "jumping" motion capture (BVH, Z-up, inches; MIT) retargeted
// onto two different rigs side by side, KayKit's chibi mannequin (glTF, metres) and
// ProAnimationBank's skeleton (FBX), with automatic bone maps and the feet pinned (RT7).
// SHEET.png: four of its frames one above the other, to look at without a GIF viewer.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "marrow/io/model_file.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/retarget_clips.hpp"
#include "marrow/render/camera.hpp"
#include "marrow/render/model_renderer.hpp"
#include "marrow/render/png_file.hpp"
#include "presentation/caption.hpp"
#include "presentation/gif_file.hpp"

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: marrow_retarget_gif SHARED_ASSETS OUT.gif [SHEET.png]\n");
    return 2;
  }
  using namespace marrow;
  const std::filesystem::path assets = argv[1];
  const Model source = load_model_file(assets / "bvh/animateddrawings/jumping.bvh");
  const char* targets[] = {"gltf/KayKitRigMedium/manny_med_mod.gltf", "fbx/pab/skeleton.fbx"};
  const char* captions[] = {"KayKit (glTF)", "ProAnimationBank (FBX)"};
  constexpr int kSide = 240, kFrames = 44;
  constexpr double kFps = 8.0;
  std::vector<render::Image> frames(kFrames, render::Image(2 * kSide, kSide));
  for (int panel = 0; panel < 2; ++panel) {
    const Model target = load_model_file(assets / targets[panel]);
    const RetargetMap map(source, target);
    const Model out = retarget_clips(source, target, map, {.clips = {"jumping"}, .feet_ik = true});
    Animator animator(out);
    animator.play("jumping");
    // The camera in front of the character (its facing in the first frame), turned 30 degrees,
    // framing the posed vertices of every frame (not the nodes: the FBX holds cameras far away).
    const auto at = [&](HumanoidBone bone) {
      return glm::vec3(animator.absolute_bone_transforms()[static_cast<std::size_t>(map.target_humanoid().node(bone))][3]);
    };
    const glm::vec3 forward = glm::cross(at(HumanoidBone::Head) - at(HumanoidBone::Hips),
                                         at(HumanoidBone::RightUpperLeg) - at(HumanoidBone::LeftUpperLeg));
    const Ticks duration = out.animations[static_cast<std::size_t>(out.find_animation("jumping"))].duration;
    const auto time_of = [&](int f) { return Ticks{duration.count() * f / (kFrames - 1)}; };
    BoundingBox box;
    for (int f = 0; f < kFrames; ++f) {
      animator.update(time_of(f), false, false);
      const BoundingBox b = animator.bounds();
      box.extend(b.min);
      box.extend(b.max);
    }
    render::CameraFraming framing;
    framing.angles = {glm::degrees(std::atan2(forward.x, forward.z)) - 30.f, 10.f};
    const render::Camera camera = render::frame_camera(box, framing);
    render::ModelRenderer renderer(out);
    for (int f = 0; f < kFrames; ++f) {
      animator.update(time_of(f), false, false);
      render::RenderSettings settings;
      settings.width = settings.height = kSide;
      render::Image image;
      renderer.render(animator, camera, settings, image);
      presentation::draw_frame_caption(image, captions[panel]);
      frames[static_cast<std::size_t>(f)].blit(image, panel * kSide, 0);
    }
  }
  presentation::write_gif(frames, kFps, argv[2]);
  if (argc == 4) {
    render::Image sheet(2 * kSide, 4 * kSide);
    for (int k = 0; k < 4; ++k) sheet.blit(frames[static_cast<std::size_t>(k * (kFrames - 1) / 3)], 0, k * kSide);
    render::write_png(sheet, argv[3]);
  }
  std::printf("marrow_retarget_gif: wrote %s (%d frames)\n", argv[2], kFrames);
  return 0;
}
