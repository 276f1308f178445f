#pragma once
// Argument helpers shared by the subcommands.
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"

namespace marrow::cli {

// A usage error: printed as one line, exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Finds `--name VALUE` (removing both from args); nullopt when absent; a UsageError when the
// option is given twice.
std::optional<std::string> take_option(Args& args, const std::string& name);
// Every `--name VALUE` of an option that may repeat, in order.
std::vector<std::string> take_options(Args& args, const std::string& name);
// Finds a `--name` flag (removing it); a UsageError when it is given twice.
bool take_flag(Args& args, const std::string& name);
// The single remaining positional argument (the file); throws UsageError otherwise.
std::string take_file(Args& args, const char* command);
double parse_number(const std::string& text, const char* what);
// A time in seconds: a number >= 0 (UsageError otherwise; times before a clip's start mean nothing).
// An output file's extension must name the format written (case-insensitive), e.g. ".png":
// a picture named .jpg that holds a PNG misleads every program that opens it.
void require_extension(const std::string& path, const std::string& extension, const char* what);

// An output that is one of the inputs (io/file_identity.hpp), as a UsageError: nothing is read or written.
void refuse_output_over_inputs(const std::string& out, const std::vector<std::string>& inputs);
double parse_seconds(const std::string& text, const char* what);
// "WxH" (--size) with both sides in [1, render::kMaxImageSide]; UsageError otherwise.
void parse_size(const std::string& text, int& width, int& height);

}  // namespace marrow::cli
