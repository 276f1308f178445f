#include "native_motion_database_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "marrow/model/motion_database.hpp"

namespace marrow::native {

namespace {

void read_columns(SectionReader& r, std::vector<float>& out, const char* field) {
  r.fits(field, kMotionFeatures, 4);
  r.copy_into(out, kMotionFeatures, field);
}

}  // namespace

void read_motion_database(SectionReader& r, Model& model) {
  static_assert(kMotionRowBytes == kMotionFeatures * sizeof(float));
  MotionDatabaseData d;
  d.rate = r.scalar<double>("rate");
  const std::uint64_t columns = r.u64("feature count");
  if (columns != kMotionFeatures)
    r.fail(ImportErrorCode::InvalidDocument, "feature count " + std::to_string(columns) + " is not " + std::to_string(kMotionFeatures));
  read_columns(r, d.mean, "mean");
  read_columns(r, d.scale, "scale");
  const std::size_t ranges = object_count(r, "range count", kMotionRangeMinBytes);
  d.ranges.resize(ranges);
  for (std::size_t k = 0; k < ranges; ++k) {
    const auto scope = r.enter("range", k);
    MotionRange& range = d.ranges[k];
    range.name = r.string("name");
    range.animation = r.i32("animation");
    if (range.animation < -1 || range.animation >= static_cast<int>(model.animations.size()))
      r.fail(ImportErrorCode::IndexOutOfRange, "animation " + std::to_string(range.animation) + " names no animation (there are " +
                                                   std::to_string(model.animations.size()) + ")");
    range.first_row = static_cast<std::size_t>(r.u64("first_row"));
    range.rows = static_cast<std::size_t>(r.u64("rows"));
    range.frames = static_cast<std::size_t>(r.u64("frames"));
  }
  const std::size_t rows = r.count("row count", r.limits().max_accessor_elements, "ImportLimits::max_accessor_elements", kMotionRowBytes);
  r.copy_into(d.rows, rows * kMotionFeatures, "rows");
  // MM5: a database with mirrored ranges ends with a flag per range (the writer leaves it out
  // otherwise, so such files are what they were; a reader before it refuses the bytes left).
  if (r.remaining() > 0) {
    r.fits("mirrored flags", ranges, 1);
    for (std::size_t k = 0; k < ranges; ++k) {
      const auto scope = r.enter("range", k);
      d.ranges[k].mirrored = r.flag("mirrored");
    }
  }
  // What the database makes of them (motion_database.hpp): the search's padded rows, its boxes
  // (about 20 bytes a row) and each row's range.
  r.charge("rows padded for the search", std::uint64_t{rows} * (MotionDatabase::kRowStride * sizeof(float) + 24) + 1024);
  try {
    auto database = std::make_shared<const MotionDatabase>(std::move(d));
    validate(*database, model);
    model.motion_database = std::move(database);
  } catch (const std::invalid_argument& e) {
    r.fail(ImportErrorCode::InvalidDocument, e.what());
  }
}

}  // namespace marrow::native
