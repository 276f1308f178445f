// `marrow match build MODEL... --out DB.marrow [--rate HZ] [--weights W,W,W,W,W] [--unit-scale S] [--mirror]`
// `marrow match demo DB.marrow [--path circle|zigzag|stop-and-go] [--seconds S] [--json]
//                              [--gif F.gif [--size WxH] [--fps F]] [--no-foot-lock]``
// Motion matching (docs/motion-matching.md). build samples the models' clips (one rig; a BVH
// file holds one clip) into a MotionDatabase, gathers them as MotionClips does and writes that
// model with its database (section MMDB) as a native file. demo plays a scripted gamepad path
// through a MotionMatcher (foot lock on unless --no-foot-lock) on that file (match_demo.hpp) and prints its figures.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "json_writer.hpp"
#include "loaded_file.hpp"
#include "marrow/io/native/native_format.hpp"
#include "marrow/model/humanoid_map.hpp"
#include "marrow/model/motion_matcher.hpp"
#include "marrow/model/unit_scale.hpp"
#include "match_demo.hpp"
#include "match_picture.hpp"
#include "options.hpp"

namespace marrow::cli {

namespace {

constexpr double kMaxDemoSeconds = 600.0;
// Without --unit-scale: a rig whose hips stand higher than this many units is in centimetres.
constexpr float kCentimetreHips = 10.f;

std::vector<std::string> take_files(Args& args, const char* usage) {
  for (const std::string& a : args)
    if (a.size() > 1 && a[0] == '-' && a[1] == '-') throw UsageError("unknown option " + a);
  if (args.empty()) throw UsageError(usage);
  std::vector<std::string> files = args;
  args.clear();
  return files;
}

std::array<float, kMotionGroups> parse_weights(const std::string& text) {
  std::vector<double> values;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, ',');) values.push_back(parse_number(part, "--weights"));
  if (values.size() != kMotionGroups || std::any_of(values.begin(), values.end(), [](double v) { return v < 0; }))
    throw UsageError("--weights '" + text + "' is not five weights >= 0 (foot positions, foot velocities, hip velocity, "
                     "trajectory positions, trajectory directions)");
  std::array<float, kMotionGroups> w{};
  for (std::size_t g = 0; g < kMotionGroups; ++g) w[g] = static_cast<float>(values[g]);
  return w;
}

// The hips' height in the loaded pose, in the file's units.
float hips_height(const Model& model) {
  const int hips = humanoid_map(model).node(HumanoidBone::Hips);
  glm::mat4 w(1.f);
  for (int n = hips; n >= 0; n = model.nodes[static_cast<std::size_t>(n)].parent) w = model.nodes[static_cast<std::size_t>(n)].transform * w;
  return w[3][1];
}

int run_build(Args args) {
  const ModelFileOptions options = take_load_options(args);
  const std::optional<std::string> out = take_option(args, "--out");
  const std::optional<std::string> rate = take_option(args, "--rate");
  const std::optional<std::string> weights = take_option(args, "--weights");
  const std::optional<std::string> unit = take_option(args, "--unit-scale");
  const bool mirror = take_flag(args, "--mirror");
  const std::vector<std::string> files = take_files(args, "usage: marrow match build MODEL... --out DB.marrow");
  if (!out) throw UsageError("--out DB.marrow is required");
  require_extension(*out, ".marrow", "--out");
  refuse_output_over_inputs(*out, files);
  MotionDatabaseOptions db_options;
  if (rate) {
    db_options.rate = parse_number(*rate, "--rate");
    if (!(db_options.rate > 0 && db_options.rate <= 1000)) throw UsageError("--rate '" + *rate + "' must be in (0, 1000]");
  }
  if (weights) db_options.weights = parse_weights(*weights);
  db_options.mirror = mirror;  // MM5: every clip also mirrored by the humanoid map
  std::vector<std::unique_ptr<Model>> models;
  for (const std::string& f : files) models.push_back(std::make_unique<Model>(load_file(f, options).model));
  // The matcher's distances and speeds are metres: scale a centimetre rig unless told.
  float scale = 1.f;
  std::string why = "--unit-scale";
  if (unit) {
    const double v = parse_number(*unit, "--unit-scale");
    if (!(v > 0 && v < 1e30)) throw UsageError("--unit-scale '" + *unit + "' must be positive");
    scale = static_cast<float>(v);
  } else {
    const float h = hips_height(*models[0]);
    scale = h > kCentimetreHips ? 0.01f : 1.f;
    char text[96];
    std::snprintf(text, sizeof text, "the hips stand %.3g units high: %s", static_cast<double>(h), scale == 1.f ? "metres" : "centimetres");
    why = text;
  }
  std::vector<const Model*> pointers;
  for (auto& m : models) {
    if (scale != 1.f) apply_unit_scale(*m, scale);
    pointers.push_back(m.get());
  }
  const MotionDatabase db(pointers, db_options);
  const MotionClips clips(db, pointers);
  write_native_file(clips.gathered_model(), *out);
  std::size_t clips_with_rows = 0;
  for (const MotionRange& r : db.ranges()) clips_with_rows += r.rows > 0 ? 1 : 0;
  std::printf("marrow match build: wrote %s: %zu clips (%zu with candidate frames), %zu candidate frames at %g Hz, %zu bytes\n",
              out->c_str(), db.ranges().size(), clips_with_rows, db.size(), db.rate(),
              static_cast<std::size_t>(std::filesystem::file_size(*out)));
  std::printf("  unit scale %g (%s); contact below %.3f m and %.3f m/s\n", static_cast<double>(scale), why.c_str(),
              static_cast<double>(clips.contact_height()), static_cast<double>(clips.contact_speed()));
  return 0;
}

void print_json(const std::string& file, MatchPath path, bool foot_lock, const MatchFigures& f, std::size_t rows, const std::optional<std::string>& gif) {
  JsonWriter json(stdout);
  json.begin_object();
  json.key("file").value(file).key("path").value(match_path_name(path));
  json.key("foot_lock").value(foot_lock);
  json.key("seconds").value(f.seconds).key("frames").value(f.frames).key("rows").value(rows);
  json.key("trajectory_error_cm").value(f.trajectory_error_cm);
  json.key("foot_sliding_cm_per_s").value(f.foot_sliding_cm_per_s);
  json.key("searches_per_s").value(f.searches_per_s).key("switches_per_s").value(f.switches_per_s);
  json.key("mean_cost").value(f.mean_cost);
  json.key("frame_us").value(f.frame_us);
  json.key("gif");
  if (gif) json.value(*gif);
  else json.null();
  json.end_object();
  json.finish();
}

int run_demo_path(Args args) {
  const ModelFileOptions options = take_load_options(args);
  const std::optional<std::string> path_name = take_option(args, "--path");
  const std::optional<std::string> seconds_text = take_option(args, "--seconds");
  const std::optional<std::string> gif = take_option(args, "--gif");
  const std::optional<std::string> size = take_option(args, "--size");
  const std::optional<std::string> fps_text = take_option(args, "--fps");
  const bool json = take_flag(args, "--json");
  const bool foot_lock = !take_flag(args, "--no-foot-lock");
  const std::string file = take_file(args, "match demo");
  const std::optional<MatchPath> path = match_path_from_name(path_name.value_or("circle"));
  if (!path) throw UsageError("--path '" + *path_name + "' is not circle, zigzag or stop-and-go");
  const double seconds = seconds_text ? parse_seconds(*seconds_text, "--seconds") : 20.0;
  if (!(seconds > 0 && seconds <= kMaxDemoSeconds)) throw UsageError("--seconds must be in (0, 600]");
  if (gif) require_extension(*gif, ".gif", "--gif");
  if ((size || fps_text) && !gif) throw UsageError("--size and --fps go with --gif");
  int width = 320, height = 240;
  if (size) parse_size(*size, width, height);
  const double fps = fps_text ? parse_number(*fps_text, "--fps") : 15.0;
  if (!(fps >= 1 && fps <= 60)) throw UsageError("--fps must be in [1, 60]");
  const auto step = static_cast<std::size_t>(std::lround(kMatchRate / fps));

  const LoadedFile loaded = load_file(file, options);
  if (!loaded.model.motion_database)
    throw std::runtime_error(file + " holds no motion database (marrow match build MODEL... --out DB.marrow makes one)");
  const MotionClips clips(loaded.model);
  std::optional<MatchPicture> picture;
  if (gif) picture.emplace(clips, width, height, step);
  MatchFrameVisitor visit;
  if (picture) visit = [&](std::size_t frame, const MotionMatcher& m) { picture->record(frame, m); };
  const MatchFigures f = run_match_demo(clips, *path, seconds, foot_lock, visit);
  std::size_t gif_frames = 0;
  if (picture) gif_frames = picture->write(*gif, kMatchRate / static_cast<double>(step), std::string(match_path_name(*path)));
  if (json) {
    print_json(file, *path, foot_lock, f, clips.database().size(), gif);
    return 0;
  }
  std::printf("marrow match demo: %s, path %s, %.1f s (%zu frames at 60 Hz, foot lock %s), %zu candidate frames\n", file.c_str(),
              std::string(match_path_name(*path)).c_str(), f.seconds, f.frames, foot_lock ? "on" : "off", clips.database().size());
  std::printf("  trajectory error     %8.2f cm (mean, character to simulated trajectory)\n", f.trajectory_error_cm);
  std::printf("  foot sliding         %8.2f cm/s (mean foot speed in contact)\n", f.foot_sliding_cm_per_s);
  std::printf("  searches             %8.2f per s\n", f.searches_per_s);
  std::printf("  switches             %8.2f per s\n", f.switches_per_s);
  std::printf("  best cost            %8.3f (mean over searches)\n", f.mean_cost);
  std::printf("  frame                %8.2f us (mean controller frame)\n", f.frame_us);
  if (gif) std::printf("  wrote %s (%dx%d, %zu frames)\n", gif->c_str(), width, height, gif_frames);
  return 0;
}

}  // namespace

int run_match(const Args& arguments) {
  Args args = arguments;
  if (args.empty()) throw UsageError("usage: marrow match build|demo ... (marrow match --help)");
  const std::string sub = args[0];
  args.erase(args.begin());
  if (sub == "build") return run_build(std::move(args));
  if (sub == "demo") return run_demo_path(std::move(args));
  throw UsageError("unknown match command '" + sub + "' (build or demo)");
}

}  // namespace marrow::cli
