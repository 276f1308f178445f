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

// segment_data last: its end is the buffer's (buffer_bytes).
template <class F>
void lay_out(const CompressedParts& p, CompressedStorage& s, F&& layout) {
  s.constants_.offset = layout.add(p.constants).offset;
  s.animated_ = layout.add(p.animated);
  if (!p.wide.empty()) s.times_.offset = layout.add(p.wide).offset;
  s.words_.offset = layout.add(p.words).offset;
  if (!p.since.empty()) s.times_.offset = layout.add(p.since).offset;
  s.blocks_.offset = layout.add(p.blocks).offset;
  s.segmented_ = layout.add(p.segmented);
  s.patched_.offset = layout.add(p.patched).offset;
  s.ranges_.offset = layout.add(p.ranges).offset;
  s.starts_.offset = layout.add(p.starts).offset;
  s.animated_joints_.offset = layout.add(p.animated_joints).offset;
  s.packed_.offset = layout.add(p.packed).offset;
  s.segment_data_ = layout.add(p.segment_data);
}

// The strides some segmented lane uses (bit s: stride s), from each segment's shape row.
std::uint8_t strides_used(const CompressedParts& p) {
  unsigned used = 0;
  for (const SegmentedLanes& sl : p.segmented) {
    for (std::size_t g = 0; g < p.segments; ++g) {
      const std::uint8_t* shape = p.segment_data.data() + p.starts[sl.segments + g] + 9 * std::size_t{sl.count};
      for (std::size_t m = 0; m < sl.count; ++m) used |= 1u << (shape[m] & 15u);
    }
  }
  return static_cast<std::uint8_t>(used & ((1u << (kSegmentMaxStride + 1)) - 1));
}

template <class T>
T narrow(std::size_t n, const char* what) {
  if (n > std::numeric_limits<T>::max()) throw std::invalid_argument(std::string("compressed clip: too many ") + what);
  return static_cast<T>(n);
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
  s->time_form = !p.since.empty() ? kShortTimes : !p.wide.empty() ? kWideTimes : kGridTimes;
  s->grid_step = p.grid.step;
  s->grid_phase = p.grid.phase;
  s->time_count = narrow<std::uint16_t>(p.time_count, "times");
  s->rest = p.rest;
  s->words_per_channel = narrow<std::uint16_t>(p.words_per_channel, "directory words");
  s->joints = narrow<std::uint32_t>(p.joints, "joints");
  s->keys = narrow<std::uint32_t>(p.keys, "keys");
  s->pose = !p.patched.empty();
  s->strides = strides_used(p);
  return s;
}

}  // namespace marrow::detail
