#pragma once
// What a palette's matrices do besides rotating and translating (S2, S3), found once per frame
// per palette so that the skinning job picks the cheapest correct kernel:
//
//   Rigid       every 3x3 part is a rotation (unit, orthogonal columns, determinant > 0)
//   Uniform     every 3x3 part is a rotation, or a mirror, times one scale factor: the blended
//               matrix maps normals to the right directions (as marrow always did)
//   NonUniform  some matrix scales unevenly or shears: normals need the inverse transpose
//
// Detect (the skinning job's default) asks the job to classify the palette itself in run()
// (O(joints), vectorised by the compiler: about a nanosecond per matrix); a caller that shares
// one palette between several jobs classifies it once and passes the result.
#include <cstdint>
#include <span>

#include <glm/mat4x4.hpp>

namespace marrow {

enum class PaletteScale : std::uint8_t { Detect, Rigid, Uniform, NonUniform };

// Relative tolerance on the squared column lengths and on the columns' dot products (relative
// to the largest squared length). Below it a normal computed with the blended matrix differs
// from the inverse transpose's by less than about 1e-5 radians, and a "rigid" matrix moves a
// vertex by less than 1e-5 of its distance from the joint; float palettes made of rotations and
// translations stay near 1e-7.
inline constexpr float kPaletteScaleTolerance = 2e-5f;

// The most general kind among the matrices (translations and fourth rows are not looked at); a
// matrix with a NaN or an infinity is NonUniform. Never Detect; Rigid for an empty palette.
PaletteScale classify_palette_scale(std::span<const glm::mat4> palette) noexcept;

}  // namespace marrow
