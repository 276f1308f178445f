// blend_morph_targets on random carriers: validate() refuses the inconsistent ones with
// std::invalid_argument; the accepted ones blend with any weights (a wrong count is the
// documented std::runtime_error) without touching memory they do not own.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "marrow/runtime/blend_morph_targets.hpp"
#include "marrow/runtime/morph_target_data.hpp"
#include "simd_choice.hpp"

namespace {

glm::vec3 vec3(FuzzedDataProvider& in) {
  return {in.ConsumeFloatingPoint<float>(), in.ConsumeFloatingPoint<float>(), in.ConsumeFloatingPoint<float>()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  marrow::fuzz::use_simd_choice_of(size);
  FuzzedDataProvider in(data, size);
  marrow::MorphTargetData m;
  m.layout.stride = in.ConsumeIntegralInRange<std::uint32_t>(0, 96);
  for (std::int32_t& offset : m.layout.offsets) offset = in.ConsumeIntegralInRange<std::int32_t>(-2, 96);
  const std::size_t vertices = in.ConsumeIntegralInRange<std::size_t>(0, 64);
  m.base_vertex_bytes.resize(vertices * m.layout.stride + in.ConsumeIntegralInRange<std::size_t>(0, 3));
  for (std::byte& b : m.base_vertex_bytes) b = static_cast<std::byte>(in.ConsumeIntegral<std::uint8_t>());
  const std::size_t targets = in.ConsumeIntegralInRange<std::size_t>(0, 6);
  const auto deltas = [&](std::vector<std::vector<glm::vec3>>& out, bool may_skip) {
    if (may_skip && in.ConsumeBool()) return;
    const std::size_t outer = in.ConsumeBool() ? targets : in.ConsumeIntegralInRange<std::size_t>(0, 7);
    out.resize(outer);
    for (auto& inner : out) {
      const std::size_t n = in.ConsumeBool() ? 0 : (in.ConsumeBool() ? vertices : in.ConsumeIntegralInRange<std::size_t>(0, 70));
      for (std::size_t v = 0; v < n; ++v) inner.push_back(vec3(in));
    }
  };
  deltas(m.position_deltas, false);
  deltas(m.normal_deltas, true);
  deltas(m.tangent_deltas, true);
  m.recompute_flat_normals = in.ConsumeBool();
  const std::size_t indices = in.ConsumeIntegralInRange<std::size_t>(0, 30);
  for (std::size_t i = 0; i < indices; ++i) m.triangle_indices.push_back(in.ConsumeIntegralInRange<std::uint32_t>(0, 70));
  try {
    marrow::validate(m);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  std::vector<float> weights(in.ConsumeBool() ? m.target_count() : in.ConsumeIntegralInRange<std::size_t>(0, 8));
  for (float& w : weights) w = in.ConsumeFloatingPoint<float>();
  std::vector<std::byte> out(m.base_vertex_bytes.size());
  try {
    marrow::blend_morph_targets(m, weights, out);
  } catch (const std::runtime_error&) {
    if (weights.size() == m.target_count()) throw;  // only the weight count may be refused
  }
  return 0;
}
