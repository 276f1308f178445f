#pragma once
// The help texts of the marrow tool: the general usage and, per command, its usage, options and
// an example (`marrow COMMAND -h`, `marrow help COMMAND`).
#include <string_view>

#include "commands.hpp"

namespace marrow::cli {

std::string_view general_usage() noexcept;

// The help of one command; empty for an unknown command.
std::string_view command_help(std::string_view command) noexcept;

// -h or --help among the arguments.
bool asks_for_help(const Args& args) noexcept;

}  // namespace marrow::cli
