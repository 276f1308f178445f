// MotionDatabase's stored form (model/motion_database.hpp): a database read back from a file is
// checked field by field, since the search and the matcher index by every number in it.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "marrow/model/motion_database.hpp"

namespace marrow {

namespace {

constexpr std::size_t kFuture = static_cast<std::size_t>(kMotionFutureFrames[2]);

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument("MotionDatabase: " + what); }

void check_columns(const std::vector<float>& values, const char* field, bool non_negative) {
  if (values.size() != kMotionFeatures)
    refuse(std::string(field) + " has " + std::to_string(values.size()) + " values, not " + std::to_string(kMotionFeatures));
  for (std::size_t c = 0; c < kMotionFeatures; ++c) {
    if (!std::isfinite(values[c]) || (non_negative && values[c] < 0.f))
      refuse(std::string(field) + " column " + std::to_string(c) + " is " + std::to_string(values[c]) +
             (non_negative ? ", not a finite value >= 0" : ", not finite"));
  }
}

// The ranges cover the rows in order, each holding its frames less the 60 of the last future.
void check_ranges(const std::vector<MotionRange>& ranges, std::size_t rows) {
  std::size_t next = 0;
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    const MotionRange& r = ranges[k];
    const std::string where = "range " + std::to_string(k) + " ('" + r.name.substr(0, 64) + "'): ";
    if (r.first_row != next)
      refuse(where + "first_row " + std::to_string(r.first_row) + " is not " + std::to_string(next) + ", where the previous range ends");
    if (r.rows > rows - next)
      refuse(where + "rows " + std::to_string(r.rows) + " from row " + std::to_string(next) + " run past the " + std::to_string(rows) + " rows");
    const std::size_t expected = r.frames > kFuture ? r.frames - kFuture : 0;
    if (r.rows != expected)
      refuse(where + "rows " + std::to_string(r.rows) + " are not its frames " + std::to_string(r.frames) + " less " + std::to_string(kFuture));
    next += r.rows;
  }
  if (next != rows) refuse("the ranges hold " + std::to_string(next) + " rows, the database " + std::to_string(rows));
  // MM5: mirrored ranges are the second half, each the mirror of the range half the count before
  // (what MotionDatabase::mirror_of relies on).
  if (ranges.empty() || !ranges.back().mirrored) {
    for (std::size_t k = 0; k < ranges.size(); ++k)
      if (ranges[k].mirrored) refuse("range " + std::to_string(k) + " is mirrored but the last range is not");
    return;
  }
  const std::size_t half = ranges.size() / 2;
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    const MotionRange& r = ranges[k];
    const std::string where = "range " + std::to_string(k) + " ('" + r.name.substr(0, 64) + "'): ";
    if (r.mirrored != (k >= ranges.size() - half) || ranges.size() % 2 != 0)
      refuse(where + "mirrored ranges must be the second half of the " + std::to_string(ranges.size()) + " ranges");
    if (k >= half && (r.rows != ranges[k - half].rows || r.frames != ranges[k - half].frames))
      refuse(where + "its rows or frames are not those of range " + std::to_string(k - half) + ", the clip it mirrors");
  }
}

}  // namespace

MotionDatabase::MotionDatabase(MotionDatabaseData data) : rate_(data.rate) {
  if (!(rate_ > 0.0 && rate_ <= 1000.0)) refuse("rate " + std::to_string(rate_) + " is not in (0, 1000] frames per second");
  check_columns(data.mean, "mean", false);
  check_columns(data.scale, "scale", true);
  if (data.rows.empty() || data.rows.size() % kMotionFeatures != 0)
    refuse(std::to_string(data.rows.size()) + " feature values are not a whole number (> 0) of rows of " + std::to_string(kMotionFeatures));
  const std::size_t rows = data.rows.size() / kMotionFeatures;
  const auto bad = std::find_if(data.rows.begin(), data.rows.end(), [](float x) { return !std::isfinite(x); });
  if (bad != data.rows.end()) {
    const auto at = static_cast<std::size_t>(bad - data.rows.begin());
    refuse("row " + std::to_string(at / kMotionFeatures) + " column " + std::to_string(at % kMotionFeatures) + " is not finite");
  }
  check_ranges(data.ranges, rows);
  mean_ = std::move(data.mean);
  scale_ = std::move(data.scale);
  ranges_ = std::move(data.ranges);
  rows_.assign(rows * kRowStride, 0.f);
  for (std::size_t r = 0; r < rows; ++r)
    std::copy_n(data.rows.data() + r * kMotionFeatures, kMotionFeatures, rows_.data() + r * kRowStride);
  range_of_row_.resize(rows);
  for (std::size_t k = 0; k < ranges_.size(); ++k)
    std::fill_n(range_of_row_.begin() + static_cast<std::ptrdiff_t>(ranges_[k].first_row), ranges_[k].rows, static_cast<std::uint32_t>(k));
  build_boxes();
}

MotionDatabaseData MotionDatabase::data() const {
  MotionDatabaseData d{rate_, mean_, scale_, {}, ranges_};
  d.rows.resize(size() * kMotionFeatures);
  for (std::size_t r = 0; r < size(); ++r) std::copy_n(rows_.data() + r * kRowStride, kMotionFeatures, d.rows.data() + r * kMotionFeatures);
  return d;
}

void validate(const MotionDatabase& database, const Model& model) {
  const std::span<const MotionRange> ranges = database.ranges();
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    const MotionRange& r = ranges[k];
    const std::string where = "MotionDatabase: range " + std::to_string(k) + " ('" + r.name.substr(0, 64) + "'): ";
    if (r.model != 0) throw std::invalid_argument(where + "model " + std::to_string(r.model) + " is not 0, the model holding the database");
    if (r.animation == -1 && r.rows == 0) continue;
    if (r.animation < 0 || static_cast<std::size_t>(r.animation) >= model.animations.size())
      throw std::invalid_argument(where + "animation " + std::to_string(r.animation) + " names no animation (there are " +
                                  std::to_string(model.animations.size()) + ")");
    const ModelAnimation& a = model.animations[static_cast<std::size_t>(r.animation)];
    if (a.name != r.name) throw std::invalid_argument(where + "animation " + std::to_string(r.animation) + " is named '" + a.name.substr(0, 64) + "'");
    // The building constructor's count of frames: the clip sampled at the rate from time 0 to its end.
    const double expected = std::floor(seconds_from_ticks(a.duration) * database.rate() + 1e-9) + 1.0;
    if (!(expected == static_cast<double>(r.frames)))
      throw std::invalid_argument(where + "frames " + std::to_string(r.frames) + " are not those of animation " + std::to_string(r.animation) +
                                  " (" + std::to_string(seconds_from_ticks(a.duration)) + " s at " + std::to_string(database.rate()) + " Hz)");
  }
}

}  // namespace marrow
