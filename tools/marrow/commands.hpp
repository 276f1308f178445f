#pragma once
// The subcommands of the marrow tool. Each takes its own arguments (after the subcommand name)
// and returns the process exit code.
#include <string>
#include <vector>

namespace marrow::cli {

using Args = std::vector<std::string>;

int run_demo(const Args& args);
int run_info(const Args& args);
int run_match(const Args& args);
int run_pose(const Args& args);
int run_convert(const Args& args);
int run_render(const Args& args);
int run_retarget(const Args& args);
int run_version(const Args& args);

}  // namespace marrow::cli
