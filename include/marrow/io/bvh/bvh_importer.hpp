#pragma once
// BVH motion capture (Biovision hierarchy) -> Model, read by marrow itself (Assimp refuses
// skeleton-only files). The model has the shape of a skeleton-only FBX or Collada import:
//   - node 0 is the synthetic root; BVH joint j (file order, parents first) is node j + 1, named
//     as in the file; each End Site is a leaf node named "<parent>_end" holding its OFFSET;
//   - one skin whose joints are every node but the synthetic root (palette index = node - 1), no
//     meshes; bind pose = the OFFSETs with zero rotations;
//   - one JointPalette clip (when Frames > 0) named after the file's stem (the clip naming rule),
//     keyed at every frame: frame i at i * Frame Time (rounded to Ticks), duration
//     (Frames - 1) * Frame Time.
// Conventions (docs/formats.md, "BVH"): channels in any order and number (0 to 6, each at most
// once); rotation R = R_first * R_second * R_third in the listed order (column vectors, degrees);
// position channels replace the OFFSET components they name; quaternion keys are made
// hemisphere-consistent so Euler wraps across +-180 degrees interpolate the short way; units
// and axes stay the file's.
// Refused files throw ImportError naming the line and what is wrong (InvalidDocument for the
// text, InvalidAnimation for non-finite numbers and bad Frame Time, LimitExceeded for
// ImportLimits and the nesting limit).
//
// Thread safety: no shared state; calls may run concurrently.
#include <cstddef>
#include <filesystem>
#include <span>
#include <string_view>

#include "marrow/io/import_options.hpp"
#include "marrow/model/model.hpp"

namespace marrow {

// Deepest joint nesting a BVH file may have (ROOT is depth 1).
inline constexpr int kMaxBvhDepth = 256;

// clip_name: the clip's name before the naming rule (empty: "animation_0").
Model import_bvh(std::span<const std::byte> bytes, const ImportOptions& options = {}, std::string_view clip_name = {});
// The file through the one file reader; the clip is named after the file's stem and every
// refusal starts with the path.
Model import_bvh(const std::filesystem::path& path, const ImportOptions& options = {});

}  // namespace marrow
