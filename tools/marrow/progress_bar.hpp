#pragma once
// A progress bar on stderr for long work (convert of many files, GIFs, contact sheets): one line
// redrawn in place with '\r', only when stderr is a terminal; redirected to a file or a pipe it
// prints nothing, so logs hold no control characters. Not thread-safe: callers serialise.
#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace marrow::cli {

class ProgressBar {
 public:
  ProgressBar(std::string label, std::size_t total);
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar();  // ends the line if finish() was not called

  // `done` of the total are finished; `item` names the latest. Redrawn at most every 50 ms (and
  // always for the last).
  void update(std::size_t done, std::string_view item = {});
  // Clears the bar so the command's own summary line follows on a clean line.
  void finish();

  bool visible() const noexcept { return visible_; }

 private:
  std::string label_;
  std::size_t total_;
  bool visible_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace marrow::cli
