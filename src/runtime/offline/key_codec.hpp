#pragma once
// Private: the scalar side of compressed keys (compressed_clip_data.hpp), shared by the
// compressor, the reconstruction and the checks: bit packing, rotations as their smallest three
// components, and the dequantisation in the float arithmetic the sampling kernel uses (a fused
// multiply-add where the kernel has one; the two agree within a float rounding either way).
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace marrow::detail {

// A unit rotation (x, y, z, w) without its largest-magnitude component, the sign chosen so that
// the dropped component is positive (q and -q are one rotation).
struct SmallestThree {
  int dropped;
  double kept[3];  // the other components, in x, y, z, w order
};

inline SmallestThree smallest_three(const double* q) noexcept {
  SmallestThree out{0, {0, 0, 0}};
  for (int c = 1; c < 4; ++c) {
    if (std::fabs(q[c]) > std::fabs(q[out.dropped])) out.dropped = c;
  }
  const double sign = q[out.dropped] < 0 ? -1.0 : 1.0;
  int k = 0;
  for (int c = 0; c < 4; ++c) {
    if (c != out.dropped) out.kept[k++] = q[c] * sign;
  }
  return out;
}

// A constant channel's one key (no bits) as the compressor stores a value (x, y, z; a rotation
// x, y, z, w): translation and scale components as floats; a rotation's smallest three as
// floats and the dropped component.
struct ConstantKey {
  float value[3];
  std::uint8_t dropped;
};

inline ConstantKey constant_key(bool rotation, const double* v) noexcept {
  if (!rotation) return {{static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2])}, 0};
  const SmallestThree s = smallest_three(v);
  return {{static_cast<float>(s.kept[0]), static_cast<float>(s.kept[1]), static_cast<float>(s.kept[2])},
          static_cast<std::uint8_t>(s.dropped)};
}

inline float dequantise(std::uint32_t q, float min, float step) noexcept {
  return std::fma(static_cast<float>(q), step, min);
}

// Precision `level` (0 to 18) for a component of range r when the widest component's is
// `widest`: the fewest bits whose step, r over 2^bits - 1, is at most widest over 2^level - 1
// (none for a component that does not vary, or level 0).
inline unsigned level_bits(double r, double widest, unsigned level) noexcept {
  if (level == 0 || !(r > 0)) return 0;
  const double target = widest / static_cast<double>((std::uint32_t{1} << level) - 1);
  unsigned bits = 1;
  while (bits < level && r / static_cast<double>((std::uint32_t{1} << bits) - 1) > target) ++bits;
  return bits;
}

// A segment's range (compressed_clip_data.hpp): its low end and step from the channel's range and
// the segment's 255ths, in the float arithmetic the sampling kernel uses.
inline constexpr float kSegmentUnit = 1.f / 255.f;
inline float segment_low(float min, float extent, std::uint8_t low) noexcept {
  return std::fma(extent, static_cast<float>(low) * kSegmentUnit, min);
}
inline float segment_step(float extent, std::uint8_t range, unsigned bits) noexcept {
  return bits == 0 ? 0.f : extent * (static_cast<float>(range) * kSegmentUnit) / static_cast<float>((std::uint32_t{1} << bits) - 1);
}

// The rotation (x, y, z, w) of three dequantised components and the dropped index.
inline void rotation_of_smallest_three(int dropped, float a, float b, float c, float* q) noexcept {
  const float rest = 1.f - (std::fma(a, a, b * b) + c * c);
  const float d = std::sqrt(rest > 0.f ? rest : 0.f);
  const float kept[3] = {a, b, c};
  int k = 0;
  for (int i = 0; i < 4; ++i) q[i] = i == dropped ? d : kept[k++];
}

// One key's integers: three fields of bits[0], bits[1], bits[2] bits, then (rotations) two bits
// of dropped index.
struct PackedKey {
  std::uint32_t q[3];
  std::uint32_t dropped;
};

// Appends keys to a channel's bytes, little-endian, back to back.
class KeyPacker {
 public:
  explicit KeyPacker(std::vector<std::uint8_t>& out) : out_(out) {}
  void put(std::uint64_t value, unsigned bits) {
    for (unsigned i = 0; i < bits; ++i, ++position_) {
      if (position_ % 8 == 0) out_.push_back(0);
      out_.back() = static_cast<std::uint8_t>(out_.back() | ((value >> i) & 1u) << (position_ % 8));
    }
  }
  void put_key(const PackedKey& key, const std::array<std::uint8_t, 3>& bits, bool rotation) {
    for (std::size_t c = 0; c < 3; ++c) put(key.q[c], bits[c]);
    if (rotation) put(key.dropped, 2);
  }

 private:
  std::vector<std::uint8_t>& out_;
  std::size_t position_ = 0;
};

// Key k of a channel's bytes (bytes must hold it). A uniform channel's y and z repeat x.
inline PackedKey unpack_key(std::span<const std::uint8_t> bytes, std::size_t k, const std::array<std::uint8_t, 3>& bits,
                            bool uniform, bool rotation) noexcept {
  const std::size_t width = std::size_t{bits[0]} + bits[1] + bits[2] + (rotation ? 2u : 0u);
  const std::size_t first = k * width;
  std::uint64_t raw = 0;
  for (std::size_t i = 0; i < width; ++i) {
    const std::size_t bit = first + i;
    raw |= static_cast<std::uint64_t>((bytes[bit / 8] >> (bit % 8)) & 1u) << i;
  }
  PackedKey key{};
  unsigned shift = 0;
  for (std::size_t c = 0; c < 3; ++c) {
    key.q[c] = static_cast<std::uint32_t>((raw >> shift) & ((std::uint64_t{1} << bits[c]) - 1));
    shift += bits[c];
  }
  if (uniform) key.q[1] = key.q[2] = key.q[0];
  key.dropped = rotation ? static_cast<std::uint32_t>((raw >> shift) & 3u) : 0u;
  return key;
}

}  // namespace marrow::detail
