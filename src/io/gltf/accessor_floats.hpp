#pragma once
// Private to the glTF importer: the floats of one accessor (a vertex attribute, an animation
// sampler's output), read in place from the buffer when its bytes already are floats (the common
// case: no copy, nothing to free), else a decoded copy. Indexing and emptiness work alike for
// both.
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "marrow/io/gltf/detail/accessor_reader.hpp"

namespace marrow::gltf {

class AccessorFloats {
 public:
  AccessorFloats() = default;
  explicit AccessorFloats(std::span<const float> in_place) : view_(in_place) {}
  explicit AccessorFloats(std::vector<float> owned) : owned_(std::move(owned)), view_(owned_) {}
  AccessorFloats(AccessorFloats&& other) noexcept { *this = std::move(other); }
  AccessorFloats& operator=(AccessorFloats&& other) noexcept {
    const bool owning = other.view_.data() == other.owned_.data();
    owned_ = std::move(other.owned_);
    view_ = owning ? std::span<const float>(owned_) : other.view_;
    other.view_ = {};
    return *this;
  }
  AccessorFloats(const AccessorFloats&) = delete;
  AccessorFloats& operator=(const AccessorFloats&) = delete;

  bool empty() const noexcept { return view_.empty(); }
  std::size_t size() const noexcept { return view_.size(); }
  const float& operator[](std::size_t i) const noexcept { return view_[i]; }
  std::span<const float> values() const noexcept { return view_; }
  void clear() noexcept {
    owned_.clear();
    view_ = {};
  }
  // A vector the caller may change (a copy when the values were read in place).
  std::vector<float> take() && {
    if (view_.data() != owned_.data()) return std::vector<float>(view_.begin(), view_.end());
    view_ = {};
    return std::move(owned_);
  }

 private:
  std::vector<float> owned_;
  std::span<const float> view_;
};

// Accessor `accessor`'s floats (normalized integers decoded): in place when it can be read so
// (accessor_floats_in_place), else a copy charged to the budget. Throws as read_accessor_floats.
inline AccessorFloats read_accessor_floats(const GltfAsset& asset, std::uint32_t accessor, ImportBudget& budget) {
  if (const std::optional<std::span<const float>> in_place = accessor_floats_in_place(asset, accessor)) {
    return AccessorFloats(*in_place);
  }
  std::vector<float> copy;
  read_accessor_floats(asset, accessor, budget, copy);
  return AccessorFloats(std::move(copy));
}

}  // namespace marrow::gltf
