#include "options.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <cmath>
#include <cstdlib>

namespace marrow::cli {

std::optional<std::string> take_option(Args& args, const std::string& name) {
  const auto it = std::find(args.begin(), args.end(), name);
  if (it == args.end()) return std::nullopt;
  if (it + 1 == args.end()) throw UsageError(name + " needs a value");
  std::string value = *(it + 1);
  args.erase(it, it + 2);
  return value;
}

bool take_flag(Args& args, const std::string& name) {
  const auto it = std::find(args.begin(), args.end(), name);
  if (it == args.end()) return false;
  args.erase(it);
  return true;
}

std::string take_file(Args& args, const char* command) {
  for (const std::string& a : args) {
    if (a.size() > 1 && a[0] == '-' && a[1] == '-') throw UsageError(std::string("unknown option ") + a);
  }
  if (args.size() != 1) throw UsageError(std::string("usage: marrow ") + command + " FILE [options]");
  std::string file = args[0];
  args.clear();
  return file;
}

double parse_number(const std::string& text, const char* what) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(v)) {
    throw UsageError(std::string(what) + " '" + text + "' is not a number");
  }
  return v;
}

double parse_seconds(const std::string& text, const char* what) {
  const double v = parse_number(text, what);
  if (v < 0) throw UsageError(std::string(what) + " '" + text + "' must not be negative");
  return v;
}

void require_extension(const std::string& path, const std::string& extension, const char* what) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext != extension) {
    throw UsageError(std::string(what) + " '" + path + "' must end in " + extension + " (the format it is written in)");
  }
}

}  // namespace marrow::cli
