// marrow: the command-line tool. Dispatches to one subcommand; every error is one line on
// stderr and a non-zero exit code (2 for usage, 1 for a refused file or a failed write).
#include <cstdio>
#include <exception>
#include <string>

#include "command_help.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace {

using marrow::cli::Args;

int run(const std::string& command, const Args& args) {
  using namespace marrow::cli;
  if (command == "help" || command == "--help" || command == "-h") {
    if (args.empty() || (args.size() == 1 && (args[0] == "--help" || args[0] == "-h"))) {
      std::fputs(general_usage().data(), stdout);
      return 0;
    }
    const std::string_view help = command_help(args[0]);
    if (help.empty() || args.size() > 1) throw UsageError("no help for '" + args[0] + "' (commands: marrow help)");
    std::fputs(help.data(), stdout);
    return 0;
  }
  if (command == "--version" || command == "version") {
    if (command == "version" && asks_for_help(args)) {
      std::fputs(command_help("version").data(), stdout);
      return 0;
    }
    return run_version(args);
  }
  const std::string_view help = command_help(command);
  if (help.empty()) throw UsageError("unknown command '" + command + "' (commands: marrow help)");
  if (asks_for_help(args)) {
    std::fputs(help.data(), stdout);
    return 0;
  }
  if (command == "demo") return run_demo(args);
  if (command == "info") return run_info(args);
  if (command == "match") return run_match(args);
  if (command == "pose") return run_pose(args);
  if (command == "convert") return run_convert(args);
  if (command == "retarget") return run_retarget(args);
  return run_render(args);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs("marrow: no command (marrow help lists them)\n", stderr);
    return 2;
  }
  const std::string command = argv[1];
  try {
    return run(command, Args(argv + 2, argv + argc));
  } catch (const marrow::cli::UsageError& e) {
    std::fprintf(stderr, "marrow %s: %s\n", command.c_str(), e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "marrow %s: error: %s\n", command.c_str(), e.what());
    return 1;
  }
}
