#pragma once
// Private: which keys of one channel a compressed clip keeps (clip_compression.cpp).
//
// The channel's source values at consecutive times, and the candidate keys (the same values as
// the clip would store them, quantised). Kept: the first and the last, and greedily, from each
// kept key, the farthest next one such that interpolating between the two candidates (lerp;
// rotations: the shorter-arc slerp) stays within the tolerance of every source value between
// them. The distance: Euclidean for translations, the largest component for scales, the angle
// for rotations (radians).
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec4.hpp>

namespace marrow::detail {

enum class ChannelKind : std::uint8_t { Translation = 0, Rotation = 1, Scale = 2 };

// Distance between two values of a channel of that kind (rotations: x, y, z, w).
double channel_distance(ChannelKind kind, const glm::dvec4& a, const glm::dvec4& b) noexcept;

// a and b blended at p (rotations: the shorter-arc slerp of the normalised quaternions).
glm::dvec4 channel_blend(ChannelKind kind, const glm::dvec4& a, const glm::dvec4& b, double p) noexcept;

// Indices (increasing, first 0, last n - 1) of the kept samples; n = times.size() > 0.
std::vector<std::uint32_t> reduce_keys(ChannelKind kind, std::span<const std::int64_t> times,
                                       std::span<const glm::dvec4> source, std::span<const glm::dvec4> candidates,
                                       double tolerance);

}  // namespace marrow::detail
