// The animation graph files of the malformed corpus (graph_*.json): each wrong in one way
// (docs/graph.md, io/graph_file.hpp). What the names refer to is AnimationGraph's check, not the
// reader's, so every file here is wrong as a file.
#include <string>

#include "malformed_corpus.hpp"

namespace marrow::test {

namespace {

// A valid graph around one node's members: {"version": 1, "root": "a", "nodes": {"a": {...}}}.
std::string one_node(const std::string& members) {
  return "{\"version\": 1, \"root\": \"a\", \"nodes\": {\"a\": {" + members + "}}}";
}

}  // namespace

void append_malformed_graphs(std::vector<MalformedFile>& out) {
  using C = ImportErrorCode;
  const auto add = [&](const char* name, const std::string& text, C code, const char* why) {
    std::vector<std::byte> bytes(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) bytes[i] = static_cast<std::byte>(text[i]);
    out.push_back({name, std::move(bytes), code, why});
  };
  const std::string clip = "\"type\": \"clip\", \"clip\": \"Walk\"";
  add("graph_empty.json", "", C::EmptyFile, "no bytes");
  add("graph_not_json.json", "{version: 1, root: \"a\"}", C::InvalidJson, "member names without quotes");
  add("graph_nested_too_deep.json",
      one_node("\"type\": \"blend2d\", \"parameters\": [\"x\", \"y\"], \"samples\": [{\"node\": \"b\", \"at\": [[[[0]]], 0]}]"),
      C::InvalidJson, "arrays nested in a blend2d position, deeper than the format's 7 levels");
  add("graph_array.json", "[{\"version\": 1}]", C::InvalidDocument, "an array, not a graph object");
  add("graph_version_2.json", "{\"version\": 2, \"root\": \"a\", \"nodes\": {\"a\": {" + clip + "}}}", C::VersionMismatch,
      "version 2 (the reader reads version 1)");
  add("graph_no_version.json", "{\"root\": \"a\", \"nodes\": {\"a\": {" + clip + "}}}", C::InvalidDocument, "no version");
  add("graph_no_root.json", "{\"version\": 1, \"nodes\": {\"a\": {" + clip + "}}}", C::InvalidDocument, "no root node");
  add("graph_no_nodes.json", "{\"version\": 1, \"root\": \"a\", \"nodes\": {}}", C::InvalidDocument, "a graph without nodes");
  add("graph_unknown_member.json", one_node(clip + ", \"rat\": 1.5"), C::InvalidDocument, "a clip node's \"rate\" misspelled \"rat\"");
  add("graph_bad_node_type.json", one_node("\"type\": \"blend3d\""), C::InvalidDocument, "a node type the format does not have");
  add("graph_sample_at_string.json",
      one_node("\"type\": \"blend1d\", \"parameter\": \"speed\", \"samples\": [{\"node\": \"b\", \"at\": 0}, {\"node\": \"c\", \"at\": \"4\"}]"),
      C::InvalidDocument, "a blend1d sample position given as a string");
  add("graph_blend2d_one_coordinate.json",
      one_node("\"type\": \"blend2d\", \"parameters\": [\"x\", \"y\"], \"samples\": [{\"node\": \"b\", \"at\": [1]}]"),
      C::InvalidDocument, "a blend2d sample position with one coordinate");
  add("graph_node_twice.json", "{\"version\": 1, \"root\": \"a\", \"nodes\": {\"a\": {" + clip + "}, \"a\": {" + clip + "}}}",
      C::InvalidDocument, "one node name defined twice");
  add("graph_trigger_default.json",
      "{\"version\": 1, \"parameters\": {\"jump\": {\"type\": \"trigger\", \"default\": true}}, \"root\": \"a\", \"nodes\": {\"a\": {" +
          clip + "}}}",
      C::InvalidDocument, "a default on a trigger parameter");
  add("graph_negative_duration.json",
      one_node("\"type\": \"state_machine\", \"initial\": \"s\", \"states\": {\"s\": \"b\"}, "
               "\"transitions\": [{\"from\": \"*\", \"to\": \"s\", \"duration\": -0.2}]"),
      C::InvalidDocument, "a transition of negative duration");
  add("graph_negative_layer_weight.json",
      one_node("\"type\": \"layer\", \"base\": \"b\", \"layers\": [{\"node\": \"c\", \"weight\": -1}]"), C::InvalidDocument,
      "a layer of negative weight");
  std::string conditions;
  for (int i = 0; i < 65; ++i) conditions += std::string(i == 0 ? "" : ", ") + "{\"trigger\": \"t\"}";
  add("graph_too_many_conditions.json",
      one_node("\"type\": \"state_machine\", \"initial\": \"s\", \"states\": {\"s\": \"b\"}, "
               "\"transitions\": [{\"from\": \"s\", \"to\": \"s\", \"conditions\": [" + conditions + "]}]"),
      C::LimitExceeded, "a transition of 65 conditions (kMaxGraphConditions is 64)");
}

}  // namespace marrow::test
