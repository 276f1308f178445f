#pragma once
// An animation graph file (AG8): one JSON object holding a GraphDescription
// (model/graph_description.hpp). docs/graph.md is the reference, docs/graph.schema.json its
// JSON Schema, docs/examples/fox_graph.json an example. In brief:
//
//   {"version": 1,
//    "parameters": {"speed": {"type": "float", "default": 0}, "jump": {"type": "trigger"}},
//    "root": "main",
//    "nodes": {"idle": {"type": "clip", "clip": "Survey"},
//              "run":  {"type": "clip", "clip": "Run", "rate": 1.2, "loop": "loop"},
//              "move": {"type": "blend1d", "parameter": "speed", "sync": true,
//                       "samples": [{"node": "idle", "at": 0}, {"node": "run", "at": 4}]},
//              "main": {"type": "state_machine", "initial": "ground",
//                       "states": {"ground": "move", "leap": "run"},
//                       "transitions": [{"from": "ground", "to": "leap",
//                                        "conditions": [{"trigger": "jump"}], "blend": "inertialize"}]}}}
//
// Node types: clip, blend1d, blend2d, layer, sync, state_machine. Parameters and nodes keep the
// file's order; a node's name is its key.
//
// The file is hostile input: it is size-checked and read once (file_bytes.hpp), nesting deeper
// than the format's (kGraphJsonDepth) is refused by the parser, and each refusal is an
// ImportError (docs/errors.md) whose message starts with `where` and names the node (or the
// parameter) and the field, e.g.
//   graph.json: node "move", field "samples[2].at": is not a number (a string)
// The reader checks the format only: what the names refer to (clips, nodes, parameters, states,
// mask nodes), blend positions, cycles and parameter kinds are checked against a Model by
// AnimationGraph (model/animation_graph.hpp), which throws std::invalid_argument.
#include <cstddef>
#include <filesystem>
#include <span>
#include <string_view>

#include "marrow/io/import_options.hpp"
#include "marrow/model/graph_description.hpp"

namespace marrow {

// Throws ImportError:
//   EmptyFile        no bytes
//   InvalidJson      not well-formed JSON, or nested deeper than kGraphJsonDepth
//   VersionMismatch  "version" is an integer other than 1
//   InvalidDocument  not an object; a missing required member ("version", "root", "nodes", a
//                    node's "type", ...); a member the format does not have, or one given
//                    twice (typos do not pass silently); a value of the wrong type, or not one
//                    of its words ("loop": "forever"); a number that is not finite in float, or
//                    negative where it may not be (start, weights, exit_time, duration); an
//                    empty name; a parameter, node, state, mask node or sync marker named
//                    twice; "nodes", "states", "samples", "layers", a mask or "markers" empty;
//                    blend2d "parameters" or "at" not exactly two; a default on a trigger; a
//                    state named "*" or a transition to "*"
//   LimitExceeded    more entries than a kMaxGraph* constant below, and ImportLimits'
//                    max_file_bytes
// and read_file's codes (IoError).
GraphDescription read_graph_file(const std::filesystem::path& path, const ImportLimits& limits = {});
// `where` starts every message (the file's path when read from a file).
GraphDescription parse_graph(std::span<const std::byte> json, const ImportLimits& limits = {},
                             std::string_view where = "graph");

// Nesting of objects and arrays a graph file needs (the document, "nodes", a node,
// "transitions", a transition, "conditions", a condition); deeper is InvalidJson.
inline constexpr std::size_t kGraphJsonDepth = 7;

// Limits (LimitExceeded). A graph for a real character is far below each; they bound what a
// small hostile file can make the reader and AnimationGraph build.
inline constexpr std::size_t kMaxGraphNodes = 4096;         // AnimationGraph's kMaxGraphPlaces
inline constexpr std::size_t kMaxGraphParameters = 256;
inline constexpr std::size_t kMaxGraphBlendSamples = 256;   // per blend1d or blend2d node
inline constexpr std::size_t kMaxGraphStates = 256;         // per state machine
inline constexpr std::size_t kMaxGraphTransitions = 1024;   // per state machine
inline constexpr std::size_t kMaxGraphConditions = 64;      // per transition
inline constexpr std::size_t kMaxGraphLayers = 64;          // per layer node
inline constexpr std::size_t kMaxGraphSyncMarkers = 64;     // per "sync" or sync node
inline constexpr std::size_t kMaxGraphMaskEntries = 1024;   // per mask object: a rig's nodes

}  // namespace marrow
