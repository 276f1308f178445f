#pragma once
// The Bandai locomotion set of the shared assets (bvh/bandai-locomotion: 24 BVH clips of one
// 22-joint rig, each file one clip, in centimetres), loaded once per unit scale in file-name
// order, as motion-matching tests use it. Empty when the shared assets are absent: callers skip.
#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <vector>

#include "marrow/io/model_file.hpp"
#include "shared_assets.hpp"

namespace marrow::test {

inline const std::filesystem::path kBandaiFolder = kAssets / "bvh" / "bandai-locomotion";

// unit_scale 0.01 gives metres, what the motion matcher's distances are in.
inline std::vector<const Model*> bandai_locomotion(float unit_scale) {
  static std::map<float, std::vector<std::unique_ptr<Model>>> loaded;
  auto [it, inserted] = loaded.try_emplace(unit_scale);
  if (inserted && std::filesystem::is_directory(kBandaiFolder)) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(kBandaiFolder))
      if (entry.path().extension() == ".bvh") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    ModelFileOptions options;
    options.import.unit_scale = unit_scale;
    for (const auto& f : files) it->second.push_back(std::make_unique<Model>(load_model_file(f, options)));
  }
  std::vector<const Model*> out;
  for (const auto& m : it->second) out.push_back(m.get());
  return out;
}

}  // namespace marrow::test
