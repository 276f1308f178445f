#include "marrow/runtime/thread_pool.hpp"

#include <algorithm>

namespace marrow {

ThreadPool::ThreadPool(std::size_t threads) {
  if (threads == 0) threads = std::max<std::size_t>(1, std::thread::hardware_concurrency());
  workers_.reserve(threads - 1);
  for (std::size_t i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_main(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::work() {
  for (;;) {
    const std::size_t begin = next_.fetch_add(grain_, std::memory_order_relaxed);
    if (begin >= count_) return;
    trampoline_(fn_, begin, std::min(count_, begin + grain_));
  }
}

void ThreadPool::worker_main() {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    work();
    {
      std::lock_guard lock(mutex_);
      if (--busy_ == 0) done_.notify_one();
    }
  }
}

void ThreadPool::run(std::size_t count, Trampoline trampoline, const void* fn) {
  if (count == 0) return;
  if (workers_.empty()) {
    trampoline(fn, 0, count);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    trampoline_ = trampoline;
    fn_ = fn;
    count_ = count;
    // Several ranges per thread balance uneven work; ranges of a few items keep claims cheap.
    grain_ = std::max<std::size_t>(1, count / (thread_count() * 8));
    next_.store(0, std::memory_order_relaxed);
    busy_ = workers_.size();
    ++generation_;
  }
  wake_.notify_all();
  work();
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
}

}  // namespace marrow
