// marrow_first_load FILE [--max-palette N] [--repeat K]: times the first load of FILE in this
// process (a fresh process: nothing of it is warm but the page cache), then K more loads, and
// prints "first <ms> warm <median ms> minflt-first <n> simd <level>" (the level last: it may hold
// spaces). Run it several times (hyperfine, or a loop) to compare a cold start with the warm
// benchmark figures, at the same SIMD level (MARROW_SIMD can lower it).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "marrow/io/model_file.hpp"
#include "marrow/runtime/simd_level.hpp"

namespace {

long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc < 2) {
    std::fprintf(stderr, "usage: marrow_first_load FILE [--max-palette N] [--repeat K]\n");
    return 2;
  }
  marrow::ModelFileOptions options;
  int repeat = 0;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--max-palette") options.import.max_palette = std::atoi(argv[i + 1]);
    if (flag == "--repeat") repeat = std::atoi(argv[i + 1]);
  }
  using Clock = std::chrono::steady_clock;
  const long faults_before = minor_faults();
  const auto start = Clock::now();
  { const marrow::Model model = marrow::load_model_file(argv[1], options); }
  const double first = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  const long first_faults = minor_faults() - faults_before;
  std::vector<double> warm;
  for (int r = 0; r < repeat; ++r) {
    const auto t = Clock::now();
    { const marrow::Model model = marrow::load_model_file(argv[1], options); }
    warm.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t).count());
  }
  std::sort(warm.begin(), warm.end());
  std::printf("first %.3f warm %.3f minflt-first %ld simd %s\n", first, warm.empty() ? 0.0 : warm[warm.size() / 2],
              first_faults, marrow::to_string(marrow::simd_choice()).c_str());
  return 0;
} catch (const std::exception& e) {  // a refused file (e.g. over the palette limit without --max-palette)
  std::fprintf(stderr, "marrow_first_load: %s\n", e.what());
  return 1;
}
