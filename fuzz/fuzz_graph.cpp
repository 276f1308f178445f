// The animation graph file (AG8) from bytes; when it reads, the graph checked against the built-in
// character (clips "Wave" and "Curl" with markers, nodes Seg0..Seg8, a rigid Buoy), then played:
// a GraphInstance on an Animator, every float and bool parameter set to values taken from the
// input (now and then a non-finite one, which set() must refuse), triggers fired, and a few
// updates by times from the input (negative and huge ones too). Refusals are the documented
// exceptions (ImportError from the reader, std::invalid_argument from AnimationGraph and set());
// a played graph must leave finite poses and clip weights.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>

#include "demo/demo_character.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/graph_file.hpp"
#include "marrow/model/animation_marker.hpp"
#include "marrow/model/animation_graph.hpp"
#include "marrow/model/graph_instance.hpp"
#include "simd_choice.hpp"

namespace {

using namespace marrow;

const Model& character() {
  static const Model model = [] {
    Model m = make_demo_character();
    add_marker(m, "Wave", "splash", ticks_from_seconds(0.5));
    add_marker(m, "Wave", "start", Ticks{0});
    add_marker(m, "Curl", "splash", ticks_from_seconds(1.0));
    add_marker(m, "Curl", "start", ticks_from_seconds(2.0));
    return m;
  }();
  return model;
}

float parameter_value(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 9)) {
    case 0: return std::numeric_limits<float>::quiet_NaN();
    case 1: return std::numeric_limits<float>::infinity();
    case 2: return in.ConsumeFloatingPoint<float>();
    case 3: return in.ConsumeBool() ? 1.f : 0.f;
    default: return in.ConsumeFloatingPointInRange<float>(-5.f, 5.f);
  }
}

Ticks step(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0: return Ticks{in.ConsumeIntegral<std::int64_t>()};
    case 1: return Ticks{-in.ConsumeIntegralInRange<std::int64_t>(0, 10'000'000)};
    case 2: return Ticks{0};
    default: return Ticks{in.ConsumeIntegralInRange<std::int64_t>(0, 5'000'000)};  // up to half a second
  }
}

bool finite(const glm::mat4& m) {
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      if (!std::isfinite(m[c][r])) return false;
    }
  }
  return true;
}

void play(const std::shared_ptr<const AnimationGraph>& graph, FuzzedDataProvider& in) {
  Animator animator(character());
  GraphInstance instance(graph, animator);
  for (int round = 0; round < 6; ++round) {
    for (const GraphParameter& p : graph->parameters()) {
      if (p.type == GraphParameterType::Trigger) {
        if (in.ConsumeBool()) instance.fire(p.name);
        continue;
      }
      const float value = parameter_value(in);
      try {
        instance.set(p.name, value);
        if (!std::isfinite(value)) std::abort();  // set() refuses what is not finite
      } catch (const std::invalid_argument&) {
        if (std::isfinite(value)) std::abort();
      }
    }
    instance.update(step(in));
    for (const glm::mat4& m : animator.absolute_bone_transforms()) {
      if (!finite(m)) std::abort();
    }
    for (const GraphInstance::ClipWeight& w : instance.clip_weights()) {
      if (!std::isfinite(w.weight)) std::abort();
    }
    for (std::size_t slot = 0; slot < graph->slot_count(); ++slot) (void)instance.clip_time(slot);
    for (std::size_t place = 0; place < graph->places().size(); ++place) {
      if (!std::isfinite(instance.normalized_time(place))) std::abort();
    }
    (void)instance.state();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  marrow::fuzz::use_simd_choice_of(size);
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  GraphDescription description;
  try {
    description = parse_graph(bytes);
  } catch (const ImportError&) {
    return 0;
  }
  std::shared_ptr<const AnimationGraph> graph;
  try {
    graph = std::make_shared<const AnimationGraph>(description, character());
  } catch (const std::invalid_argument&) {
    return 0;
  }
  // The values come from the same bytes (FuzzedDataProvider takes its numbers from the end).
  FuzzedDataProvider in(data, size);
  play(graph, in);
  return 0;
}
