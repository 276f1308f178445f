#include "graph_script.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <utility>

#include "marrow/io/graph_file.hpp"
#include "options.hpp"

namespace marrow::cli {

namespace {

constexpr double kStepsPerSecond = 60.0;

std::string_view trim(std::string_view text) {
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return text;
}

// A whole finite number, or nullopt.
std::optional<double> number(std::string_view text) {
  const std::string copy(text);
  char* end = nullptr;
  const double v = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

UsageError entry_error(const ScriptEntry& entry, const std::string& what) {
  return UsageError("--script entry '" + entry.text + "': " + what);
}

// NAME=VALUE after the time's colon.
void parse_assignment(std::string_view rest, ScriptEntry& entry) {
  const auto eq = rest.rfind('=');  // a value holds no '=', a name might
  if (eq == std::string_view::npos) throw entry_error(entry, "not TIME:NAME=VALUE or TIME:fire NAME");
  entry.parameter = std::string(trim(rest.substr(0, eq)));
  const std::string_view value = trim(rest.substr(eq + 1));
  if (entry.parameter.empty()) throw entry_error(entry, "the parameter's name before '=' is empty");
  if (equals_ignoring_case(value, "true") || equals_ignoring_case(value, "false")) {
    entry.boolean = true;
    entry.value = equals_ignoring_case(value, "true") ? 1.f : 0.f;
    return;
  }
  const std::optional<double> v = number(value);
  if (!v) throw entry_error(entry, "value '" + std::string(value) + "' is not a number, true or false");
  if (std::abs(*v) > static_cast<double>(std::numeric_limits<float>::max())) {
    throw entry_error(entry, "value '" + std::string(value) + "' is beyond a float's range");
  }
  entry.value = static_cast<float>(*v);
}

ScriptEntry parse_entry(std::string_view text) {
  ScriptEntry entry;
  entry.text = std::string(text);
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) throw entry_error(entry, "not TIME:NAME=VALUE or TIME:fire NAME");
  const std::string_view time = trim(text.substr(0, colon));
  const std::optional<double> seconds = number(time);
  if (!seconds) throw entry_error(entry, "time '" + std::string(time) + "' is not a number");
  if (*seconds < 0 || *seconds > kMaxScriptSeconds) {
    throw entry_error(entry, "time " + std::string(time) + " is outside 0 to " +
                                 std::to_string(static_cast<int>(kMaxScriptSeconds)) + " seconds");
  }
  entry.seconds = *seconds;
  entry.time = ticks_from_seconds(*seconds);
  const std::string_view rest = trim(text.substr(colon + 1));
  const bool fire = rest.substr(0, 4) == "fire" && (rest.size() == 4 || std::isspace(static_cast<unsigned char>(rest[4]))) &&
                    rest.find('=') == std::string_view::npos;
  if (!fire) {
    parse_assignment(rest, entry);
    return entry;
  }
  entry.fire = true;
  entry.parameter = std::string(trim(rest.substr(4)));
  if (entry.parameter.empty()) throw entry_error(entry, "fire needs a trigger's name (TIME:fire NAME)");
  return entry;
}

std::string parameter_list(const AnimationGraph& graph) {
  std::string names;
  for (const GraphParameter& p : graph.parameters()) names += (names.empty() ? "" : ", ") + p.name;
  return names.empty() ? "it has none" : "its parameters: " + names;
}

const char* kind_name(GraphParameterType type) {
  switch (type) {
    case GraphParameterType::Float: return "a float parameter";
    case GraphParameterType::Bool: return "a bool parameter";
    case GraphParameterType::Trigger: return "a trigger";
  }
  return "a parameter";
}

// Every entry names a parameter of the graph and suits its kind, so applying never throws.
void check_script(std::span<const ScriptEntry> script, const AnimationGraph& graph) {
  for (const ScriptEntry& entry : script) {
    const int p = graph.find_parameter(entry.parameter);
    if (p < 0) throw entry_error(entry, "the graph has no parameter '" + entry.parameter + "' (" + parameter_list(graph) + ")");
    const GraphParameterType type = graph.parameters()[static_cast<std::size_t>(p)].type;
    const std::string what = "'" + entry.parameter + "' is " + kind_name(type);
    if (entry.fire && type != GraphParameterType::Trigger) throw entry_error(entry, what + ": give it a value (TIME:NAME=VALUE)");
    if (!entry.fire && type == GraphParameterType::Trigger) throw entry_error(entry, what + ": fire it (TIME:fire NAME)");
    if (entry.boolean && type == GraphParameterType::Float) throw entry_error(entry, what + ": give it a number");
  }
}

}  // namespace

std::vector<ScriptEntry> parse_graph_script(std::string_view script) {
  std::vector<ScriptEntry> entries;
  while (true) {
    const auto semicolon = script.find(';');
    const std::string_view text = trim(script.substr(0, semicolon));
    if (!text.empty()) entries.push_back(parse_entry(text));
    if (semicolon == std::string_view::npos) break;
    script.remove_prefix(semicolon + 1);
  }
  if (entries.empty()) throw UsageError("--script has no entries (TIME:NAME=VALUE; TIME:fire NAME; ...)");
  std::stable_sort(entries.begin(), entries.end(), [](const ScriptEntry& a, const ScriptEntry& b) { return a.time < b.time; });
  return entries;
}

GraphFlags take_graph_flags(Args& args) {
  GraphFlags flags;
  flags.graph = take_option(args, "--graph");
  const std::optional<std::string> script = take_option(args, "--script");
  if (script && !flags.graph) throw UsageError("--script goes with --graph");
  if (script) flags.script = parse_graph_script(*script);
  return flags;
}

std::shared_ptr<const AnimationGraph> load_graph(const GraphFlags& flags, const Model& model) {
  const GraphDescription description = read_graph_file(*flags.graph);
  std::shared_ptr<const AnimationGraph> graph;
  try {
    graph = std::make_shared<const AnimationGraph>(description, model);
  } catch (const std::invalid_argument& e) {
    // A graph naming what this model lacks is a refused file (exit 1), not a usage error.
    throw std::runtime_error(*flags.graph + ": " + e.what());
  }
  check_script(flags.script, *graph);
  return graph;
}

ScriptedGraph::ScriptedGraph(const Model& model, std::shared_ptr<const AnimationGraph> graph, std::vector<ScriptEntry> script)
    : animator_(model), instance_(std::move(graph), animator_), script_(std::move(script)) {}

void ScriptedGraph::apply_due() {
  for (; next_ < script_.size() && script_[next_].time <= now_; ++next_) {
    const ScriptEntry& entry = script_[next_];
    if (entry.fire) {
      instance_.fire(entry.parameter);
    } else {
      instance_.set(entry.parameter, entry.value);
    }
  }
}

void ScriptedGraph::advance_to(Ticks time) {
  while (now_ < time) {
    apply_due();
    // Grid times from the step count, not summed steps, so no rounding accumulates.
    const Ticks grid_end = ticks_from_seconds(static_cast<double>(step_ + 1) / kStepsPerSecond);
    const Ticks end = std::min(grid_end, time);
    instance_.update(end - now_);
    now_ = end;
    if (end == grid_end) ++step_;
  }
}

}  // namespace marrow::cli
