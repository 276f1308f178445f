#pragma once
// Every benchmark is registered through guarded(): a set-up (or an iteration) that throws then
// reports its error with State::SkipWithError and the binary goes on with the next benchmark,
// where an exception leaving the body would end the whole run in std::terminate.
#include <exception>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include <benchmark/benchmark.h>

namespace marrow::bench {

// `fn(state, args...)` as a body for benchmark::RegisterBenchmark, which keeps the name a
// benchmark had under BENCHMARK or BENCHMARK_CAPTURE. `context` names the asset or the step the
// benchmark depends on: it prefixes the error unless the message names it already.
//
// The body returns as soon as the error is reported, also from inside the timing loop: Google
// Benchmark (1.7.1) accepts a body that leaves its loop once SkipWithError was called (as a
// `break` would) and runs it no more. Single-threaded benchmarks only: a thread of ->Threads(n)
// leaving its loop this way would never reach the barrier at the loop's end.
template <class Fn, class... Args>
auto guarded(std::string context, Fn fn, Args... args) {
  return [context = std::move(context), fn, args...](benchmark::State& state) {
    std::string error;
    try {
      std::invoke(fn, state, args...);
      return;
    } catch (const std::exception& e) {
      error = e.what();
    } catch (...) {
      error = "an exception that is not a std::exception";
    }
    if (error.find(context) == std::string::npos) error = context + ": " + error;
    state.SkipWithError(error.c_str());
  };
}

// The path of a file of the shared assets (MARROW_SHARED_ASSETS); throws, for guarded() to
// report, when the folder or the file is absent.
inline std::filesystem::path shared_asset(const std::filesystem::path& relative) {
  const std::filesystem::path root = std::filesystem::path(MARROW_SHARED_ASSETS).lexically_normal();
  if (!std::filesystem::is_directory(root)) throw std::runtime_error("shared assets absent: " + root.string());
  const std::filesystem::path file = root / relative;
  if (!std::filesystem::exists(file)) throw std::runtime_error("missing asset: " + file.string());
  return file;
}

}  // namespace marrow::bench
