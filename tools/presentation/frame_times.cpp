#include "presentation/frame_times.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace marrow {

Ticks spread_frame_time(Ticks duration, int index, int count) noexcept {
  if (count <= 1 || index <= 0) return Ticks{0};
  const std::int64_t d = duration.count(), steps = count - 1, i = index;
  return Ticks{d / steps * i + d % steps * i / steps};
}

int frame_count_at_rate(Ticks duration, double fps, int max_frames) {
  if (!(fps > 0.0 && fps <= 1000.0)) throw std::invalid_argument("frame rate " + std::to_string(fps) + " is outside (0, 1000]");
  const double frames = std::round(seconds_from_ticks(duration) * fps);
  if (frames > max_frames) {
    throw std::invalid_argument("a " + std::to_string(seconds_from_ticks(duration)) + " s clip at " + std::to_string(fps) +
                                " frames per second needs " + std::to_string(frames) + " frames; at most " +
                                std::to_string(max_frames));
  }
  return frames < 1.0 ? 1 : static_cast<int>(frames);
}

}  // namespace marrow
