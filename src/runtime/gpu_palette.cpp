#include "marrow/runtime/gpu_palette.hpp"

#include <cstring>

namespace marrow {

namespace {

// Row r of the 3x4: m[0][r], m[1][r], m[2][r], m[3][r] (column-major source). A plain loop the
// compiler unrolls; a 200-joint palette takes well under a microsecond.
void write_rows(const glm::mat4& matrix, float* o) noexcept {
  const float* m = &matrix[0][0];
  for (int r = 0; r < 3; ++r) {
    o[4 * r + 0] = m[r];
    o[4 * r + 1] = m[4 + r];
    o[4 * r + 2] = m[8 + r];
    o[4 * r + 3] = m[12 + r];
  }
}

}  // namespace

std::size_t write_gpu_palette(std::span<const glm::mat4> palette, PaletteFormat format, std::span<float> out) noexcept {
  const std::size_t per = palette_floats_per_joint(format);
  const std::size_t n = palette.size();
  if (out.size() / per < n) return 0;
  if (n == 0) return 0;
  float* o = out.data();
  if (format == PaletteFormat::Mat4) {
    std::memcpy(o, &palette[0][0][0], n * 16 * sizeof(float));
    return n * 16;
  }
  for (std::size_t j = 0; j < n; ++j, o += 12) write_rows(palette[j], o);
  return n * 12;
}

std::size_t write_gpu_palette(std::span<const glm::mat4> palette, std::span<const std::uint32_t> joints,
                              PaletteFormat format, std::span<float> out) noexcept {
  const std::size_t per = palette_floats_per_joint(format);
  const std::size_t n = joints.size();
  if (out.size() / per < n || n == 0) return 0;
  for (const std::uint32_t j : joints) {
    if (j >= palette.size()) return 0;
  }
  float* o = out.data();
  for (std::size_t i = 0; i < n; ++i, o += per) {
    if (format == PaletteFormat::Mat4) {
      std::memcpy(o, &palette[joints[i]][0][0], 16 * sizeof(float));
    } else {
      write_rows(palette[joints[i]], o);
    }
  }
  return n * per;
}

}  // namespace marrow
