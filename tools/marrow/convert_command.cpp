// `marrow convert IN... OUT [--format marrow|glb|gltf] [--meshopt] [--unit-scale S] [--compress TOL [--segmented]]
// [--jobs N]`: converts models to marrow's native format (.marrow) or to glTF (.glb, .gltf). One
// input: OUT is a file whose extension names the format, or an existing folder. Several inputs:
// OUT is a folder (created when missing) that receives <name>.<format> for each, converted in
// parallel with a progress bar on a terminal. Every output is decided, and collisions refused,
// before anything is converted: two threads must never write one file, nor a file overwrite an
// input. Unit scale applies to translations, translation keys and morph position deltas only
// (G18); --compress then compresses the skeletal clips (compress_model_clips).
#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "loaded_file.hpp"
#include "marrow/core/diagnostic.hpp"
#include "marrow/io/file_identity.hpp"
#include "marrow/io/gltf/gltf_writer.hpp"
#include "marrow/io/native/native_format.hpp"
#include "marrow/model/compress_model_clips.hpp"
#include "marrow/model/unit_scale.hpp"
#include "options.hpp"
#include "progress_bar.hpp"

namespace marrow::cli {

namespace {

namespace fs = std::filesystem;

enum class Format { Marrow, Glb, Gltf };

constexpr const char* kFormats = ".marrow, .glb or .gltf";

const char* extension_of(Format f) {
  switch (f) {
    case Format::Marrow: return ".marrow";
    case Format::Glb: return ".glb";
    case Format::Gltf: return ".gltf";
  }
  return "";
}

std::optional<Format> format_named(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (!name.empty() && name[0] == '.') name.erase(0, 1);
  if (name == "marrow") return Format::Marrow;
  if (name == "glb") return Format::Glb;
  if (name == "gltf") return Format::Gltf;
  return std::nullopt;
}

struct Job {
  fs::path in, out;
  std::string error;
  std::string warning;  // clips --compress left as they were, and why (empty: none)
};

void convert_one(Job& job, Format format, const ModelFileOptions& options, float unit_scale, const GltfWriteOptions& gltf,
                 const std::optional<ClipCompression>& compression) {
  try {
    Model model = load_model_file(job.in, options);
    if (unit_scale != 1.f) apply_unit_scale(model, unit_scale);
    if (compression) {
      compress_model_clips(model, *compression);
      // A clip left uncompressed is no error (the file is written, the clip plays exactly), but
      // whoever asked for compression must see it: stderr, not only the file's diagnostics.
      job.warning = uncompressed_clips(model);
    }
    if (format == Format::Marrow) {
      write_native_file(model, job.out);
    } else {
      write_gltf(model, job.out, gltf);
    }
  } catch (const std::exception& e) {
    job.error = e.what();
  }
}

// Refuses two jobs writing one file, and a job writing over any input.
void refuse_collisions(const std::vector<Job>& work) {
  std::map<fs::path, const Job*> by_output;
  std::map<fs::path, const Job*> inputs;
  for (const Job& job : work) inputs.emplace(file_identity(job.in), &job);
  for (const Job& job : work) {
    const fs::path out = file_identity(job.out);
    const auto [it, fresh] = by_output.emplace(out, &job);
    if (!fresh) {
      throw UsageError(it->second->in.string() + " and " + job.in.string() + " would both write " + job.out.string() +
                       "; convert them into different folders");
    }
    if (const auto in = inputs.find(out); in != inputs.end()) {
      throw UsageError(job.in.string() + " would be written over " + in->second->in.string() + "; choose another OUT");
    }
  }
}

struct Plan {
  std::vector<Job> work;
  Format format = Format::Marrow;
  bool folder = false;
};

Plan plan(const std::vector<std::string>& inputs, const fs::path& out, std::optional<Format> format) {
  Plan p;
  const std::string text = out.string();
  const bool names_folder = fs::is_directory(out) || (!text.empty() && text.back() == '/');
  if (inputs.size() == 1 && !names_folder) {
    const std::optional<Format> by_extension = format_named(out.extension().string());
    if (!by_extension) {
      throw UsageError("OUT '" + text + "' is not a folder, and its extension '" + out.extension().string() +
                       "' names no format (" + kFormats + ")");
    }
    if (format && *format != *by_extension) {
      throw UsageError(std::string("--format ") + (extension_of(*format) + 1) + " disagrees with OUT '" + text + "'");
    }
    p.format = *by_extension;
    p.work.push_back(Job{inputs[0], out, {}, {}});
  } else {
    if (fs::exists(out) && !fs::is_directory(out)) {
      throw UsageError("OUT '" + text + "' is a file; several inputs go into a folder");
    }
    if (!fs::exists(out) && format_named(out.extension().string())) {
      throw UsageError("OUT '" + text + "' names a " + out.extension().string() +
                       " file, but several inputs go into a folder (use --format to choose their format)");
    }
    p.folder = true;
    p.format = format.value_or(Format::Marrow);
    for (const std::string& in : inputs) {
      p.work.push_back(Job{in, out / (fs::path(in).stem().string() + extension_of(p.format)), {}, {}});
    }
  }
  refuse_collisions(p.work);
  return p;
}

}  // namespace

int run_convert(const Args& arguments) {
  Args args = arguments;
  const ModelFileOptions options = take_load_options(args);
  float unit_scale = 1.f;
  if (const auto s = take_option(args, "--unit-scale")) {
    const double v = parse_number(*s, "--unit-scale");
    if (!(v > 0 && v < 1e30)) throw UsageError("--unit-scale '" + *s + "' must be positive");
    unit_scale = static_cast<float>(v);
  }
  std::optional<ClipCompression> compression;
  if (const auto c = take_option(args, "--compress")) {
    const double v = parse_number(*c, "--compress");
    if (!(v > 0 && v < 1e30)) throw UsageError("--compress '" + *c + "' must be a tolerance above 0 and below 1e30 (model units)");
    compression = ClipCompression::at_tolerance(static_cast<float>(v));
  }
  if (take_flag(args, "--segmented")) {
    if (!compression) throw UsageError("--segmented applies to --compress");
    compression->segmented = true;
  }
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  if (const auto j = take_option(args, "--jobs")) {
    const double v = parse_number(*j, "--jobs");
    if (v < 1 || v > 256 || v != std::floor(v)) throw UsageError("--jobs '" + *j + "' must be a whole number from 1 to 256");
    jobs = static_cast<unsigned>(v);
  }
  GltfWriteOptions gltf;
  gltf.meshopt = take_flag(args, "--meshopt");
  std::optional<Format> format;
  if (const auto f = take_option(args, "--format")) {
    format = format_named(*f);
    if (!format || (*f)[0] == '.') throw UsageError("--format '" + *f + "' is not marrow, glb or gltf");
  }
  for (const std::string& a : args) {
    if (a.rfind("--", 0) == 0) throw UsageError("unknown option " + a);
  }
  if (args.size() < 2) throw UsageError("usage: marrow convert IN... OUT [--format marrow|glb|gltf] (marrow convert -h)");
  const fs::path out = args.back();
  args.pop_back();
  Plan p = plan(args, out, format);
  if (gltf.meshopt && p.format == Format::Marrow) throw UsageError("--meshopt applies to glTF output (.glb, .gltf)");
  std::vector<Job>& work = p.work;
  if (p.folder) fs::create_directories(out);

  std::atomic<std::size_t> next{0}, done{0};
  std::mutex progress_lock;
  ProgressBar progress("convert", work.size());
  const auto worker = [&] {
    for (std::size_t i = next++; i < work.size(); i = next++) {
      convert_one(work[i], p.format, options, unit_scale, gltf, compression);
      const std::size_t finished = ++done;
      std::lock_guard<std::mutex> lock(progress_lock);
      progress.update(finished, work[i].in.filename().string());
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::min<std::size_t>(jobs, work.size()); ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  progress.finish();

  int failures = 0;
  for (const Job& job : work) {
    if (!job.warning.empty()) std::fprintf(stderr, "marrow convert: warning: %s: %s\n", job.in.string().c_str(), job.warning.c_str());
    if (job.error.empty()) {
      if (!p.folder) std::printf("%s -> %s\n", job.in.string().c_str(), job.out.string().c_str());
      continue;
    }
    ++failures;
    std::fprintf(stderr, "marrow convert: error: %s\n", job.error.c_str());
  }
  if (p.folder) {
    std::printf("converted %zu of %zu files into %s (%s)\n", work.size() - static_cast<std::size_t>(failures), work.size(),
                out.string().c_str(), extension_of(p.format) + 1);
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace marrow::cli
