#pragma once
// Private to the glTF mesh builder: the floats of one vertex attribute, read in place from the
// buffer when its bytes already are floats (the common case: no copy, nothing to free), else a
// decoded copy. Indexing and emptiness work alike for both.
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

namespace marrow::gltf {

class AttributeFloats {
 public:
  AttributeFloats() = default;
  explicit AttributeFloats(std::span<const float> in_place) : view_(in_place) {}
  explicit AttributeFloats(std::vector<float> owned) : owned_(std::move(owned)), view_(owned_) {}
  AttributeFloats(AttributeFloats&& other) noexcept { *this = std::move(other); }
  AttributeFloats& operator=(AttributeFloats&& other) noexcept {
    const bool owning = other.view_.data() == other.owned_.data();
    owned_ = std::move(other.owned_);
    view_ = owning ? std::span<const float>(owned_) : other.view_;
    other.view_ = {};
    return *this;
  }
  AttributeFloats(const AttributeFloats&) = delete;
  AttributeFloats& operator=(const AttributeFloats&) = delete;

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

}  // namespace marrow::gltf
