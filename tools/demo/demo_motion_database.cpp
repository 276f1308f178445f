#include "demo/demo_motion_database.hpp"

#include <cmath>
#include <memory>

#include "demo/demo_character.hpp"

namespace marrow {

MotionDatabaseData demo_motion_database_data(const Model& model, double rate) {
  MotionDatabaseData d;
  d.rate = rate;
  d.mean.assign(kMotionFeatures, 0.f);
  d.scale.assign(kMotionFeatures, 1.f);
  const auto future = static_cast<std::size_t>(kMotionFutureFrames[2]);
  for (std::size_t a = 0; a < model.animations.size(); ++a) {
    const ModelAnimation& animation = model.animations[a];
    MotionRange r{0, static_cast<int>(a), animation.name, d.rows.size() / kMotionFeatures, 0, 0};
    r.frames = static_cast<std::size_t>(std::floor(seconds_from_ticks(animation.duration) * rate + 1e-9)) + 1;
    r.rows = r.frames > future ? r.frames - future : 0;
    for (std::size_t i = 0; i < r.rows; ++i) {
      for (std::size_t c = 0; c < kMotionFeatures; ++c) {
        const double t = static_cast<double>(i) / rate;
        d.rows.push_back(static_cast<float>(std::sin(t * (1.0 + 0.3 * static_cast<double>(c)) + static_cast<double>(a + c))));
      }
    }
    d.ranges.push_back(r);
  }
  return d;
}

Model make_demo_character_with_motion_database() {
  Model model = make_demo_character();
  model.motion_database = std::make_shared<const MotionDatabase>(demo_motion_database_data(model));
  return model;
}

}  // namespace marrow
