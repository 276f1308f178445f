#pragma once
// What an import may do: which scene, how clips are resampled, the palette policy, and the
// resource limits that keep a hostile file from taking unbounded memory or time.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "marrow/runtime/offline/clip_compression.hpp"

namespace marrow {

// Limits checked before anything is allocated; exceeding one throws ImportError
// (ImportErrorCode::LimitExceeded) naming the limit and the value.
struct ImportLimits {
  std::uint64_t max_file_bytes = 2ull << 30;         // input file or byte span
  std::uint64_t max_total_bytes = 4ull << 30;        // buffers plus decoded data, summed
  std::uint64_t max_nodes = 1'000'000;               // glTF nodes, BVH joints
  std::uint64_t max_accessor_elements = 1ull << 28;  // elements of one accessor (count)
  std::uint64_t max_animation_keys = 50'000'000;     // keys over all animation samplers
  std::uint32_t max_json_depth = 64;                 // nesting of JSON objects and arrays
};

// The one running account of what an import allocates (decoded accessors, vertices, keys) against
// ImportLimits::max_total_bytes and max_animation_keys, so many medium allocations cannot add up
// to an unbounded one. Every reader (glTF, Assimp, native) charges it before the allocation a
// charge stands for, and every refusal has one wording (the *_refusal functions).
class ImportBudget {
 public:
  explicit ImportBudget(const ImportLimits& limits) noexcept : limits_(limits) {}
  const ImportLimits& limits() const noexcept { return limits_; }
  std::uint64_t used() const noexcept { return used_; }
  std::uint64_t keys_used() const noexcept { return keys_; }
  std::uint64_t keys_left() const noexcept { return limits_.max_animation_keys - keys_; }
  bool fits(std::uint64_t bytes) const noexcept { return bytes <= limits_.max_total_bytes - used_; }
  bool fits_keys(std::uint64_t keys) const noexcept { return keys <= keys_left(); }
  // Throw ImportError(LimitExceeded) with the refusal below when the running total would pass
  // the limit; otherwise add to it.
  void charge(std::uint64_t bytes, std::string_view what);
  void charge_keys(std::uint64_t keys, std::string_view what);
  // The same refusal without charging: for keys a reader is about to make or copy and charges
  // later (resampling, a channel's longest key list).
  void require_keys(std::uint64_t keys, std::string_view what) const;
  // "<what>: N more bytes after U exceed ImportLimits::max_total_bytes (M)", and for keys alike.
  std::string bytes_refusal(std::uint64_t bytes, std::string_view what) const;
  std::string keys_refusal(std::uint64_t keys, std::string_view what) const;

 private:
  ImportLimits limits_;
  std::uint64_t used_ = 0;  // never above max_total_bytes, so the subtractions cannot wrap
  std::uint64_t keys_ = 0;  // never above max_animation_keys
};

enum class PalettePolicy {
  Refuse,      // a skin with more joints than max_palette is refused (seed 000, the default)
  LoadStatic,  // the mesh loads unskinned, with a diagnostic (seed 003)
  Split,       // the skin keeps every joint; its meshes' parts are split into sub-parts of at
               // most max_palette joints each (S4, split_skin_palettes)
};

// A policy by the name the command line (--palette) and Python (palette=) give it: "refuse",
// "static" or "split"; none for another name.
inline std::optional<PalettePolicy> palette_policy_named(std::string_view name) noexcept {
  if (name == "refuse") return PalettePolicy::Refuse;
  if (name == "static") return PalettePolicy::LoadStatic;
  if (name == "split") return PalettePolicy::Split;
  return std::nullopt;
}

// The largest ImportOptions::max_palette a tool offers: joint indices are 16-bit (and 0 would
// refuse every skin).
inline constexpr int kMaxPaletteJoints = 65536;

// The end of a palette-limit refusal (ImportErrorCode::PaletteLimit) naming what lifts it; the
// CLI says its own flags instead (--max-palette N, --palette split).
inline constexpr std::string_view kPaletteLimitRemedy = "ImportOptions::max_palette or PalettePolicy::Split lifts it";

struct ImportOptions {
  int scene = -1;                 // -1: the file's default scene, else scene 0
  int max_palette = 72;           // joints one skin (or, with Split, one part) may have (G8, S4)
  PalettePolicy palette_policy = PalettePolicy::Refuse;
  // Clip resampling (G9). With union_only the keys are exactly the union of each bone's T/R/S
  // key times (the seed's behaviour). Otherwise STEP and CUBICSPLINE channels get extra keys
  // until the linear/slerp player is within curve_tolerance of the exact curve: relative to
  // the value's magnitude for translation and scale, in radians for rotation.
  bool union_only = false;
  double curve_tolerance = 1e-6;
  // Multiplies every translation-bearing quantity (G18, apply_unit_scale); 1 keeps the file's units.
  float unit_scale = 1.f;
  // Skin influences per vertex (S1). 0 keeps every one the file has (all JOINTS_n/WEIGHTS_n sets
  // of a glTF primitive, every Assimp bone weight). N > 0 keeps each vertex's N largest weights
  // (ties: the earlier set and slot first) and renormalises them to sum to 1; a diagnostic
  // (skin-influences-reduced) counts the vertices that lost a nonzero weight.
  std::uint32_t max_influences = 0;
  // Compresses every skeletal clip (compress_model_clips) within this tolerance, in the model's
  // units after unit_scale; none: clips stay as authored.
  std::optional<ClipCompression> compression;
  ImportLimits limits;
};

// Throws std::invalid_argument naming the first field out of its range, before an importer
// reads a byte (every importer calls it): scene below -1, max_palette outside
// [1, kMaxPaletteJoints], curve_tolerance or unit_scale not positive and finite, compression
// refused by compression_refusal. The limits take any value (0 refuses everything).
void check_import_options(const ImportOptions& options);

}  // namespace marrow
