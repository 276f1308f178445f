#include "progress_bar.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace marrow::cli {

namespace {
constexpr int kWidth = 30;
constexpr auto kRedrawEvery = std::chrono::milliseconds(50);
}  // namespace

ProgressBar::ProgressBar(std::string label, std::size_t total)
    : label_(std::move(label)), total_(total), visible_(isatty(fileno(stderr)) == 1 && total > 1) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(std::size_t done, std::string_view item) {
  if (!visible_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && done < total_ && now - last_ < kRedrawEvery) return;
  last_ = now;
  drawn_ = true;
  const int filled = static_cast<int>(static_cast<std::size_t>(kWidth) * std::min(done, total_) / total_);
  std::fprintf(stderr, "\r%s [%s%s] %zu/%zu %-32.32s", label_.c_str(), std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(kWidth - filled), '.').c_str(), done, total_,
               std::string(item).c_str());
  std::fflush(stderr);
}

void ProgressBar::finish() {
  if (!drawn_) return;
  // Erase the bar: the summary is printed by the command on stdout.
  std::fprintf(stderr, "\r%*s\r", static_cast<int>(label_.size()) + kWidth + 60, "");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace marrow::cli
