#pragma once
// A view of `count` values of T, `stride` bytes apart, possibly unaligned (interleaved vertex
// bytes). Loads and stores go through memcpy, which compilers turn into plain moves.
//
// A span of small vectors (glm::u16vec4, glm::vec4, ...) also converts to a view of their
// components' type: element i is then the first component of vector i, and its other
// components follow it. Rows of several values per vertex (the skinning job's joint indices and
// weights, S1) are viewed this way.
#include <cstddef>
#include <cstring>
#include <span>
#include <type_traits>

namespace marrow {

namespace detail {
// U is a vector of components V packed without padding (glm::vec<L, V>: value_type, length()).
template <class U, class V>
concept RowOf = requires { typename U::value_type; U::length(); } &&
                std::is_same_v<std::remove_const_t<typename U::value_type>, std::remove_const_t<V>> &&
                !std::is_same_v<std::remove_const_t<U>, std::remove_const_t<V>> &&
                sizeof(U) == static_cast<std::size_t>(U::length()) * sizeof(V) && std::is_trivially_copyable_v<U>;
}  // namespace detail

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
  // Rows: a span of vectors of T (e.g. std::span<const glm::u16vec4> as rows of std::uint16_t).
  template <class U>
    requires(detail::RowOf<std::remove_const_t<U>, T> && (std::is_const_v<T> || !std::is_const_v<U>))
  StridedSpan(std::span<U> rows)  // NOLINT(google-explicit-constructor)
      : data_(reinterpret_cast<Byte*>(rows.data())), count_(rows.size()), stride_(sizeof(U)) {}
  template <class U>
    requires(detail::RowOf<std::remove_const_t<U>, T> && (std::is_const_v<T> || !std::is_const_v<U>))
  StridedSpan(const StridedSpan<U>& rows)  // NOLINT(google-explicit-constructor)
      : data_(rows.data()), count_(rows.size()), stride_(rows.stride()) {}

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
