#pragma once
// GPU-ready skin palettes (S6): a skin's matrices written into caller memory in the layout a
// uniform or storage buffer wants, so each instance hands its own palette to the GPU and
// nothing per-instance is written into shared materials.
//
//   Mat4         16 floats per joint, column-major (glm's and glTF's layout): mat4 in GLSL/HLSL
//                with column-major packing
//   RowMajor3x4  12 floats per joint: the three rows of the affine part (the fourth row of an
//                affine matrix is 0 0 0 1), each row 4 floats: xyz of the row and its
//                translation; a `mat3x4`/`float3x4` row-major palette, 25 % smaller
#include <cstddef>
#include <cstdint>
#include <span>

#include <glm/mat4x4.hpp>

namespace marrow {

enum class PaletteFormat : unsigned char { Mat4, RowMajor3x4 };

constexpr std::size_t palette_floats_per_joint(PaletteFormat format) noexcept {
  return format == PaletteFormat::Mat4 ? 16 : 12;
}

// Writes palette.size() matrices into out in `format`; returns the floats written, or 0 (and
// nothing written) when out holds fewer than palette.size() * palette_floats_per_joint(format).
// Allocates nothing, never throws.
std::size_t write_gpu_palette(std::span<const glm::mat4> palette, PaletteFormat format, std::span<float> out) noexcept;

// S4: the sub-palette of a split part, entry i = palette[joints[i]]; returns the floats written,
// or 0 (nothing written) when out is too small or a joint is not below palette.size().
std::size_t write_gpu_palette(std::span<const glm::mat4> palette, std::span<const std::uint32_t> joints,
                              PaletteFormat format, std::span<float> out) noexcept;

}  // namespace marrow
