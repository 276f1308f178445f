// `marrow demo [FILE] [--out DIR]`: plays every clip of FILE (default: the built-in character,
// written with marrow's glTF writer and imported back from those bytes) through one Animator and
// prints, per frame, the time, three joint positions, the morph weights and the box around the
// posed (morphed + skinned) vertices. With --out DIR it also writes DIR/demo.png, a contact sheet
// of every clip (marrow's software renderer; see `marrow render`), and DIR/demo.glb for the
// built-in character; without it nothing is written, so the demo never litters the folder it
// is run from.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <vector>

#include "commands.hpp"
#include "loaded_file.hpp"
#include "marrow/io/gltf/gltf_builder.hpp"
#include "marrow/io/gltf/gltf_writer.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/model/animated_bounds.hpp"
#include "marrow/model/animator.hpp"
#include "demo/demo_character.hpp"
#include "marrow/model/skeleton_bones.hpp"
#include "presentation/clip_sheet.hpp"
#include "marrow/render/png_file.hpp"
#include "options.hpp"

namespace marrow::cli {

namespace {

constexpr int kFramesPerClip = 12;
constexpr int kSheetFrames = 6;   // per clip in demo.png
constexpr int kSheetClips = 8;    // at most, so any FILE gives a sheet of sensible size
constexpr int kSheetTile = 200;

// Three joints worth watching: the first, middle and last bone of the skeleton (skeleton_bones:
// the first skin's joints, or in a file without skins its main animated hierarchy, not the
// cameras and lights beside it), else the first nodes.
std::vector<int> watched_bones(const Model& model) {
  std::vector<int> joints;
  if (!model.skins.empty()) {
    for (int b : model.skins[0].palette_to_scene) {
      if (b > 0) joints.push_back(b);
    }
  } else {
    const std::vector<std::uint8_t> skeleton = skeleton_bones(model);
    for (std::size_t b = 1; b < skeleton.size(); ++b) {
      if (skeleton[b] != 0) joints.push_back(static_cast<int>(b));
    }
  }
  std::vector<int> bones;
  if (!joints.empty()) {
    for (std::size_t p : {std::size_t{0}, joints.size() / 2, joints.size() - 1}) {
      if (std::find(bones.begin(), bones.end(), joints[p]) == bones.end()) bones.push_back(joints[p]);
    }
  }
  for (int b = 1; bones.size() < 3 && b < static_cast<int>(model.nodes.size()); ++b) {
    if (std::find(bones.begin(), bones.end(), b) == bones.end()) bones.push_back(b);
  }
  return bones;
}

int first_morph_mesh(const Model& model) {
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    if (!model.meshes[m].morph_weights.empty()) return static_cast<int>(m);
  }
  return -1;
}

void print_row(Animator& animator, Ticks t, const std::vector<int>& bones, int morph_mesh) {
  std::printf("%7.3f", seconds_from_ticks(t));
  for (int b : bones) {
    const glm::vec3 p(animator.absolute_bone_transforms()[static_cast<std::size_t>(b)][3]);
    std::printf("  (%7.3f, %7.3f, %7.3f)", p.x, p.y, p.z);
  }
  if (morph_mesh >= 0) {
    std::printf("  ");
    for (float w : animator.morph_weights(static_cast<std::size_t>(morph_mesh))) std::printf(" %5.3f", w);
  }
  const BoundingBox box = posed_bounds(animator);
  std::printf("   (%7.3f, %7.3f, %7.3f) .. (%7.3f, %7.3f, %7.3f)\n", box.min.x, box.min.y, box.min.z, box.max.x,
              box.max.y, box.max.z);
}

void print_clip(Animator& animator, int index, const std::vector<int>& bones, int morph_mesh) {
  const Model& model = animator.model();
  const ModelAnimation& anim = model.animations[static_cast<std::size_t>(index)];
  std::size_t skeletal = 0;
  for (const Skin& s : model.skins) {
    const auto it = s.data.animation_clips.find(anim.name);
    if (it != s.data.animation_clips.end()) skeletal += it->second.tracks.size();
  }
  animator.play(index);
  std::printf("\nclip %d \"%s\": %.3f s, %zu skeletal tracks, %zu rigid tracks, %zu morph channels\n", index,
              anim.name.c_str(), seconds_from_ticks(anim.duration), skeletal, anim.scene_clip.tracks.size(),
              anim.morph_channels.size());
  std::printf("%7s", "time");
  for (int b : bones) {
    const std::string& name = model.nodes[static_cast<std::size_t>(b)].name;
    std::printf("  %-27s", (name.empty() ? "bone " + std::to_string(b) : name).c_str());
  }
  if (morph_mesh >= 0) std::printf("   morph weights");
  std::printf("   posed bounds min .. max\n");
  for (int f = 0; f <= kFramesPerClip; ++f) {
    const Ticks t{anim.duration.count() * f / kFramesPerClip};
    animator.update(t, false, false);
    print_row(animator, t, bones, morph_mesh);
  }
}

// demo.png: every clip (up to kSheetClips) at kSheetFrames times, or the loaded pose.
void write_demo_sheet(const Model& model, const std::string& file, const std::filesystem::path& dir) {
  presentation::ClipSheetRequest sheet;
  for (int a = 0; a < static_cast<int>(model.animations.size()) && a < kSheetClips; ++a) sheet.clips.push_back(a);
  sheet.frames = sheet.clips.empty() ? 1 : kSheetFrames;
  sheet.tile.width = sheet.tile.height = kSheetTile;
  sheet.tile.skeleton = true;
  const std::string name = std::filesystem::path(file).filename().string();
  sheet.title = sheet.clips.empty() ? name + "  loaded pose (no animations)"
                                    : name + "  " + std::to_string(sheet.clips.size()) + (sheet.clips.size() == 1 ? " clip x " : " clips x ") +
                                          std::to_string(kSheetFrames) + " frames";
  const render::Image image = presentation::render_clip_sheet(model, sheet);
  std::filesystem::create_directories(dir);
  const std::filesystem::path out = std::filesystem::absolute(dir / "demo.png");
  render::write_png(image, out);
  std::printf("\nmarrow demo: wrote %s (%dx%d): %s\n", out.string().c_str(), image.width(), image.height(), sheet.title.c_str());
}

}  // namespace

int run_demo(const Args& arguments) {
  Args args = arguments;
  ModelFileOptions options = take_load_options(args);
  const std::optional<std::string> out = take_option(args, "--out");
  std::string file;
  if (!args.empty()) file = take_file(args, "demo");
  if (options.import.max_palette == ImportOptions{}.max_palette) options.import.max_palette = 256;  // the demo plays any file
  std::optional<LoadedFile> loaded;
  if (file.empty()) {
    // The writer and the importer both take part: the character goes through GLB bytes.
    const std::vector<std::byte> glb = gltf::write_glb_asset(model_to_gltf(make_demo_character()));
    file = "demo.glb";
    if (out) {
      std::filesystem::create_directories(*out);
      const std::filesystem::path path = std::filesystem::absolute(std::filesystem::path(*out) / file);
      std::ofstream stream(path, std::ios::binary);
      stream.write(reinterpret_cast<const char*>(glb.data()), static_cast<std::streamsize>(glb.size()));
      if (!stream) throw std::runtime_error("cannot write " + path.string());
      file = path.string();
      std::printf("marrow demo: wrote the built-in character (a skinned tentacle with two morph targets and a rigid buoy) "
                  "to %s with marrow's glTF writer; importing it back\n",
                  file.c_str());
    } else {
      std::printf("marrow demo: the built-in character (a skinned tentacle with two morph targets and a rigid buoy), "
                  "written as GLB by marrow's glTF writer and imported back\n");
    }
    loaded = LoadedFile{file, load_model_bytes(glb, "glb", options)};
  } else {
    loaded = load_file(file, options);
  }
  const Model& model = loaded->model;
  std::printf("%s: %zu scene nodes, %zu meshes, %zu skins, %zu animations, %zu diagnostics\n", file.c_str(),
              model.nodes.size() - 1, model.meshes.size(), model.skins.size(), model.animations.size(),
              model.diagnostics.size());
  for (const Diagnostic& d : model.diagnostics) std::printf("  diagnostic %s (x%d): %s\n", std::string(to_string(d.code)).c_str(), d.count, d.message.c_str());
  Animator animator(model);
  const std::vector<int> bones = watched_bones(model);
  const int morph_mesh = first_morph_mesh(model);
  if (model.animations.empty()) {
    std::printf("\nno animations; the loaded pose:\n");
    print_row(animator, Ticks{0}, bones, morph_mesh);
  }
  for (std::size_t i = 0; i < model.animations.size(); ++i) print_clip(animator, static_cast<int>(i), bones, morph_mesh);
  if (out) {
    write_demo_sheet(model, file, *out);
  } else {
    std::printf("\n(marrow demo --out DIR also writes a contact sheet of every clip, DIR/demo.png)\n");
  }
  return 0;
}

}  // namespace marrow::cli
