// AnimationPlayer on random SkinningData and clips: validate() and start_clip() refuse bad data
// with std::invalid_argument; accepted data plays at any times without undefined behaviour.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "marrow/runtime/animation_player.hpp"
#include "simd_choice.hpp"

namespace {

glm::mat4 matrix(FuzzedDataProvider& in) {
  glm::mat4 m(1.f);
  if (in.ConsumeBool()) {
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) m[c][r] = in.ConsumeFloatingPoint<float>();
    }
  }
  return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  marrow::fuzz::use_simd_choice_of(size);
  FuzzedDataProvider in(data, size);
  marrow::SkinningData d;
  d.bone_count = in.ConsumeIntegralInRange<int>(-3, 40);
  const auto count = [&] { return in.ConsumeBool() ? static_cast<std::size_t>(std::max(d.bone_count, 0)) : in.ConsumeIntegralInRange<std::size_t>(0, 41); };
  d.skeleton_hierarchy.resize(count());
  for (int& p : d.skeleton_hierarchy) p = in.ConsumeIntegralInRange<int>(-5, 45);
  d.bind_pose.resize(count());
  for (glm::mat4& m : d.bind_pose) m = matrix(in);
  d.inverse_bind_pose.resize(count());
  for (glm::mat4& m : d.inverse_bind_pose) m = matrix(in);
  d.skeleton_root_prefix.resize(in.ConsumeBool() ? 0 : count());
  for (glm::mat4& m : d.skeleton_root_prefix) m = matrix(in);
  marrow::AnimationClip clip;
  clip.duration = marrow::Ticks{in.ConsumeIntegral<std::int64_t>()};
  const std::size_t tracks = in.ConsumeIntegralInRange<std::size_t>(0, 8);
  for (std::size_t t = 0; t < tracks; ++t) {
    marrow::BoneTrack track;
    track.bone_index = in.ConsumeIntegralInRange<int>(-3, 45);
    const std::size_t keys = in.ConsumeIntegralInRange<std::size_t>(0, 12);
    std::int64_t time = in.ConsumeIntegralInRange<std::int64_t>(-1000000, 1000000);
    for (std::size_t k = 0; k < keys; ++k) {
      marrow::Keyframe key;
      time += in.ConsumeIntegralInRange<std::int64_t>(-10, 10000000);
      key.time = marrow::Ticks{time};
      key.translation = {in.ConsumeFloatingPoint<float>(), in.ConsumeFloatingPoint<float>(), in.ConsumeFloatingPoint<float>()};
      key.rotation = glm::quat(in.ConsumeFloatingPoint<float>(), in.ConsumeFloatingPoint<float>(),
                               in.ConsumeFloatingPoint<float>(), in.ConsumeFloatingPoint<float>());
      key.scale = {in.ConsumeFloatingPoint<float>(), 1.f, in.ConsumeFloatingPoint<float>()};
      track.keys.push_back(key);
    }
    clip.tracks.push_back(std::move(track));
  }
  try {
    marrow::AnimationPlayer player(d);
    player.start_clip(clip);
    for (int i = 0; i < 6 && in.remaining_bytes() > 0; ++i) {
      player.update(marrow::Ticks{in.ConsumeIntegral<std::int64_t>()}, in.ConsumeBool(), in.ConsumeBool());
    }
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
