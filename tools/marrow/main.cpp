// marrow: the command-line tool. Dispatches to one subcommand; every error is one line on
// stderr and a non-zero exit code.
#include <cstdio>
#include <exception>
#include <string>

#include "commands.hpp"
#include "options.hpp"

namespace {

void usage(std::FILE* out) {
  std::fputs(
      "usage: marrow <command> [options]\n"
      "commands:\n"
      "  demo [FILE]     play a model's clips (default: the built-in character) and print a table per frame\n"
      "  info FILE [--json] [--scene N]\n"
      "                  scenes, nodes, skins (palette order, index maps), clips, morph targets, diagnostics\n"
      "  pose FILE [--clip NAME|INDEX] [--time SECONDS] [--scene N] [--json] [--no-normals]\n"
      "                  the pose at that time (clamped, no looping); --json uses the oracle's schema\n"
      "  convert IN... OUT [--unit-scale S] [--jobs N]\n"
      "                  to marrow's native format (OUT.marrow) or glTF (OUT.glb/.gltf); several inputs\n"
      "                  go to the folder OUT, converted in parallel with a progress bar\n"
      "  render FILE [--clip C] [--time T] [--size WxH] [--skeleton] [--bounds] [--out F.png]\n"
      "              [--frames N] [--gif F.gif [--fps F]] [--view front|side|top|iso] [--yaw D] [--pitch D]\n"
      "              [--aa N] [--no-caption]\n"
      "                  a picture of a pose (default render.png), a contact sheet of N frames over the clip\n"
      "                  (over every clip without --clip; default sheet.png), or an animated GIF of the clip\n"
      "FILE may be glTF (.gltf/.glb), native (.marrow) or any format Assimp reads (.fbx, .dae, ...);\n"
      "loading options: --scene N, --max-palette N, --ticks-per-second T\n"
      "  help            this text\n",
      out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const std::string command = argv[1];
  const marrow::cli::Args args(argv + 2, argv + argc);
  try {
    if (command == "demo") return marrow::cli::run_demo(args);
    if (command == "info") return marrow::cli::run_info(args);
    if (command == "pose") return marrow::cli::run_pose(args);
    if (command == "convert") return marrow::cli::run_convert(args);
    if (command == "render") return marrow::cli::run_render(args);
    if (command == "help" || command == "--help" || command == "-h") {
      usage(stdout);
      return 0;
    }
    std::fprintf(stderr, "marrow: unknown command '%s'\n", command.c_str());
    usage(stderr);
    return 2;
  } catch (const marrow::cli::UsageError& e) {
    std::fprintf(stderr, "marrow %s: %s\n", command.c_str(), e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "marrow %s: error: %s\n", command.c_str(), e.what());
    return 1;
  }
}
