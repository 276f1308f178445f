#include "pose_flags.hpp"

#include <cmath>
#include <stdexcept>

#include "loaded_file.hpp"
#include "options.hpp"

namespace marrow::cli {

namespace {

// CLIP@SECONDS=WEIGHT[/NODE]; the clip is the text before the last '@' (names may hold '@').
LayerFlag parse_layer(const std::string& text, const char* flag) {
  const auto at = text.rfind('@');
  const auto eq = at == std::string::npos ? std::string::npos : text.find('=', at);
  if (at == std::string::npos || at == 0 || eq == std::string::npos) {
    throw UsageError(std::string(flag) + " '" + text + "' is not CLIP@SECONDS=WEIGHT[/NODE]");
  }
  LayerFlag layer;
  layer.text = text;
  layer.mask = "";
  const std::string seconds = text.substr(at + 1, eq - at - 1);
  std::string weight = text.substr(eq + 1);
  if (const auto slash = weight.find('/'); slash != std::string::npos) {
    layer.mask = weight.substr(slash + 1);
    weight.resize(slash);
    if (layer.mask.empty()) throw UsageError(std::string(flag) + " '" + text + "': the node after '/' is empty");
  }
  const std::string what = std::string(flag) + " '" + text + "'";
  layer.seconds = parse_number(seconds, (what + ": time").c_str());
  if (layer.seconds < 0) throw UsageError(what + ": time " + seconds + " is negative");
  const double w = parse_number(weight, (what + ": weight").c_str());
  if (w < 0) throw UsageError(std::string(flag) + " '" + text + "': weight " + weight + " is negative");
  if (w > 1e6) throw UsageError(std::string(flag) + " '" + text + "': weight " + weight + " is too large");
  layer.weight = static_cast<float>(w);
  layer.text = text.substr(0, at);  // the clip, resolved later
  return layer;
}

glm::vec3 parse_point(const std::vector<std::string>& parts, std::size_t first, const std::string& text) {
  glm::vec3 p;
  for (int i = 0; i < 3; ++i) p[i] = static_cast<float>(parse_number(parts[first + static_cast<std::size_t>(i)], "--two-bone-ik"));
  (void)text;
  return p;
}

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> out(1);
  for (char c : text) {
    if (c == by) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

IkFlag parse_ik(const std::string& text) {
  const auto eq = text.rfind('=');
  const std::string usage = "--two-bone-ik '" + text + "' is not START,MID,END=X,Y,Z[,POLE_X,POLE_Y,POLE_Z]";
  if (eq == std::string::npos) throw UsageError(usage);
  const std::vector<std::string> names = split(text.substr(0, eq), ',');
  const std::vector<std::string> numbers = split(text.substr(eq + 1), ',');
  if (names.size() != 3 || (numbers.size() != 3 && numbers.size() != 6)) throw UsageError(usage);
  for (const std::string& n : names) {
    if (n.empty()) throw UsageError(usage);
  }
  IkFlag ik{names[0], names[1], names[2], parse_point(numbers, 0, text), std::nullopt};
  if (numbers.size() == 6) ik.pole = parse_point(numbers, 3, text);
  return ik;
}

}  // namespace

PoseFlags take_pose_flags(Args& args) {
  PoseFlags flags;
  for (const std::string& t : take_options(args, "--layer")) flags.layers.push_back(parse_layer(t, "--layer"));
  for (const std::string& t : take_options(args, "--additive")) flags.additive.push_back(parse_layer(t, "--additive"));
  for (const std::string& t : take_options(args, "--two-bone-ik")) flags.two_bone_ik.push_back(parse_ik(t));
  flags.root_motion_yaw = take_flag(args, "--root-motion-yaw");
  flags.root_motion = take_flag(args, "--root-motion") || flags.root_motion_yaw;
  if (auto joint = take_option(args, "--root-joint")) {
    if (!flags.root_motion) throw UsageError("--root-joint goes with --root-motion");
    flags.root_joint = *joint;
  }
  if (auto up = take_option(args, "--root-up")) {
    if (!flags.root_motion) throw UsageError("--root-up goes with --root-motion");
    const std::vector<std::string> parts = split(*up, ',');
    if (parts.size() != 3) throw UsageError("--root-up '" + *up + "' is not X,Y,Z");
    for (int i = 0; i < 3; ++i) flags.root_up[i] = static_cast<float>(parse_number(parts[static_cast<std::size_t>(i)], "--root-up"));
    // A zero or overflowing axis: Animator::enable_root_motion refuses it, naming it.
  }
  return flags;
}

void resolve_pose_flags(PoseFlags& flags, const Model& model) {
  for (auto* list : {&flags.layers, &flags.additive}) {
    for (LayerFlag& layer : *list) layer.clip = find_clip(model, layer.text);
  }
  if (!flags.layers.empty()) {
    bool any = false;
    for (const LayerFlag& layer : flags.layers) any |= layer.weight > 0.f;
    if (!any) throw UsageError("--layer: every weight is zero (nothing to blend)");
  }
}

void pose_animator(Animator& animator, const PoseFlags& flags, int clip, double seconds) {
  try {
    if (flags.root_motion) animator.enable_root_motion({.joint = flags.root_joint, .yaw = flags.root_motion_yaw, .up = flags.root_up});
    std::size_t layer = 0;
    const auto play = [&](int index, double at) {
      PlayOptions options;
      options.loop = LoopMode::Once;  // clamped to the clip, no looping
      options.start = ticks_from_seconds(at);
      options.layer = layer++;
      animator.play(index, options);
    };
    if (flags.layers.empty()) {
      play(clip, seconds);
    } else {
      for (const LayerFlag& l : flags.layers) {
        animator.set_layer(layer, LayerOptions{.weight = l.weight, .mask = l.mask, .additive = false});
        play(l.clip, l.seconds);
      }
    }
    for (const LayerFlag& l : flags.additive) {
      animator.set_layer(layer, LayerOptions{.weight = l.weight, .mask = l.mask, .additive = true});
      play(l.clip, l.seconds);
    }
    for (const IkFlag& ik : flags.two_bone_ik) {
      const std::size_t chain = animator.add_two_bone_ik(ik.start, ik.mid, ik.end);
      animator.set_two_bone_ik(chain, ik.target, 1.f, ik.pole);
    }
    animator.update(Ticks{0});  // once more, with every layer and chain in place
  } catch (const std::out_of_range& e) {
    throw UsageError(e.what());
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

}  // namespace marrow::cli
