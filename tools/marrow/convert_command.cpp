// `marrow convert IN... OUT [--unit-scale S] [--jobs N] [--ticks-per-second T]`: converts models
// to marrow's native format (OUT.marrow) or to glTF (OUT.glb, OUT.gltf). With several inputs,
// OUT is a folder (created when missing) that receives <name>.marrow for each; they are
// converted in parallel with a progress bar on stderr. Unit scale applies to translations,
// translation keys and morph position deltas only (G18).
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "loaded_file.hpp"
#include "marrow/io/gltf_writer.hpp"
#include "marrow/io/native_format.hpp"
#include "marrow/model/unit_scale.hpp"
#include "options.hpp"

namespace marrow::cli {

namespace {

namespace fs = std::filesystem;

struct Job {
  fs::path in, out;
  std::string error;
};

void convert_one(Job& job, const ModelFileOptions& options, float unit_scale) {
  try {
    Model model = load_model_file(job.in, options);
    if (unit_scale != 1.f) apply_unit_scale(model, unit_scale);
    const std::string ext = job.out.extension().string();
    if (ext == ".glb" || ext == ".gltf") {
      write_gltf(model, job.out);
    } else {
      write_native_file(model, job.out);
    }
  } catch (const std::exception& e) {
    job.error = e.what();
  }
}

// One line, redrawn in place: [#####.....] 12/40 file
void draw_progress(std::size_t done, std::size_t total, const std::string& name) {
  constexpr int kWidth = 30;
  const int filled = total == 0 ? kWidth : static_cast<int>(kWidth * done / total);
  std::fprintf(stderr, "\r[%s%s] %zu/%zu %-40.40s", std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(kWidth - filled), '.').c_str(), done, total, name.c_str());
  if (done == total) std::fputc('\n', stderr);
  std::fflush(stderr);
}

}  // namespace

int run_convert(const Args& arguments) {
  Args args = arguments;
  const ModelFileOptions options = take_load_options(args);
  float unit_scale = 1.f;
  if (const auto s = take_option(args, "--unit-scale")) {
    unit_scale = static_cast<float>(parse_number(*s, "--unit-scale"));
    if (!(unit_scale > 0.f)) throw UsageError("--unit-scale must be positive");
  }
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  if (const auto j = take_option(args, "--jobs")) jobs = static_cast<unsigned>(std::max(1.0, parse_number(*j, "--jobs")));
  for (const std::string& a : args) {
    if (a.rfind("--", 0) == 0) throw UsageError("unknown option " + a);
  }
  if (args.size() < 2) throw UsageError("usage: marrow convert IN... OUT [--unit-scale S] [--jobs N]");
  const fs::path out = args.back();
  args.pop_back();
  std::vector<Job> work;
  if (args.size() == 1 && !fs::is_directory(out)) {
    work.push_back(Job{args[0], out, {}});
  } else {
    fs::create_directories(out);
    for (const std::string& in : args) work.push_back(Job{in, out / (fs::path(in).stem().string() + ".marrow"), {}});
  }

  const bool batch = work.size() > 1;
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex progress;
  const auto worker = [&] {
    for (std::size_t i = next++; i < work.size(); i = next++) {
      convert_one(work[i], options, unit_scale);
      const std::size_t finished = ++done;
      if (batch) {
        std::lock_guard<std::mutex> lock(progress);
        draw_progress(finished, work.size(), work[i].in.filename().string());
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::min<std::size_t>(jobs, work.size()); ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();

  int failures = 0;
  for (const Job& job : work) {
    if (job.error.empty()) {
      if (!batch) std::printf("%s -> %s\n", job.in.string().c_str(), job.out.string().c_str());
      continue;
    }
    ++failures;
    std::fprintf(stderr, "marrow convert: error: %s\n", job.error.c_str());
  }
  if (batch) std::printf("converted %zu of %zu files into %s\n", work.size() - static_cast<std::size_t>(failures), work.size(),
                         out.string().c_str());
  return failures == 0 ? 0 : 1;
}

}  // namespace marrow::cli
