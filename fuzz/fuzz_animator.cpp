// The Animator's layered playback (B2-B7, R1, K1, K2) driven by random call sequences on the
// built-in character (two skins' worth of clips, a rigid node, morph weights, markers): any
// order of play / fade / stop, layer weights, masks and additive flags, rates and loop modes,
// sync groups, updates by any time (huge, negative, seeks), root motion on and off, IK chains
// with any target. Refusals are the documented exceptions (std::invalid_argument,
// std::out_of_range); everything accepted must leave finite poses, palettes and morph weights,
// and no call may crash or trip a sanitizer.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "marrow/model/animator.hpp"
#include "demo/demo_character.hpp"
#include "simd_choice.hpp"

namespace {

using namespace marrow;

const Model& character() {
  static const Model model = [] {
    Model m = make_demo_character();
    add_marker(m, "Wave", "splash", ticks_from_seconds(0.5));
    add_marker(m, "Wave", "start", Ticks{0});
    add_marker(m, "Curl", "curl", ticks_from_seconds(3.0));
    return m;
  }();
  return model;
}

float value(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0: return std::numeric_limits<float>::quiet_NaN();
    case 1: return std::numeric_limits<float>::infinity();
    case 2: return -1.f;
    case 3: return in.ConsumeFloatingPoint<float>();
    default: return in.ConsumeFloatingPointInRange<float>(0.f, 2.f);
  }
}

glm::vec3 point(FuzzedDataProvider& in) {
  if (in.ConsumeBool()) return {value(in), value(in), value(in)};
  return {in.ConsumeFloatingPointInRange<float>(-3.f, 3.f), in.ConsumeFloatingPointInRange<float>(0.f, 6.f),
          in.ConsumeFloatingPointInRange<float>(-3.f, 3.f)};
}

std::string node_name(FuzzedDataProvider& in) {
  static const char* const names[] = {"Seg0", "Seg1", "Seg2", "Seg3", "Seg4", "Seg5", "Seg6", "Seg7", "Seg8", "Buoy",
                                      "Armature", "TentacleMesh", "root", "Nope", ""};
  return names[in.ConsumeIntegralInRange<std::size_t>(0, std::size(names) - 1)];
}

bool finite(const glm::mat4& m) {
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      if (!std::isfinite(m[c][r])) return false;
    }
  }
  return true;
}

void step(FuzzedDataProvider& in, Animator& a) {
  switch (in.ConsumeIntegralInRange<int>(0, 11)) {
    case 0: {
      PlayOptions o;
      o.fade = ticks_from_seconds(in.ConsumeBool() ? in.ConsumeFloatingPointInRange<double>(0.0, 2.0) : static_cast<double>(value(in)));
      o.curve = in.ConsumeBool() ? FadeCurve::Smooth : FadeCurve::Linear;
      o.rate = in.ConsumeBool() ? in.ConsumeFloatingPointInRange<float>(-3.f, 3.f) : value(in);
      o.loop = static_cast<LoopMode>(in.ConsumeIntegralInRange<int>(0, 2));
      o.start = ticks_from_seconds(in.ConsumeBool() ? in.ConsumeFloatingPointInRange<double>(-1.0, 4.0) : in.ConsumeFloatingPoint<double>());
      o.layer = in.ConsumeIntegralInRange<std::size_t>(0, 5);
      o.sync_group = in.ConsumeIntegralInRange<int>(-1, 2);
      a.play(in.ConsumeIntegralInRange<int>(-2, 3), o);
      break;
    }
    case 1: a.stop(in.ConsumeIntegralInRange<std::size_t>(0, 6), ticks_from_seconds(in.ConsumeFloatingPointInRange<double>(0.0, 1.0))); break;
    case 2: a.set_layer_weight(in.ConsumeIntegralInRange<std::size_t>(0, 5), value(in)); break;
    case 3: {
      LayerOptions o;
      o.weight = in.ConsumeBool() ? 1.f : value(in);
      o.mask = in.ConsumeBool() ? "" : node_name(in);
      o.additive = in.ConsumeBool();
      a.set_layer(in.ConsumeIntegralInRange<std::size_t>(0, 5), o);
      break;
    }
    case 4: {
      std::vector<float> mask(in.ConsumeBool() ? character().nodes.size() : in.ConsumeIntegralInRange<std::size_t>(0, 20));
      for (float& m : mask) m = in.ConsumeBool() ? in.ConsumeFloatingPointInRange<float>(0.f, 1.f) : value(in);
      a.set_layer_mask(in.ConsumeIntegralInRange<std::size_t>(0, 5), mask);
      break;
    }
    case 5: a.set_rate(in.ConsumeIntegralInRange<std::size_t>(0, 5), value(in)); break;
    case 6: {
      const Ticks t{in.ConsumeBool() ? in.ConsumeIntegralInRange<std::int64_t>(-20'000'000, 20'000'000)
                                     : in.ConsumeIntegral<std::int64_t>()};
      a.update(t, in.ConsumeIntegralInRange<int>(0, 7) != 0, in.ConsumeIntegralInRange<int>(0, 5) != 0);
      break;
    }
    case 7:
      if (in.ConsumeBool()) {
        a.enable_root_motion({.joint = in.ConsumeBool() ? std::string() : node_name(in), .yaw = in.ConsumeBool()});
      } else {
        a.disable_root_motion();
      }
      break;
    case 8: {
      const std::size_t chain = a.add_two_bone_ik(node_name(in), node_name(in), node_name(in));
      a.set_two_bone_ik(chain, point(in), in.ConsumeFloatingPointInRange<float>(0.f, 1.f));
      break;
    }
    case 9: {
      const int first = in.ConsumeIntegralInRange<int>(0, 6);
      const std::size_t chain = a.add_two_bone_ik("Seg" + std::to_string(first), "Seg" + std::to_string(first + 1),
                                                  "Seg" + std::to_string(first + 2));
      const bool pole = in.ConsumeBool();
      a.set_two_bone_ik(chain, point(in), in.ConsumeBool() ? 1.f : value(in), pole ? std::optional(point(in)) : std::nullopt,
                        in.ConsumeBool() ? 1.f : value(in));
      break;
    }
    case 10: {
      const std::size_t aim = a.add_aim_ik(node_name(in), point(in), point(in), point(in));
      a.set_aim_ik(aim, point(in), in.ConsumeFloatingPointInRange<float>(0.f, 1.f), point(in));
      break;
    }
    default: {
      std::vector<float> out(in.ConsumeIntegralInRange<std::size_t>(0, 200));
      a.write_palette(in.ConsumeIntegralInRange<std::size_t>(0, 1), in.ConsumeBool() ? PaletteFormat::Mat4
                                                                                     : PaletteFormat::RowMajor3x4,
                      out);
      break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  marrow::fuzz::use_simd_choice_of(size);
  FuzzedDataProvider in(data, size);
  Animator a(character());
  for (int i = 0; i < 24 && in.remaining_bytes() > 0; ++i) {
    try {
      step(in, a);
    } catch (const std::invalid_argument&) {
    } catch (const std::out_of_range&) {
    }
    // Accepted calls leave a finite pose (IK targets and weights are checked when set).
    for (const glm::mat4& m : a.absolute_bone_transforms()) {
      if (!finite(m)) std::abort();
    }
    for (const glm::mat4& m : a.player(0).skin_transforms()) {
      if (!finite(m)) std::abort();
    }
    for (float w : a.morph_weights(0)) {
      if (!std::isfinite(w)) std::abort();
    }
  }
  return 0;
}
