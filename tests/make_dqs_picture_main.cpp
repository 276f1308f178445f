// marrow_dqs_picture OUT.png: docs/images/dqs_candy_wrapper.png, rendered by marrow's own
// renderer from the twisted-cylinder fixture (twisted_cylinders.hpp): two frames side by side,
// the chains' second joints turned 90 and 180 degrees; in each, the left cylinder skinned by
// linear blending, the right one by dual quaternions (S3).
#include <cstdio>
#include <string>

#include "marrow/model/animator.hpp"
#include "marrow/render/camera.hpp"
#include "marrow/render/model_renderer.hpp"
#include "marrow/render/png_file.hpp"
#include "presentation/caption.hpp"
#include "twisted_cylinders.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: marrow_dqs_picture OUT.png\n");
    return 2;
  }
  using namespace marrow;
  using C = test::TwistedCylinders;
  const Model model = test::twisted_cylinders();
  Animator animator(model);
  animator.play("Twist");
  BoundingBox box;
  box.extend(glm::vec3(-C::kSpacing - C::kRadius, 0.f, -C::kRadius));
  box.extend(glm::vec3(C::kSpacing + C::kRadius, C::kHeight, C::kRadius));
  constexpr int kSide = 440;
  render::CameraFraming framing;
  framing.angles = {15.f, 12.f};
  const render::Camera camera = render::frame_camera(box, framing);
  render::ModelRenderer renderer(model);
  render::Image sheet(2 * kSide, kSide);
  for (int frame = 0; frame < 2; ++frame) {
    const int degrees = frame == 0 ? 90 : 180;
    animator.update(ticks_from_seconds(degrees / 90.0), false, false);
    render::RenderSettings settings;
    settings.width = settings.height = kSide;
    render::Image image;
    renderer.render(animator, camera, settings, image);
    presentation::draw_frame_caption(image, std::to_string(degrees) + " deg: linear | dual quat.");
    sheet.blit(image, frame * kSide, 0);
  }
  render::write_png(sheet, argv[1]);
  std::printf("marrow_dqs_picture: wrote %s (%dx%d)\n", argv[1], sheet.width(), sheet.height());
  return 0;
}
