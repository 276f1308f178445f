#pragma once
// The native reader's cursor over one section (docs/native-format.md): bounds-checked scalar,
// string and record reads, counts checked against their limits and against the bytes left before
// anything is allocated, decoded bytes and keys charged to the import's budget, and refusals that
// name the section and the objects being read. Private to src/io/native.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "marrow/core/import_error.hpp"
#include "marrow/io/import_options.hpp"
#include "marrow/runtime/keyframe.hpp"
#include "native_layout.hpp"

namespace marrow::native {

[[noreturn]] inline void refuse(ImportErrorCode code, const std::string& message) {
  throw ImportError(code, "native: " + message);
}

// Decodes consecutive fixed-size records straight into a vector's storage (vector::assign with a
// random-access range allocates once and constructs each element from *it), so nothing is
// zero-filled first and then overwritten.
template <class T, std::size_t Bytes, T (*Decode)(const std::byte*)>
class RecordIterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = T;

  explicit RecordIterator(const std::byte* p) : p_(p) {}
  T operator*() const { return Decode(p_); }
  RecordIterator& operator++() {
    p_ += Bytes;
    return *this;
  }
  RecordIterator operator++(int) {
    RecordIterator old = *this;
    p_ += Bytes;
    return old;
  }
  RecordIterator& operator--() {
    p_ -= Bytes;
    return *this;
  }
  RecordIterator operator--(int) {
    RecordIterator old = *this;
    p_ -= Bytes;
    return old;
  }
  RecordIterator& operator+=(difference_type n) {
    p_ += n * static_cast<difference_type>(Bytes);
    return *this;
  }
  RecordIterator& operator-=(difference_type n) { return *this += -n; }
  RecordIterator operator+(difference_type n) const { return RecordIterator(*this) += n; }
  RecordIterator operator-(difference_type n) const { return RecordIterator(*this) -= n; }
  friend RecordIterator operator+(difference_type n, const RecordIterator& it) { return it + n; }
  difference_type operator-(const RecordIterator& o) const { return (p_ - o.p_) / static_cast<difference_type>(Bytes); }
  T operator[](difference_type n) const { return *(*this + n); }
  bool operator==(const RecordIterator& o) const { return p_ == o.p_; }
  auto operator<=>(const RecordIterator& o) const { return p_ <=> o.p_; }

 private:
  const std::byte* p_;
};

template <class T>
T load_value(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// A keyframe record: i64 time, f32 translation xyz, rotation xyzw, scale xyz (48 bytes): the
// memory image of Keyframe (glm stores a quaternion x, y, z, w), so each record is one copy.
static_assert(std::is_trivially_copyable_v<Keyframe> && sizeof(Keyframe) == kKeyframeBytes &&
              offsetof(Keyframe, time) == 0 && offsetof(Keyframe, translation) == 8 &&
              offsetof(Keyframe, rotation) == 20 && offsetof(Keyframe, scale) == 36 &&
              offsetof(glm::quat, x) == 0 && offsetof(glm::quat, w) == 12);
inline Keyframe load_keyframe(const std::byte* p) {
  Keyframe k;
  std::memcpy(static_cast<void*>(&k), p, kKeyframeBytes);
  return k;
}

template <class T, std::size_t Bytes, T (*Decode)(const std::byte*)>
void decode_records(std::vector<T>& out, const std::byte* p, std::size_t n) {
  using It = RecordIterator<T, Bytes, Decode>;
  out.assign(It(p), It(p + n * Bytes));
}

// Reads one section's payload. Errors name the section and the objects being read (a small
// stack of "label index" frames, formatted only when something is refused).
class SectionReader {
 public:
  SectionReader(std::span<const std::byte> file, std::size_t begin, std::size_t end, std::uint32_t tag,
                ImportBudget& budget, std::uint32_t version)
      : file_(file), pos_(begin), end_(end), tag_(tag), budget_(budget), version_(version) {}

  // The file's version (kNativeOldestVersion..kNativeVersion): records differ between them.
  std::uint32_t version() const noexcept { return version_; }

  class Scope {
   public:
    explicit Scope(SectionReader& r) : r_(r) {}
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    ~Scope() { --r_.depth_; }

   private:
    SectionReader& r_;
  };
  // Names the object being read until the returned scope ends.
  [[nodiscard]] Scope enter(const char* label, std::uint64_t index) {
    if (depth_ < frames_.size()) frames_[depth_] = Frame{label, index};
    ++depth_;
    return Scope(*this);
  }

  [[noreturn]] void fail(ImportErrorCode code, const std::string& what) const {
    std::string where = "section '" + tag_name(tag_) + "'";
    for (std::size_t i = 0; i < depth_ && i < frames_.size(); ++i) {
      where += ' ';
      where += frames_[i].label;
      where += ' ';
      where += std::to_string(frames_[i].index);
    }
    refuse(code, where + ": " + what);
  }

  std::size_t remaining() const noexcept { return end_ - pos_; }

  // The next n bytes; refuses (InvalidContainer) when fewer remain.
  const std::byte* take(std::size_t n, const char* field) {
    if (n > remaining()) {
      fail(ImportErrorCode::InvalidContainer, std::string(field) + " needs " + std::to_string(n) + " bytes at offset " +
                                                  std::to_string(pos_) + ", only " + std::to_string(remaining()) +
                                                  " remain in the section");
    }
    const std::byte* p = file_.data() + pos_;
    pos_ += n;
    return p;
  }

  template <class T>
  T scalar(const char* field) {
    static_assert(std::is_arithmetic_v<T>);
    T v;
    std::memcpy(&v, take(sizeof(T), field), sizeof(T));
    return v;
  }
  std::uint8_t u8(const char* field) { return scalar<std::uint8_t>(field); }
  std::uint32_t u32(const char* field) { return scalar<std::uint32_t>(field); }
  int i32(const char* field) { return scalar<std::int32_t>(field); }
  std::uint64_t u64(const char* field) { return scalar<std::uint64_t>(field); }
  std::int64_t i64(const char* field) { return scalar<std::int64_t>(field); }
  float f32(const char* field) { return scalar<float>(field); }

  bool flag(const char* field) {
    const std::uint8_t v = u8(field);
    if (v > 1) fail(ImportErrorCode::InvalidDocument, std::string(field) + " is " + std::to_string(v) + ", not 0 or 1");
    return v == 1;
  }

  // An enum stored as u8: refuses values above last.
  template <class E>
  E enumeration(const char* field, E last) {
    const std::uint8_t v = u8(field);
    if (v > static_cast<std::uint8_t>(last)) {
      fail(ImportErrorCode::InvalidDocument, std::string(field) + " " + std::to_string(v) + " is not a known value");
    }
    return static_cast<E>(v);
  }

  std::string string(const char* field) {
    const std::uint32_t n = u32(field);
    if (n > kNativeMaxStringBytes) {
      fail(ImportErrorCode::LimitExceeded, std::string(field) + " length " + std::to_string(n) + " exceeds " +
                                               std::to_string(kNativeMaxStringBytes) + " bytes");
    }
    const std::byte* p = take(n, field);
    return std::string(reinterpret_cast<const char*>(p), n);
  }

  void limit(const char* field, std::uint64_t n, std::uint64_t max, const char* limit_name) const {
    if (n <= max) return;
    std::string what = std::string(field) + " " + std::to_string(n) + " exceeds ";
    what += limit_name ? std::string(limit_name) + " (" + std::to_string(max) + ")" : std::to_string(max);
    fail(ImportErrorCode::LimitExceeded, what);
  }

  // Refuses n records of at least record_bytes each when they cannot fit in what remains.
  void fits(const char* field, std::uint64_t n, std::size_t record_bytes) const {
    if (record_bytes == 0 || n <= remaining() / record_bytes) return;
    fail(ImportErrorCode::InvalidContainer, std::string(field) + " " + std::to_string(n) + " needs " +
                                                std::to_string(n) + " x " + std::to_string(record_bytes) +
                                                " bytes at offset " + std::to_string(pos_) + ", only " +
                                                std::to_string(remaining()) + " remain in the section");
  }

  // A u64 count, checked against its limit and the bytes that remain, before any allocation.
  std::size_t count(const char* field, std::uint64_t max, const char* limit_name, std::size_t record_bytes) {
    const std::uint64_t n = u64(field);
    limit(field, n, max, limit_name);
    fits(field, n, record_bytes);
    return static_cast<std::size_t>(n);
  }

  // Decoded data and keys count against the import's one budget; a refusal names the section.
  void charge(const char* field, std::uint64_t bytes) {
    if (!budget_.fits(bytes)) fail(ImportErrorCode::LimitExceeded, budget_.bytes_refusal(bytes, field));
    budget_.charge(bytes, field);
  }

  void charge_keys(const char* field, std::uint64_t n) {
    if (!budget_.fits_keys(n)) fail(ImportErrorCode::LimitExceeded, budget_.keys_refusal(n, field));
    budget_.charge_keys(n, field);
  }

  // n elements whose file encoding is their memory image, copied in one go (n already checked).
  template <class T>
  void copy_into(std::vector<T>& out, std::size_t n, const char* field) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::byte* p = take(n * sizeof(T), field);
    charge(field, n * sizeof(T));
    if constexpr (std::is_same_v<T, std::byte>) {
      out.assign(p, p + n);
    } else {
      decode_records<T, sizeof(T), load_value<T>>(out, p, n);
    }
  }

  // A u64 count (at most max_accessor_elements) followed by that many elements.
  template <class T>
  void array(std::vector<T>& out, const char* field) {
    const std::size_t n = count(field, budget_.limits().max_accessor_elements, "ImportLimits::max_accessor_elements",
                                sizeof(T));
    copy_into(out, n, field);
  }

  const ImportLimits& limits() const noexcept { return budget_.limits(); }

  void finish() const {
    if (pos_ != end_) {
      fail(ImportErrorCode::InvalidContainer,
           std::to_string(remaining()) + " bytes left over at offset " + std::to_string(pos_) + " after its content");
    }
  }

 private:
  struct Frame {
    const char* label;
    std::uint64_t index;
  };

  std::span<const std::byte> file_;
  std::size_t pos_;
  std::size_t end_;
  std::uint32_t tag_;
  ImportBudget& budget_;
  std::uint32_t version_;
  std::array<Frame, 6> frames_{};
  std::size_t depth_ = 0;
};

// Object counts (materials, meshes, parts, clips, ...) are capped by max_nodes.
inline std::size_t object_count(SectionReader& r, const char* field, std::size_t min_record_bytes) {
  return r.count(field, r.limits().max_nodes, "ImportLimits::max_nodes", min_record_bytes);
}

// Sections with one entry per skin open with the count, which must be SKIN's.
inline void read_skin_count(SectionReader& r, const Model& model) {
  const std::uint64_t n = r.u64("skin count");
  if (n != model.skins.size()) {
    r.fail(ImportErrorCode::InvalidDocument,
           "skin count " + std::to_string(n) + " differs from section 'SKIN' (" + std::to_string(model.skins.size()) + ")");
  }
}

}  // namespace marrow::native
