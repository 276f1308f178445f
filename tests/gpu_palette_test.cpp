// S6: an instance hands out each skin's palette as GPU data into caller memory, from a const
// instance, with nothing written into the shared Model; the seed's install_palettes route
// (M1, M2) stays as it is.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "marrow/model/animator.hpp"
#include "demo/demo_character.hpp"
#include "marrow/runtime/gpu_palette.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

TEST(GpuPalette, S6_Mat4IsColumnMajorAndRowMajor3x4HoldsTheThreeAffineRows) {
  glm::mat4 m(1.f);
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 3; ++r) m[c][r] = static_cast<float>(10 * c + r);  // m[c][r]: column c, row r
  }
  const std::vector<glm::mat4> palette = {glm::mat4(1.f), m};
  std::vector<float> mat4(32, -1.f), rows(24, -1.f);
  EXPECT_EQ(write_gpu_palette(palette, PaletteFormat::Mat4, mat4), 32u);
  EXPECT_EQ(write_gpu_palette(palette, PaletteFormat::RowMajor3x4, rows), 24u);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(mat4[16 + static_cast<std::size_t>(i)], m[i / 4][i % 4]);
  // Row r: (m[0][r], m[1][r], m[2][r], translation m[3][r]).
  const float expected[12] = {0, 10, 20, 30, 1, 11, 21, 31, 2, 12, 22, 32};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(rows[12 + static_cast<std::size_t>(i)], expected[i]) << i;
  const float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(rows[static_cast<std::size_t>(i)], identity[i]) << i;
  // Too small: nothing written.
  std::vector<float> small(23, -1.f);
  EXPECT_EQ(write_gpu_palette(palette, PaletteFormat::RowMajor3x4, small), 0u);
  for (float v : small) EXPECT_EQ(v, -1.f);
}

TEST(GpuPalette, S6_EachInstanceHandsOutItsOwnPaletteWithoutTouchingTheModel) {
  const Model model = make_demo_character();
  Animator a(model), b(model);
  a.play("Wave");
  b.play("Curl");
  a.update(ticks_from_seconds(0.5));
  b.update(ticks_from_seconds(1.0));
  const auto shared = model.meshes[0].parts[0].skinned_material->bone_transforms();
  const std::vector<glm::mat4> shared_before(shared.begin(), shared.end());
  const Animator& ca = a;  // a const instance is enough
  std::vector<float> pa(9 * 12), pb(9 * 12);
  EXPECT_EQ(ca.write_palette(0, PaletteFormat::RowMajor3x4, pa), 9u * 12u);
  EXPECT_EQ(b.write_palette(0, PaletteFormat::RowMajor3x4, pb), 9u * 12u);
  EXPECT_NE(pa, pb);
  for (std::size_t j = 0; j < 9; ++j) {
    const glm::mat4& m = a.player(0).skin_transforms()[j];
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 4; ++c) EXPECT_EQ(pa[12 * j + 4 * static_cast<std::size_t>(r) + static_cast<std::size_t>(c)], m[c][r]);
    }
  }
  const auto after = model.meshes[0].parts[0].skinned_material->bone_transforms();
  EXPECT_TRUE(std::equal(after.begin(), after.end(), shared_before.begin(), shared_before.end())) << "M1: nothing installed";
  std::vector<float> small(10);
  EXPECT_TRUE(test::throws_with<std::invalid_argument>([&] { a.write_palette(0, PaletteFormat::Mat4, small); },
                                                       {"144 floats", "10"}));
  EXPECT_THROW(a.write_palette(5, PaletteFormat::Mat4, pa), std::out_of_range);
}

}  // namespace
}  // namespace marrow
