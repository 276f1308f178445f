#pragma once
// An explicit retarget bone map (RT1) as a JSON file: one object whose members pair a target
// node name with a source node name or a humanoid bone name (VRM 1.0's, e.g. "leftUpperArm"):
//
//   {"upperarm.l": "LeftArm", "lowerarm.l": "leftLowerArm", "hips": "Hips"}
//
// Names are compared exactly (they are node names); what they resolve to is RetargetMap's
// business (model/retarget_map.hpp). The file is hostile input: it is size-checked and read
// once (file_bytes.hpp), nested JSON is refused, and every refusal is an ImportError naming
// what is wrong (docs/errors.md).
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "marrow/io/import_options.hpp"

namespace marrow {

using BoneMapEntries = std::vector<std::pair<std::string, std::string>>;

// Throws ImportError: EmptyFile, InvalidJson (not JSON, or nested deeper than an object of
// strings), InvalidDocument (not an object; a value that is not a string; an empty name; a
// target named twice; more than kMaxBoneMapEntries members), and read_file's codes.
BoneMapEntries read_bone_map_file(const std::filesystem::path& path, const ImportLimits& limits = {});
// `where` starts every message (the file's path when read from a file).
BoneMapEntries parse_bone_map(std::span<const std::byte> json, const ImportLimits& limits = {},
                              std::string_view where = "bone map");

inline constexpr std::size_t kMaxBoneMapEntries = 4096;

}  // namespace marrow
