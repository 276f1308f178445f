#pragma once
// Many instances in one call (X5): Animator::update(time, relative, loop) on every animator,
// spread over a thread pool. Each animator is touched by one thread only and instances share
// nothing they write, so the poses are those of updating them one by one, bit for bit.
#include <span>

#include "marrow/core/ticks.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/runtime/thread_pool.hpp"

namespace marrow {

// pool == nullptr: on the calling thread. Allocates nothing.
void update_instances(std::span<Animator> animators, Ticks time, ThreadPool* pool, bool relative_to_current_time = true,
                      bool loop = true);

}  // namespace marrow
