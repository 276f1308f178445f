#pragma once
// Private: the one rule for naming imported animations (glTF, Assimp and BVH alike), so a clip can
// be asked for by name: the file's name, or "animation_<i>" when it has none; a name already
// taken gets "_<i>" appended, then "_2", "_3", ... until it is free.
#include <cstddef>
#include <set>
#include <string>
#include <string_view>

namespace marrow::detail {

inline std::string unique_clip_name(std::string_view given, std::size_t index, const std::set<std::string>& used) {
  std::string name = given.empty() ? "animation_" + std::to_string(index) : std::string(given);
  if (used.count(name) == 0) return name;
  const std::string base = name + "_" + std::to_string(index);
  name = base;
  for (int k = 2; used.count(name) != 0; ++k) name = base + "_" + std::to_string(k);
  return name;
}

}  // namespace marrow::detail
