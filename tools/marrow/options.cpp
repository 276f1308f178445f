#include "options.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <cmath>
#include <cstdlib>

#include "marrow/io/file_identity.hpp"
#include "marrow/render/image.hpp"

namespace marrow::cli {

namespace {

std::optional<std::string> take_one(Args& args, const std::string& name) {
  const auto it = std::find(args.begin(), args.end(), name);
  if (it == args.end()) return std::nullopt;
  if (it + 1 == args.end()) throw UsageError(name + " needs a value");
  std::string value = *(it + 1);
  args.erase(it, it + 2);
  return value;
}

void refuse_twice(const Args& args, const std::string& name) {
  if (std::find(args.begin(), args.end(), name) != args.end()) throw UsageError(name + " is given twice");
}

}  // namespace

std::optional<std::string> take_option(Args& args, const std::string& name) {
  std::optional<std::string> value = take_one(args, name);
  if (value) refuse_twice(args, name);
  return value;
}

std::vector<std::string> take_options(Args& args, const std::string& name) {
  std::vector<std::string> out;
  while (std::optional<std::string> v = take_one(args, name)) out.push_back(*v);
  return out;
}

bool take_flag(Args& args, const std::string& name) {
  const auto it = std::find(args.begin(), args.end(), name);
  if (it == args.end()) return false;
  args.erase(it);
  refuse_twice(args, name);
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

void refuse_output_over_inputs(const std::string& out, const std::vector<std::string>& inputs) {
  const std::vector<std::filesystem::path> paths(inputs.begin(), inputs.end());
  try {
    refuse_writing_over(out, paths);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

// "WxH" with both sides in [1, kMaxImageSide].
void parse_size(const std::string& text, int& width, int& height) {
  const auto x = text.find('x');
  const auto side = [&](const std::string& part) {
    if (part.empty() || part.size() > 6 || part.find_first_not_of("0123456789") != std::string::npos) {
      throw UsageError("--size '" + text + "' is not WIDTHxHEIGHT (e.g. 512x512)");
    }
    const int v = std::stoi(part);
    if (v < 1 || v > render::kMaxImageSide) {
      throw UsageError("--size '" + text + "': each side must be 1 to " + std::to_string(render::kMaxImageSide) + " pixels");
    }
    return v;
  };
  if (x == std::string::npos) throw UsageError("--size '" + text + "' is not WIDTHxHEIGHT (e.g. 512x512)");
  width = side(text.substr(0, x));
  height = side(text.substr(x + 1));
}

}  // namespace marrow::cli
