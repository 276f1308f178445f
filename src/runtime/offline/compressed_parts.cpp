// pack (compressed_parts.hpp): the arrays one after another, the 32-byte-aligned lanes first.
#include "compressed_parts.hpp"

#include <cstring>
#include <limits>
#include <stdexcept>

namespace marrow::detail {

namespace {

// Lays the arrays out (`out` null: only sizes them), then copies them (out set).
class Layout {
 public:
  explicit Layout(std::byte* out) : out_(out) {}
  template <class T>
  Stored<T> add(const std::vector<T>& v) {
    bytes_ = (bytes_ + alignof(T) - 1) / alignof(T) * alignof(T);
    const std::size_t size = v.size() * sizeof(T);
    if (bytes_ + size > std::numeric_limits<std::uint32_t>::max() || v.size() > std::numeric_limits<std::uint32_t>::max())
      throw std::invalid_argument("compressed clip: its storage exceeds 4 GiB");
    Stored<T> at{static_cast<std::uint32_t>(bytes_), static_cast<std::uint32_t>(v.size())};
    if (out_ != nullptr && size != 0) std::memcpy(out_ + bytes_, v.data(), size);
    bytes_ += size;
    return at;
  }
  std::size_t bytes() const noexcept { return bytes_; }

 private:
  std::byte* out_;
  std::size_t bytes_ = 0;
};

template <class F>
void lay_out(const CompressedParts& p, CompressedStorage& s, F&& layout) {  // segment_data last (buffer_bytes)
  s.constants_ = layout.add(p.constants);
  s.animated_ = layout.add(p.animated);
  s.wide = layout.add(p.wide);
  s.words_ = layout.add(p.words);
  s.since = layout.add(p.since);
  s.blocks_ = layout.add(p.blocks);
  s.segmented_ = layout.add(p.segmented);
  s.ranges_ = layout.add(p.ranges);
  s.starts_ = layout.add(p.starts);
  s.packed_ = layout.add(p.packed);
  s.segment_data_ = layout.add(p.segment_data);
}

std::uint32_t narrow(std::size_t n, const char* what) {
  if (n > std::numeric_limits<std::uint32_t>::max()) throw std::invalid_argument(std::string("compressed clip: too many ") + what);
  return static_cast<std::uint32_t>(n);
}

}  // namespace

std::shared_ptr<const CompressedStorage> pack(const CompressedParts& p) {
  auto s = std::make_shared<CompressedStorage>();
  Layout sizing(nullptr);
  lay_out(p, *s, sizing);
  const std::size_t bytes = sizing.bytes();
  s->buffer.reset(bytes == 0 ? nullptr : new (std::align_val_t{kStorageAlignment}) std::byte[bytes]);
  Layout copy(s->buffer.get());
  lay_out(p, *s, copy);
  s->first = p.first;
  s->grid_step = p.grid.step;
  s->grid_phase = p.grid.phase;
  s->time_count = narrow(p.time_count, "times");
  s->rest = p.rest;
  s->words_per_channel = narrow(p.words_per_channel, "directory words");
  s->joints = narrow(p.joints, "joints");
  s->keys = narrow(p.keys, "keys");
  s->segments = narrow(p.segments, "segments");
  return s;
}

}  // namespace marrow::detail
