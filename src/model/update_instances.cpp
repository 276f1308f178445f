#include "marrow/model/update_instances.hpp"

namespace marrow {

void update_instances(std::span<Animator> animators, Ticks time, ThreadPool* pool, bool relative_to_current_time,
                      bool loop) {
  const auto range = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) animators[i].update(time, relative_to_current_time, loop);
  };
  if (pool == nullptr) {
    range(0, animators.size());
  } else {
    pool->parallel_for(animators.size(), range);
  }
}

}  // namespace marrow
