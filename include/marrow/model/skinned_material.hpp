#pragma once
// The bone palette a skinned part is drawn with (the seed's SkinnedEffect bones).
//
// It starts as max_bones identity matrices, which means "every joint matrix is the identity",
// not "no skinning" (M2). Materials are shared by every instance drawn from one loaded model,
// so the palette is drawing state: each instance installs its own palette immediately before
// it is drawn (Animator::install_palettes), on the thread that draws.
#include <cstdint>
#include <span>
#include <vector>

#include <glm/mat4x4.hpp>

namespace marrow {

inline constexpr int kDefaultMaxBones = 72;

class SkinnedMaterial {
 public:
  // Throws std::invalid_argument when max_bones is not positive.
  explicit SkinnedMaterial(int max_bones = kDefaultMaxBones);

  int max_bones() const noexcept { return static_cast<int>(palette_.size()); }

  // Copies transforms into the first transforms.size() entries; the rest keep their values.
  // Throws std::invalid_argument when more than max_bones matrices are given.
  void set_bone_transforms(std::span<const glm::mat4> transforms);
  // S4: the sub-palette of a split part, entry i = palette[joints[i]] (ModelMeshPart::
  // palette_joints). Throws std::invalid_argument when more than max_bones joints are given or
  // one is not below palette.size().
  void set_bone_transforms(std::span<const glm::mat4> palette, std::span<const std::uint32_t> joints);

  std::span<const glm::mat4> bone_transforms() const noexcept { return palette_; }

  // Counts set_bone_transforms calls, so tests and renderers can see when a palette changed.
  unsigned long long install_count() const noexcept { return installs_; }

 private:
  std::vector<glm::mat4> palette_;
  unsigned long long installs_ = 0;
};

}  // namespace marrow
