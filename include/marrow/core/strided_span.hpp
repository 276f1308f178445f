#pragma once
// A view of `count` values of T, `stride` bytes apart, possibly unaligned (interleaved vertex
// bytes). Loads and stores go through memcpy, which compilers turn into plain moves.
#include <cstddef>
#include <cstring>
#include <span>
#include <type_traits>

namespace marrow {

template <class T>
class StridedSpan {
  using Byte = std::conditional_t<std::is_const_v<T>, const std::byte, std::byte>;
  using Value = std::remove_const_t<T>;

 public:
  StridedSpan() = default;
  StridedSpan(Byte* data, std::size_t count, std::size_t stride) : data_(data), count_(count), stride_(stride) {}
  // A tightly packed array.
  StridedSpan(std::span<T> values)  // NOLINT(google-explicit-constructor): spans convert freely
      : data_(reinterpret_cast<Byte*>(values.data())), count_(values.size()), stride_(sizeof(T)) {}

  std::size_t size() const noexcept { return count_; }
  bool empty() const noexcept { return count_ == 0; }
  std::size_t stride() const noexcept { return stride_; }
  Byte* data() const noexcept { return data_; }

  Value load(std::size_t i) const noexcept {
    Value v;
    std::memcpy(&v, data_ + i * stride_, sizeof(Value));
    return v;
  }
  void store(std::size_t i, const Value& v) const noexcept
    requires(!std::is_const_v<T>)
  {
    std::memcpy(data_ + i * stride_, &v, sizeof(Value));
  }

 private:
  Byte* data_ = nullptr;
  std::size_t count_ = 0;
  std::size_t stride_ = sizeof(T);
};

}  // namespace marrow
