#include "marrow/runtime/clip_markers.hpp"

#include <algorithm>

namespace marrow {

namespace {

struct Sink {
  std::span<std::uint32_t> out;
  std::size_t count = 0;
  void put(std::size_t i) noexcept {
    if (count < out.size()) out[count] = static_cast<std::uint32_t>(i);
    ++count;
  }
};

// The markers of one pass from `from` to `to` (either direction), `from` included or not.
void pass(std::span<const Ticks> times, Ticks from, Ticks to, bool include_from, Sink& sink) noexcept {
  const auto* b = times.data();
  const auto* e = b + times.size();
  if (from <= to) {
    const auto* first = include_from ? std::lower_bound(b, e, from) : std::upper_bound(b, e, from);
    const auto* last = std::upper_bound(b, e, to);
    for (const auto* m = first; m < last; ++m) sink.put(static_cast<std::size_t>(m - b));
  } else {
    const auto* first = std::lower_bound(b, e, to);
    const auto* last = include_from ? std::upper_bound(b, e, from) : std::lower_bound(b, e, from);
    for (const auto* m = last; m > first; --m) sink.put(static_cast<std::size_t>(m - 1 - b));
  }
}

void run_once(std::span<const Ticks> times, const ClockRun& run, Sink& sink) noexcept {
  if (run.round_trip) {
    pass(times, run.from, run.to, false, sink);  // out to the turn (reached once)
    pass(times, run.to, run.from, false, sink);  // and back, arriving at `from`
  } else {
    pass(times, run.from, run.to, run.include_from, sink);
  }
}

}  // namespace

std::size_t markers_reached(std::span<const Ticks> times, const ClockStep& step, std::span<std::uint32_t> out) noexcept {
  Sink sink{out};
  if (times.empty()) return 0;
  for (std::size_t r = 0; r < step.run_count; ++r) {
    const ClockRun& run = step.runs[r];
    Sink one{{}};
    run_once(times, run, one);  // crossings per repeat
    if (one.count == 0 || run.repeat <= 0) continue;
    std::int64_t k = 0;
    for (; k < run.repeat && sink.count < out.size(); ++k) run_once(times, run, sink);
    // Repeats past the buffer are counted, not walked (a hostile step may hold 2^62 cycles).
    const auto rest = static_cast<std::uint64_t>(run.repeat - k);
    std::uint64_t total = 0;
    if (__builtin_mul_overflow(rest, static_cast<std::uint64_t>(one.count), &total) ||
        __builtin_add_overflow(static_cast<std::uint64_t>(sink.count), total, &total)) {
      total = ~std::uint64_t{0};
    }
    sink.count = static_cast<std::size_t>(total);
  }
  return sink.count;
}

}  // namespace marrow
