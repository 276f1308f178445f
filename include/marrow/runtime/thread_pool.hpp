#pragma once
// A fixed set of worker threads for posing many instances at once (X5). The calling thread
// takes part, so a pool of N threads starts N - 1 workers. Work is split into contiguous
// ranges claimed one after another; each index is done by exactly one thread, so results are
// those of a single thread whenever the work for one index touches only its own state.
//
//   ThreadPool pool(2);
//   pool.parallel_for(animators.size(), [&](std::size_t begin, std::size_t end) {
//     for (std::size_t i = begin; i < end; ++i) animators[i].update(dt);
//   });
//
// parallel_for allocates nothing and returns when every range is done; the function must not
// throw (an exception escaping it terminates the process). One parallel_for at a time per pool.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace marrow {

class ThreadPool {
 public:
  // threads: how many threads work, the caller included (0: the hardware's count).
  explicit ThreadPool(std::size_t threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  std::size_t thread_count() const noexcept { return workers_.size() + 1; }

  template <class F>
  void parallel_for(std::size_t count, const F& fn) {
    run(count, [](const void* f, std::size_t b, std::size_t e) { (*static_cast<const F*>(f))(b, e); }, &fn);
  }

 private:
  using Trampoline = void (*)(const void*, std::size_t, std::size_t);
  void run(std::size_t count, Trampoline trampoline, const void* fn);
  void work();      // claim ranges of the current job until none is left
  void worker_main();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::uint64_t generation_ = 0;  // guarded by mutex_: a new job
  bool stopping_ = false;
  std::size_t busy_ = 0;          // guarded by mutex_: workers still in the current job
  // The current job (written before the generation is bumped, read by workers after).
  Trampoline trampoline_ = nullptr;
  const void* fn_ = nullptr;
  std::size_t count_ = 0, grain_ = 1;
  std::atomic<std::size_t> next_{0};
};

}  // namespace marrow
