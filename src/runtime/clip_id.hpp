#pragma once
// Private: the ids that let a SamplingContext tell clips apart (RuntimeClip::id), one sequence
// for every way a clip is made.
#include <cstdint>

namespace marrow::detail {

// A fresh id, never 0.
std::uint64_t next_clip_id() noexcept;

}  // namespace marrow::detail
