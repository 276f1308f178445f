// `marrow render FILE [--clip C] [--time T] [--size WxH] [--skeleton] [--bounds] [--out F.png]
//                     [--frames N] [--gif F.gif [--fps F] [--fade A:B:SECONDS]]
//                     [--view front|side|top|iso] [--yaw DEG] [--pitch DEG] [--aa N] [--no-caption]
//                     [--layer ...] [--additive ...] [--two-bone-ik ...] [--root-motion[-yaw]]
//                     [--graph G.json [--script S] [--seconds S]]`
// One frame, a contact sheet of N frames spread over a clip (or over every clip), an animated
// GIF of a clip or of a cross-fade from clip A to clip B, drawn by marrow's software renderer
// from the vertices `marrow pose` computes. The pose flags (pose_flags.hpp) make one frame.
// --graph plays an animation graph under a script (graph_script.hpp): one frame at --time, or
// with --gif frames over --seconds (default: the script's last time + kGraphGifTail).
// --time and --gif without --clip play the file's only clip; --out must be .png, --gif .gif;
// GIFs show a progress bar on a terminal.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "graph_script.hpp"
#include "loaded_file.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/animated_bounds.hpp"
#include "presentation/caption.hpp"
#include "presentation/clip_sheet.hpp"
#include "presentation/frame_times.hpp"
#include "presentation/gif_file.hpp"
#include "marrow/render/model_renderer.hpp"
#include "marrow/render/png_file.hpp"
#include "options.hpp"
#include "pose_flags.hpp"
#include "progress_bar.hpp"
#include "reports/pose_report.hpp"

namespace marrow::cli {

namespace {

using render::Image;

constexpr int kDefaultFrameSize = 512;
constexpr int kDefaultTileSize = 256;
constexpr double kDefaultFps = 12.0;
// A graph's GIF runs this long past the script's last change, so its transition plays out.
constexpr double kGraphGifTail = 2.0;

int parse_count(const std::string& text, const char* what, int lo, int hi) {
  const double v = parse_number(text, what);
  if (v < lo || v > hi || v != std::floor(v)) {  // range first: a huge double must not reach a cast
    throw UsageError(std::string(what) + " '" + text + "' must be a whole number from " + std::to_string(lo) + " to " +
                     std::to_string(hi));
  }
  return static_cast<int>(v);
}

std::string seconds_text(Ticks t) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f s", seconds_from_ticks(t));
  return text;
}

std::string clip_text(const Model& model, int clip) {
  return "clip " + std::to_string(clip) + " '" + model.animations[static_cast<std::size_t>(clip)].name + "'";
}

struct Request {
  std::string file;
  std::optional<std::string> clip, out, gif;
  std::optional<double> seconds;  // --time
  int frames = 0;  // 0: one frame
  double fps = kDefaultFps;
  render::RenderSettings settings;
  render::ViewAngles view = render::view_angles(render::ViewPreset::Iso);
  bool caption = true;
  PoseFlags pose;
  std::optional<std::string> fade;  // A:B:SECONDS
  GraphFlags graph;                 // --graph, --script
  std::optional<double> graph_seconds;  // --seconds: a graph GIF's length
};

// --graph and --seconds against the other flags (the graph plays its own clips).
void check_graph_flags(const Request& r, bool frames, bool posed, const std::optional<std::string>& seconds) {
  if (seconds && !(r.graph.graph && r.gif)) throw UsageError("--seconds goes with --graph and --gif");
  if (!r.graph.graph) return;
  if (r.clip || r.fade || frames || posed) {
    throw UsageError("--graph plays its own clips: it may not be combined with --clip, --fade, --frames, --layer, "
                     "--additive, --two-bone-ik or --root-motion");
  }
  if (r.seconds && *r.seconds > kMaxScriptSeconds) {
    throw UsageError("--time with --graph: at most " + std::to_string(static_cast<int>(kMaxScriptSeconds)) + " seconds");
  }
}

Request parse(Args args) {
  Request r;
  r.clip = take_option(args, "--clip");
  const auto time = take_option(args, "--time");
  r.out = take_option(args, "--out");
  r.gif = take_option(args, "--gif");
  if (r.out) require_extension(*r.out, ".png", "--out");
  if (r.gif) require_extension(*r.gif, ".gif", "--gif");
  const auto size = take_option(args, "--size");
  const auto frames = take_option(args, "--frames");
  const auto fps = take_option(args, "--fps");
  const auto view = take_option(args, "--view");
  const auto yaw = take_option(args, "--yaw");
  const auto pitch = take_option(args, "--pitch");
  const auto aa = take_option(args, "--aa");
  r.settings.skeleton = take_flag(args, "--skeleton");
  const bool bounds = take_flag(args, "--bounds");
  r.caption = !take_flag(args, "--no-caption");
  r.pose = take_pose_flags(args);
  r.fade = take_option(args, "--fade");
  r.graph = take_graph_flags(args);
  const auto graph_seconds = take_option(args, "--seconds");
  const bool posed = r.pose.blends() || !r.pose.two_bone_ik.empty() || r.pose.root_motion;
  if (posed && (frames || r.gif)) throw UsageError("--layer, --additive, --two-bone-ik and --root-motion make one frame");
  if (!r.pose.layers.empty() && (r.clip || time)) throw UsageError("--clip and --time may not be combined with --layer");
  if (r.fade && !r.gif) throw UsageError("--fade goes with --gif");
  if (r.fade && r.clip) throw UsageError("--fade names its own clips (A:B:SECONDS); drop --clip");
  if (frames) r.frames = parse_count(*frames, "--frames", 1, presentation::kMaxSheetFrames);
  if (fps) {
    r.fps = parse_number(*fps, "--fps");
    if (!(r.fps > 0 && r.fps <= 100)) throw UsageError("--fps '" + *fps + "' must be above 0 and at most 100");
  }
  if (fps && !r.gif) throw UsageError("--fps goes with --gif");
  if (r.out && r.gif && !frames) throw UsageError("--out names a frame or a contact sheet; --gif names its own file");
  if (time) r.seconds = parse_seconds(*time, "--time");
  if (time && (r.frames > 0 || r.gif)) throw UsageError("--time picks one frame; --frames and --gif spread frames over the clip");
  check_graph_flags(r, frames.has_value(), posed, graph_seconds);
  if (graph_seconds) {
    r.graph_seconds = parse_number(*graph_seconds, "--seconds");
    if (!(*r.graph_seconds > 0 && *r.graph_seconds <= kMaxScriptSeconds)) {
      throw UsageError("--seconds '" + *graph_seconds + "' must be above 0 and at most " +
                       std::to_string(static_cast<int>(kMaxScriptSeconds)));
    }
  }
  const int default_size = (r.frames > 0 || r.gif) ? kDefaultTileSize : kDefaultFrameSize;
  r.settings.width = r.settings.height = default_size;
  if (size) parse_size(*size, r.settings.width, r.settings.height);
  if (aa) r.settings.samples = parse_count(*aa, "--aa", 1, render::kMaxSamplesPerAxis);
  const std::int64_t samples = std::int64_t{r.settings.width} * r.settings.height * r.settings.samples * r.settings.samples;
  if (samples > render::kMaxFramebufferSamples) {
    throw UsageError("--size " + std::to_string(r.settings.width) + "x" + std::to_string(r.settings.height) + " with --aa " +
                     std::to_string(r.settings.samples) + " needs " + std::to_string(samples) + " samples; at most " +
                     std::to_string(render::kMaxFramebufferSamples) + " (use a smaller size or --aa)");
  }
  if (view) {
    try {
      r.view = render::view_angles(render::view_preset_from_name(*view));
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--view: ") + e.what());
    }
  }
  if (yaw) {
    const double y = parse_number(*yaw, "--yaw");
    if (y < -360 || y > 360) throw UsageError("--yaw '" + *yaw + "' must be from -360 to 360 degrees");
    r.view.yaw_degrees = static_cast<float>(y);
  }
  if (pitch) {
    const double p = parse_number(*pitch, "--pitch");
    if (p < -90 || p > 90) throw UsageError("--pitch '" + *pitch + "' must be from -90 to 90 degrees");
    r.view.pitch_degrees = static_cast<float>(p);
  }
  if (bounds) r.settings.bounds_overlay = BoundingBox{};  // filled once the model is loaded
  r.file = take_file(args, "render");
  return r;
}

// The clip a request plays: --clip, else the file's only clip when time matters (as `marrow
// pose` chooses), else none (-1).
int chosen_clip(const Model& model, const Request& r) {
  if (!r.clip && !r.seconds && !r.gif) return -1;
  return clip_for_time(model, r.clip, r.gif ? "--gif" : "--time");
}

void write_single(const Model& model, const Request& r, const render::Camera& camera, int clip) {
  Ticks t{0};
  if (r.seconds && clip >= 0) t = std::min(ticks_from_seconds(*r.seconds), model.animations[static_cast<std::size_t>(clip)].duration);
  Animator animator(model);
  std::string what = "loaded pose";
  if (r.pose.blends() || !r.pose.two_bone_ik.empty() || r.pose.root_motion) {
    pose_animator(animator, r.pose, clip, seconds_from_ticks(t));
    what.clear();
    for (const LayerFlag& l : r.pose.layers) what += (what.empty() ? "" : " + ") + clip_text(model, l.clip);
    for (const LayerFlag& l : r.pose.additive) what += (what.empty() ? "" : " + ") + std::string("additive ") + clip_text(model, l.clip);
    if (r.pose.layers.empty() && clip >= 0) what = clip_text(model, clip) + " at " + seconds_text(t) + (what.empty() ? "" : " + " + what);
    if (!r.pose.two_bone_ik.empty()) what += " + IK";
    if (what.empty()) what = "loaded pose";
  } else if (clip >= 0) {
    animator.play(clip);
    animator.update(t, false, false);  // clamped to the clip, like `marrow pose`
    what = clip_text(model, clip) + " at " + seconds_text(t);
  }
  const std::string name = std::filesystem::path(r.file).filename().string();
  render::ModelRenderer renderer(model);
  Image image;
  renderer.render(animator, camera, r.settings, image);
  if (r.caption) presentation::draw_frame_caption(image, name + "  " + what);
  const std::string out = r.out.value_or("render.png");
  render::write_png(image, out);
  std::printf("marrow render: wrote %s (%dx%d): %s, %s\n", out.c_str(), image.width(), image.height(), name.c_str(), what.c_str());
}

void write_sheet(const Model& model, const Request& r, const BoundingBox& box, int clip) {
  presentation::ClipSheetRequest sheet;
  if (clip >= 0) {
    sheet.clips = {clip};
  } else {
    for (std::size_t a = 0; a < model.animations.size(); ++a) sheet.clips.push_back(static_cast<int>(a));
  }
  if (sheet.clips.empty()) throw UsageError("--frames: " + r.file + " has no animations");
  sheet.frames = r.frames;
  sheet.tile = r.settings;
  sheet.view = r.view;
  sheet.framing = box;
  const std::string name = std::filesystem::path(r.file).filename().string();
  const std::string what = clip >= 0 ? clip_text(model, clip) + ", " + seconds_text(model.animations[static_cast<std::size_t>(clip)].duration)
                                     : std::to_string(sheet.clips.size()) + (sheet.clips.size() == 1 ? " clip" : " clips");
  if (r.caption) sheet.title = name + "  " + what;
  const Image image = presentation::render_clip_sheet(model, sheet);
  const std::string out = r.out.value_or("sheet.png");
  render::write_png(image, out);
  std::printf("marrow render: wrote %s (%dx%d): %s, %d frames each\n", out.c_str(), image.width(), image.height(), what.c_str(),
              r.frames);
}

// Frames of a GIF spanning `span` at the request's rate; a UsageError naming what to shrink when
// they would exceed the image budget.
int gif_frame_count(Ticks span, const Request& r, const char* shrink) {
  const int count = marrow::frame_count_at_rate(span, r.fps, presentation::kMaxGifFrames);
  if (std::int64_t{count} * r.settings.width * r.settings.height > render::kMaxImagePixels) {
    throw UsageError("--gif: " + std::to_string(count) + " frames of " + std::to_string(r.settings.width) + "x" +
                     std::to_string(r.settings.height) + " exceed " + std::to_string(render::kMaxImagePixels) +
                     " pixels; use a smaller " + shrink);
  }
  return count;
}

void write_animation(const Model& model, const Request& r, const render::Camera& camera, int clip) {
  const Ticks duration = model.animations[static_cast<std::size_t>(clip)].duration;
  const int count = gif_frame_count(duration, r, "--size or --fps");
  Animator animator(model);
  animator.play(clip);
  render::ModelRenderer renderer(model);
  const std::string name = std::filesystem::path(r.file).filename().string();
  std::vector<Image> frames(static_cast<std::size_t>(count));
  ProgressBar progress("render", static_cast<std::size_t>(count) + 1);
  for (int f = 0; f < count; ++f) {
    progress.update(static_cast<std::size_t>(f), "frame " + std::to_string(f + 1));
    const Ticks t = std::min(ticks_from_seconds(f / r.fps), duration);
    animator.update(t, false, false);
    Image& frame = frames[static_cast<std::size_t>(f)];
    renderer.render(animator, camera, r.settings, frame);
    if (r.caption) presentation::draw_frame_caption(frame, name + "  " + clip_text(model, clip) + "  " + seconds_text(t));
  }
  progress.update(static_cast<std::size_t>(count), "palette and encoding");
  presentation::write_gif(frames, r.fps, *r.gif);
  progress.finish();
  std::printf("marrow render: wrote %s (%dx%d, %d frames at %g fps): %s\n", r.gif->c_str(), r.settings.width, r.settings.height,
              count, r.fps, clip_text(model, clip).c_str());
}

// --fade A:B:SECONDS: A alone for SECONDS, a cross-fade to B over SECONDS (B4), B alone for
// SECONDS; both clips loop and keep advancing through the fade.
void write_fade(const Model& model, const Request& r, const render::Camera& camera) {
  const std::string& text = *r.fade;
  const auto last = text.rfind(':');
  const auto first = last == std::string::npos || last == 0 ? std::string::npos : text.rfind(':', last - 1);
  if (first == std::string::npos) throw UsageError("--fade '" + text + "' is not A:B:SECONDS");
  const int a = find_clip(model, text.substr(0, first));
  const int b = find_clip(model, text.substr(first + 1, last - first - 1));
  const double fade = parse_number(text.substr(last + 1), "--fade");
  if (!(fade > 0 && fade <= 60)) throw UsageError("--fade '" + text + "': SECONDS must be above 0 and at most 60");
  const Ticks span = ticks_from_seconds(3 * fade);
  const int count = gif_frame_count(span, r, "--size, --fps or --fade");
  Animator animator(model);
  animator.play(a);
  render::ModelRenderer renderer(model);
  const std::string name = std::filesystem::path(r.file).filename().string();
  std::vector<Image> frames(static_cast<std::size_t>(count));
  Ticks now{0};
  bool fading = false;
  ProgressBar progress("render", static_cast<std::size_t>(count) + 1);
  for (int f = 0; f < count; ++f) {
    progress.update(static_cast<std::size_t>(f), "frame " + std::to_string(f + 1));
    const Ticks t = ticks_from_seconds(f / r.fps);
    if (!fading && t >= ticks_from_seconds(fade)) {
      animator.update(ticks_from_seconds(fade) - now);  // exactly at the fade's start
      now = ticks_from_seconds(fade);
      animator.play(b, {.fade = ticks_from_seconds(fade)});
      fading = true;
    }
    animator.update(t - now);
    now = t;
    const double u = std::clamp((seconds_from_ticks(t) - fade) / fade, 0.0, 1.0);
    Image& frame = frames[static_cast<std::size_t>(f)];
    renderer.render(animator, camera, r.settings, frame);
    if (r.caption) {
      char weights[64];
      std::snprintf(weights, sizeof weights, "  %.2f / %.2f", 1.0 - u, u);
      presentation::draw_frame_caption(frame, name + "  " + clip_text(model, a) + " -> " + clip_text(model, b) + weights);
    }
  }
  progress.update(static_cast<std::size_t>(count), "palette and encoding");
  presentation::write_gif(frames, r.fps, *r.gif);
  progress.finish();
  std::printf("marrow render: wrote %s (%dx%d, %d frames at %g fps): %s -> %s over %g s\n", r.gif->c_str(),
              r.settings.width, r.settings.height, count, r.fps, clip_text(model, a).c_str(), clip_text(model, b).c_str(), fade);
}

// The graph's state and the clips it shows (weights of at least 0.005): a frame's caption, short
// enough for a 256-pixel GIF (so without the file's name).
std::string graph_caption(const GraphInstance& instance) {
  const PoseReport::Graph graph = describe_graph(instance);
  std::string text = graph.state;
  for (const auto& [clip, weight] : graph.clip_weights) {
    if (weight < 0.005f) continue;
    char number[32];
    std::snprintf(number, sizeof number, " %.2f", static_cast<double>(weight));
    text += (text.empty() ? "" : "  ") + clip + number;
  }
  return text;
}

// --graph: one frame at --time (default 0), or with --gif frames at f / fps over the GIF's
// length. Frames advance one player (graph_script.hpp), so a frame rate that divides 60 (the
// default 12 does) shows at each frame what `marrow pose --graph --time` reports; another rate
// cuts the 1/60 s steps at its frames.
void write_graph(const Model& model, const Request& r, const render::Camera& camera) {
  ScriptedGraph player(model, load_graph(r.graph, model), r.graph.script);
  render::ModelRenderer renderer(model);
  const std::string name = std::filesystem::path(r.file).filename().string();
  const auto caption = [&](Ticks t) { return seconds_text(t) + "  " + graph_caption(player.instance()); };
  if (!r.gif) {
    const Ticks t = ticks_from_seconds(r.seconds.value_or(0.0));
    player.advance_to(t);
    Image image;
    renderer.render(player.animator(), camera, r.settings, image);
    if (r.caption) presentation::draw_frame_caption(image, caption(t));
    const std::string out = r.out.value_or("render.png");
    render::write_png(image, out);
    std::printf("marrow render: wrote %s (%dx%d): %s, graph %s at %s: %s\n", out.c_str(), image.width(), image.height(),
                name.c_str(), r.graph.graph->c_str(), seconds_text(t).c_str(), graph_caption(player.instance()).c_str());
    return;
  }
  const double length = r.graph_seconds.value_or(r.graph.last_seconds() + kGraphGifTail);
  if (std::round(length * r.fps) > presentation::kMaxGifFrames) {
    char what[160];
    std::snprintf(what, sizeof what, "--gif: %g s at %g fps is more than %d frames; use --seconds or a lower --fps", length,
                  r.fps, presentation::kMaxGifFrames);
    throw UsageError(what);
  }
  const int count = gif_frame_count(ticks_from_seconds(length), r, "--size, --fps or --seconds");
  std::vector<Image> frames(static_cast<std::size_t>(count));
  ProgressBar progress("render", static_cast<std::size_t>(count) + 1);
  for (int f = 0; f < count; ++f) {
    progress.update(static_cast<std::size_t>(f), "frame " + std::to_string(f + 1));
    const Ticks t = ticks_from_seconds(f / r.fps);
    player.advance_to(t);
    Image& frame = frames[static_cast<std::size_t>(f)];
    renderer.render(player.animator(), camera, r.settings, frame);
    if (r.caption) presentation::draw_frame_caption(frame, caption(t));
  }
  progress.update(static_cast<std::size_t>(count), "palette and encoding");
  presentation::write_gif(frames, r.fps, *r.gif);
  progress.finish();
  std::printf("marrow render: wrote %s (%dx%d, %d frames at %g fps): graph %s over %g s\n", r.gif->c_str(), r.settings.width,
              r.settings.height, count, r.fps, r.graph.graph->c_str(), length);
}

}  // namespace

int run_render(const Args& arguments) {
  Args args = arguments;
  const ModelFileOptions options = take_load_options(args);
  Request r = parse(args);
  const LoadedFile loaded = load_file(r.file, options);
  const Model& model = loaded.model;
  resolve_pose_flags(r.pose, model);
  const int clip = r.fade || !r.pose.layers.empty() || r.graph.graph ? -1 : chosen_clip(model, r);
  const BoundingBox box = animated_bounds(model);
  if (r.settings.bounds_overlay) r.settings.bounds_overlay = box;
  const render::Camera camera = render::frame_camera(
      box, render::CameraFraming{r.view, static_cast<float>(r.settings.width) / static_cast<float>(r.settings.height)});
  if (r.graph.graph) {
    write_graph(model, r, camera);
    return 0;
  }
  if (r.frames > 0) write_sheet(model, r, box, r.clip ? clip : -1);
  if (r.gif && r.fade) write_fade(model, r, camera);
  if (r.gif && !r.fade) write_animation(model, r, camera, clip);
  if (r.frames == 0 && !r.gif) write_single(model, r, camera, clip);
  return 0;
}

}  // namespace marrow::cli
