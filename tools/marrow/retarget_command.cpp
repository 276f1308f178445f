// `marrow retarget SOURCE TARGET OUT [--clip NAME]... [--map auto|FILE.json] [--source-rest CLIP@S]
// [--target-rest CLIP@S] [--feet-ik] [--prefix P] [--json]`: writes OUT (.glb, .gltf or .marrow,
// by its extension): TARGET with SOURCE's clips retargeted onto it (retarget_clips.hpp), each
// under its source name preceded by P. --json prints the map, the hips scale and the clips
// written as one object on stdout.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <string>

#include "commands.hpp"
#include "json_writer.hpp"
#include "loaded_file.hpp"
#include "marrow/io/bone_map_file.hpp"
#include "marrow/io/gltf/gltf_writer.hpp"
#include "marrow/io/native/native_format.hpp"
#include "marrow/model/retarget_clips.hpp"
#include "marrow/model/retarget_map.hpp"
#include "options.hpp"

namespace marrow::cli {
namespace {

namespace fs = std::filesystem;

std::string lower_extension(const fs::path& path) {
  std::string e = path.extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return e;
}

std::optional<RestPose> take_rest(Args& args, const std::string& name) {
  const std::optional<std::string> text = take_option(args, name);
  if (!text) return std::nullopt;
  try {
    return parse_rest_pose(*text);
  } catch (const std::invalid_argument& e) {
    throw UsageError(name + ": " + e.what());
  }
}

void print_json(const RetargetMap& map, const Model& source, const Model& target, const std::vector<std::string>& clips) {
  JsonWriter json(stdout);
  json.begin_object().key("map").begin_object();
  for (const RetargetPair& p : map.pairs())
    json.key(target.nodes[static_cast<std::size_t>(p.target_node)].name).value(source.nodes[static_cast<std::size_t>(p.source_node)].name);
  json.end_object().key("root_scale").value(map.root_scale()).key("clips").begin_array();
  for (const std::string& clip : clips) json.value(clip);
  json.end_array().end_object().finish();
}

}  // namespace

int run_retarget(const Args& arguments) {
  Args args = arguments;
  const ModelFileOptions load = take_load_options(args);
  RetargetClipsOptions clips;
  clips.clips = take_options(args, "--clip");
  clips.prefix = take_option(args, "--prefix").value_or("");
  clips.feet_ik = take_flag(args, "--feet-ik");
  const bool json = take_flag(args, "--json");
  RetargetOptions options;
  options.source_rest = take_rest(args, "--source-rest");
  options.target_rest = take_rest(args, "--target-rest");
  const std::string map_option = take_option(args, "--map").value_or("auto");
  for (const std::string& a : args)
    if (a.rfind("--", 0) == 0) throw UsageError("unknown option " + a);
  if (args.size() != 3) throw UsageError("usage: marrow retarget SOURCE TARGET OUT [--clip NAME]... (marrow retarget -h)");
  const fs::path out = args[2];
  const std::string extension = lower_extension(out);
  if (extension != ".glb" && extension != ".gltf" && extension != ".marrow")
    throw UsageError("OUT '" + out.string() + "' must end in .glb, .gltf or .marrow (the format written)");
  refuse_output_over_inputs(args[2], {args[0], args[1]});
  if (map_option != "auto") options.bone_map = read_bone_map_file(map_option, load.import.limits);

  const LoadedFile source = load_file(args[0], load);
  const LoadedFile target = load_file(args[1], load);
  const RetargetMap map(source.model, target.model, options);
  for (const std::string& note : map.notes()) std::fprintf(stderr, "marrow retarget: note: %s\n", note.c_str());
  const Model result = retarget_clips(source.model, target.model, map, clips);
  if (extension == ".marrow") {
    write_native_file(result, out);
  } else {
    write_gltf(result, out);
  }
  if (json) {
    std::vector<std::string> written;
    for (std::size_t a = target.model.animations.size(); a < result.animations.size(); ++a) written.push_back(result.animations[a].name);
    print_json(map, source.model, target.model, written);
  }
  return 0;
}

}  // namespace marrow::cli
