#pragma once
// Which times of a clip the pictures show, in ticks (exact integer arithmetic): the CLI's sheets
// and GIFs, the Python module's frame sampling. A game picks its own times, so this is not part
// of the library.
#include "marrow/core/ticks.hpp"

namespace marrow {

// Frame `index` of `count` frames spread evenly over [0, duration], both ends included; a single
// frame shows time 0. Rounds down to a tick; never overflows. Requires 0 <= index < count.
Ticks spread_frame_time(Ticks duration, int index, int count) noexcept;

// How many frames a looping clip gets at `fps` frames per second: duration * fps rounded to
// nearest (the frame at `duration` would repeat frame 0), at least 1. Throws
// std::invalid_argument when fps is not in (0, 1000] or the count would exceed max_frames.
int frame_count_at_rate(Ticks duration, double fps, int max_frames);

}  // namespace marrow
