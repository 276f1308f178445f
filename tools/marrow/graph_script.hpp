#pragma once
// `--graph G.json [--script "TIME:NAME=VALUE; TIME:fire NAME; ..."]` (marrow pose and render): an
// animation graph (model/graph_instance.hpp) played from time 0 with its parameters changed at
// the script's times.
//
// The script: entries separated by ';' (empty ones are skipped), each `TIME:NAME=VALUE` (a
// number, or true/false for a bool parameter) or `TIME:fire NAME` (a trigger); spaces around
// each part are allowed. TIME is seconds in [0, kMaxScriptSeconds]. Entries are applied in time
// order, equal times in the order written (a stable sort, so order in the text does not matter).
//
// Time: the graph advances from 0 in steps of 1/60 s (a game's frame: a trigger, a crossfade or
// an exit time falls on the same frame on every run), and a change at time s is applied before
// the first step that starts at or after s. Advancing to a time between two steps ends with a
// shorter step, so `marrow pose --time T` shows exactly T; a change at T itself shows from the
// next step on (at T = 0 nothing has changed yet).
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "marrow/core/ticks.hpp"
#include "marrow/model/animation_graph.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/graph_instance.hpp"

namespace marrow::cli {

inline constexpr double kMaxScriptSeconds = 3600.0;

struct ScriptEntry {
  std::string text;         // as written (trimmed), for messages
  Ticks time{};
  double seconds = 0.0;
  std::string parameter;
  bool fire = false;        // TIME:fire NAME
  bool boolean = false;     // the value was written true or false
  float value = 0.f;        // TIME:NAME=VALUE (true: 1, false: 0)
};

// The entries in the order they apply. UsageError naming the entry for a malformed one, and for
// a script without entries.
std::vector<ScriptEntry> parse_graph_script(std::string_view script);

struct GraphFlags {
  std::optional<std::string> graph;   // --graph FILE
  std::vector<ScriptEntry> script;    // --script TEXT
  double last_seconds() const noexcept { return script.empty() ? 0.0 : script.back().seconds; }
};

// Takes --graph and --script out of args (UsageError: a malformed script, --script without
// --graph).
GraphFlags take_graph_flags(Args& args);

// Reads the graph file and checks it against the model: ImportError for a file that is not a
// graph, std::runtime_error naming the file, the node and the field for a graph the model cannot
// play (both exit 1); then UsageError naming the script entry that names no parameter of the
// graph or the wrong kind (a value for a trigger, fire for another kind, true/false for a
// float parameter).
std::shared_ptr<const AnimationGraph> load_graph(const GraphFlags& flags, const Model& model);

// One character playing a graph under a script (the rules above).
class ScriptedGraph {
 public:
  ScriptedGraph(const Model& model, std::shared_ptr<const AnimationGraph> graph, std::vector<ScriptEntry> script);
  ScriptedGraph(const ScriptedGraph&) = delete;
  ScriptedGraph& operator=(const ScriptedGraph&) = delete;

  // Advances to `time` (not before the current time: an earlier one is a no-op).
  void advance_to(Ticks time);
  Ticks now() const noexcept { return now_; }
  Animator& animator() noexcept { return animator_; }
  const GraphInstance& instance() const noexcept { return instance_; }

 private:
  void apply_due();

  Animator animator_;
  GraphInstance instance_;
  std::vector<ScriptEntry> script_;
  std::size_t next_ = 0;         // the first entry not yet applied
  Ticks now_{};
  long long step_ = 0;           // the grid step now_ is in: [step_, step_ + 1) * 1/60 s
};

}  // namespace marrow::cli
