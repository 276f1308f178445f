// marrow: the command-line tool. Dispatches to one subcommand; every error is one line on
// stderr and a non-zero exit code.
#include <cstdio>
#include <exception>
#include <string>

#include "commands.hpp"

namespace {

void usage(std::FILE* out) {
  std::fputs(
      "usage: marrow <command> [options]\n"
      "commands:\n"
      "  demo            play the built-in character's clips and print a table per frame\n"
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
    if (command == "help" || command == "--help" || command == "-h") {
      usage(stdout);
      return 0;
    }
    std::fprintf(stderr, "marrow: unknown command '%s'\n", command.c_str());
    usage(stderr);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "marrow %s: error: %s\n", command.c_str(), e.what());
    return 1;
  }
}
