#pragma once
// A motion-matching database (MM1-MM3; Holden, Kanoun, Perepichka and Popa, "Learned Motion
// Matching", SIGGRAPH 2020, whose open demo's features it follows): the clips of one rig sampled
// at a fixed rate, each frame described by 27 numbers, and an exact nearest-neighbour search over
// them. Built once, offline; read by every character's matcher.
//
// The character frame at a frame: its origin is the hips projected on the ground (y = 0; models
// are Y-up), its facing the rig's forward turned with the hips, projected on the ground. The
// rig's forward is a direction fixed in the hips' frame, taken at the first frame of the first
// clip as cross(left upper leg - right upper leg, up): a rig faces where its legs say, whatever
// its file's axes or rest pose.
//
// The character frame's axes: z ahead, y up, x to the character's left (glTF's axes for a
// character facing +Z). Features of frame i, all in the character frame at i (columns in order):
//    0- 2  left foot position          3- 5  right foot position
//    6- 8  left foot velocity          9-11  right foot velocity
//   12-14  hip velocity
//   15-20  trajectory positions (x, z) at +20, +40, +60 frames (0.33, 0.67, 1 s at 60 Hz)
//   21-26  trajectory directions (x, z) at the same frames
// Velocities are central differences over the neighbouring frames (one-sided at a clip's ends),
// per second. Frames whose +60 frame runs past the end of their clip are not candidates.
//
// Normalization (MM3): each column loses its mean over the database; each group (foot
// positions, foot velocities, hip velocity, trajectory positions, trajectory directions) is
// divided by the standard deviation of all its columns' values together and multiplied by the
// group's weight, so a group's normalized values have mean 0 and standard deviation = weight.
//
// Mirroring (MM5, option): the database also holds each clip mirrored across the rig's sagittal
// plane (the plane of up and the rig's forward at the clip's first frame), as ranges after all
// the originals, in the same order. The mirrored motion is the clip sampled with its pose
// mirrored (left and right bones of the humanoid map swapped, every transform reflected), and
// its features are computed from that motion as the originals' are. They come out as the
// original's with the feet swapped and every x negated, up to float rounding.
//
// Search (MM1, MM2): the row of least squared Euclidean distance to a normalized query (ties:
// the lowest row). The accelerated search bounds runs of 16 and 64 consecutive rows by boxes,
// visits the run of 64 whose box is nearest first, then the others, and skips a run whose box is
// farther than the best row found. Both searches sum every distance with the same SIMD kernel
// (one summation order on every SIMD level), so the search returns what brute force returns,
// the same cost and the same row, on any processor. An exclusion skips the rows of one clip
// within N frames of a row (the current frame), and may skip the last rows of every clip.
//
//   MotionDatabase db({&model}, {.rate = 60});          // throws std::invalid_argument
//   std::array<float, kMotionFeatures> q = db.normalize(raw_query);
//   MotionMatch m = db.search(q, {.row = current, .frames = 20});
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "marrow/core/ticks.hpp"
#include "marrow/model/model.hpp"

namespace marrow {

inline constexpr std::size_t kMotionFeatures = 27;
inline constexpr std::size_t kMotionGroups = 5;
inline constexpr int kMotionFutureFrames[3] = {20, 40, 60};
// The first column of each group and its width.
inline constexpr std::size_t kMotionGroupStart[kMotionGroups] = {0, 6, 12, 15, 21};
inline constexpr std::size_t kMotionGroupWidth[kMotionGroups] = {6, 6, 3, 6, 6};

struct MotionDatabaseOptions {
  double rate = 60.0;                                   // frames per second, > 0
  std::vector<std::string> clips{};                     // empty: every clip of every model
  std::array<float, kMotionGroups> weights{1.f, 1.f, 1.f, 1.f, 1.f};  // per group, >= 0
  // The joints; empty: from the humanoid map (humanoid_map.hpp) of the first model.
  std::string hips{}, left_foot{}, right_foot{}, left_upper_leg{}, right_upper_leg{};
  // MM5: also hold every clip mirrored across the rig's sagittal plane (needs the humanoid map of
  // each model, which pairs the left and right bones), as ranges after the originals.
  bool mirror = false;
};

// A clip of the database: its candidate rows are [first_row, first_row + rows).
struct MotionRange {
  std::size_t model = 0;       // index into the models given
  int animation = -1;          // into that model's animations
  std::string name;
  std::size_t first_row = 0, rows = 0;
  std::size_t frames = 0;      // frames sampled (rows + 60 when the clip is long enough)
  // MM5: the clip mirrored (named "<clip> (mirrored)"; `animation` is the clip's own in the
  // models given, or the mirrored animation in a gathered model).
  bool mirrored = false;
};

struct MotionMatch {
  std::size_t row = 0;
  float cost = 0.f;            // squared Euclidean distance; +inf when no row is a candidate
};

struct MotionExclusion {
  std::size_t row = static_cast<std::size_t>(-1);  // none
  std::size_t frames = 0;      // skip rows of row's clip within this many frames of it
  std::size_t range_end = 0;   // and the last range_end rows of every clip (a matcher's room to play on)
};

// What search() keeps per query (the bounds of the runs of 64 rows), kept between searches by a
// caller that must not allocate per frame.
struct MotionSearchScratch {
  std::vector<float> bounds;
};

// The database as stored (the native format's MMDB section, docs/native-format.md): what the
// building constructor computed. The search's boxes are not stored: they are made from the rows.
struct MotionDatabaseData {
  double rate = 60.0;
  std::vector<float> mean, scale;  // kMotionFeatures each
  std::vector<float> rows;         // size() x kMotionFeatures normalized features, row after row
  std::vector<MotionRange> ranges;
};

class MotionDatabase {
 public:
  // Samples every clip asked for (all of them when options.clips is empty) of each model, which
  // must all be the same rig (the same node names from the root to the joints used). Throws
  // std::invalid_argument naming the clip, joint or option at fault (no candidate frame at all,
  // a joint not found, a non-finite value).
  MotionDatabase(std::span<const Model* const> models, const MotionDatabaseOptions& options = {});

  // A stored database (read from a file). Throws std::invalid_argument naming the field at
  // fault: a rate outside (0, 1000], a mean or scale not of 27 finite values (scales >= 0), no
  // rows or rows not whole, a non-finite feature, ranges whose rows do not follow each other
  // from row 0 to the last row, or whose rows are not their frames less 60 (0 for a short clip).
  explicit MotionDatabase(MotionDatabaseData data);
  // The stored form (a copy).
  MotionDatabaseData data() const;

  static constexpr std::size_t kRowStride = 32;  // floats per stored row: the 27 features, then zeros

  std::size_t size() const noexcept { return rows_.size() / kRowStride; }
  double rate() const noexcept { return rate_; }
  // Row i's normalized features.
  std::span<const float> row(std::size_t i) const { return std::span<const float>(rows_).subspan(i * kRowStride, kMotionFeatures); }
  std::span<const float> mean() const noexcept { return mean_; }           // per column
  std::span<const float> scale() const noexcept { return scale_; }         // per column: weight / std
  std::span<const MotionRange> ranges() const noexcept { return ranges_; }
  // The range holding row i, and the time of row i in its clip.
  const MotionRange& range_of(std::size_t row) const;
  Ticks time_of(std::size_t row) const;

  // MM5: with mirrored ranges, the row of the same frame on the other side (an original's
  // mirrored row, a mirrored row's original); without, the row itself.
  std::size_t mirror_of(std::size_t row) const;

  // Raw features (the header's columns, not normalized) to normalized ones.
  std::array<float, kMotionFeatures> normalize(std::span<const float> raw) const;

  // Allocates only without a scratch (or one that must grow).
  MotionMatch search(std::span<const float> query, const MotionExclusion& exclude = {},
                     MotionSearchScratch* scratch = nullptr) const;
  MotionMatch brute_force(std::span<const float> query, const MotionExclusion& exclude = {}) const noexcept;

 private:
  void build_boxes();
  bool excluded(std::size_t row, const MotionExclusion& exclude) const noexcept;

  double rate_ = 60.0;
  std::vector<float> mean_, scale_;
  std::vector<float> rows_;  // size() rows of kRowStride floats (the search's layout)
  std::vector<MotionRange> ranges_;
  std::vector<std::uint32_t> range_of_row_;
  // Per run of 16 (small) and 64 (large) rows: the box's lower and upper corners (32 floats).
  std::vector<float> small_min_, small_max_, large_min_, large_max_;
};

// Throws std::invalid_argument naming the range at fault when the database is not one over
// `model`'s animations (what a model's motion_database must be): every range of model 0 naming
// an animation of that name (or -1 for a range without rows) whose duration gives the range's
// frames at the database's rate.
void validate(const MotionDatabase& database, const Model& model);

}  // namespace marrow
