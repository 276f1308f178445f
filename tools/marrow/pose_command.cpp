// `marrow pose FILE [--clip NAME|INDEX] [--time SECONDS] [--scene N] [--json] [--no-normals]
//                   [--layer CLIP@SECONDS=WEIGHT[/NODE]]... [--additive CLIP@SECONDS=WEIGHT[/NODE]]...
//                   [--two-bone-ik START,MID,END=X,Y,Z[,PX,PY,PZ]]... [--root-motion | --root-motion-yaw]
//                   [--graph G.json [--script "TIME:NAME=VALUE; TIME:fire NAME; ..."]]`:
// the pose at that time (clamped to the clip, no looping), a blend of layers (pose_flags.hpp) or
// an animation graph played under a script to that time (graph_script.hpp; the report adds the
// graph's "state" and "clip_weights"), in the schema of the oracle (../shared/tools/oracle) with
// --json, else a short readable summary. Any format marrow loads. --time without --clip plays the file's only clip (a file
// with several is a usage error listing them, as in `marrow render`); a negative time is refused.
#include <cstdio>

#include "commands.hpp"
#include "graph_script.hpp"
#include "json_writer.hpp"
#include "loaded_file.hpp"
#include "reports/pose_report.hpp"
#include "marrow/model/bounds.hpp"
#include "options.hpp"
#include "pose_flags.hpp"

namespace marrow::cli {

namespace {

void write_mat(JsonWriter& j, const glm::mat4& m) {
  j.begin_array();
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) j.value(m[c][r]);
  }
  j.end_array();
}

template <class V>
void write_vec3s(JsonWriter& j, const std::vector<V>& points) {
  j.begin_array();
  for (const V& p : points) j.value(p.x).value(p.y).value(p.z);
  j.end_array();
}

struct RootMotionReport {
  int node = -1;  // file node
  RootMotion motion;
};

void write_json(const std::string& file, const PoseReport& r, bool normals, const std::optional<RootMotionReport>& root) {
  JsonWriter j(stdout);
  j.begin_object();
  j.key("marrow").begin_object().key("engine").value("marrow").end_object();
  j.key("file").value(file);
  if (r.scene >= 0) {
    j.key("scene").value(r.scene);
  } else {
    j.key("scene").null();
  }
  if (r.clip >= 0) {
    j.key("clip").begin_object().key("index").value(r.clip).key("name").name(r.clip_name).key("duration").value(r.duration).end_object();
    j.key("time").value(r.time).key("sampledTime").value(r.sampled_time);
  } else if (r.graph) {
    j.key("clip").null().key("time").value(r.time).key("sampledTime").null();  // the graph's time; it samples many clips
  } else {
    j.key("clip").null().key("time").null().key("sampledTime").null();
  }
  j.key("nodes").begin_array();
  for (const PoseReport::Node& n : r.nodes) {
    j.begin_object().key("index").value(n.index).key("name").name(n.name);
    j.key("translation").numbers(&n.translation.x, &n.translation.x + 3);
    j.key("rotation").begin_array().value(n.rotation.x).value(n.rotation.y).value(n.rotation.z).value(n.rotation.w).end_array();
    j.key("scale").numbers(&n.scale.x, &n.scale.x + 3);
    j.key("world");
    write_mat(j, n.world);
    j.end_object();
  }
  j.end_array();
  j.key("skins").begin_array();
  for (const PoseReport::Skin& s : r.skins) {
    j.begin_object().key("index").value(s.index).key("name").name(s.name);
    j.key("joints").numbers(s.joints.begin(), s.joints.end());
    if (s.mesh_node) {
      j.key("meshNode").value(*s.mesh_node);
    } else {
      j.key("meshNode").null();
    }
    j.key("jointMatrices").begin_array();
    for (const glm::mat4& m : s.joint_matrices) write_mat(j, m);
    j.end_array();
    j.key("globalJointMatrices").begin_array();
    for (const glm::mat4& m : s.global_joint_matrices) write_mat(j, m);
    j.end_array();
    if (!s.per_node.empty()) {  // several mesh nodes draw with the skin (the oracle's schema)
      j.key("perNode").begin_array();
      for (const PoseReport::Skin::NodeMatrices& p : s.per_node) {
        j.begin_object().key("node").value(p.node).key("jointMatrices").begin_array();
        for (const glm::mat4& m : p.joint_matrices) write_mat(j, m);
        j.end_array().end_object();
      }
      j.end_array();
    }
    j.end_object();
  }
  j.end_array();
  j.key("meshes").begin_array();
  for (const PoseReport::Mesh& m : r.meshes) {
    j.begin_object().key("node").value(m.node).key("mesh").value(m.mesh).key("primitive").value(m.primitive);
    j.key("skinned").value(m.skinned).key("vertexCount").value(m.positions.size());
    j.key("positions");
    write_vec3s(j, m.positions);
    if (normals && !m.normals.empty()) {
      j.key("normals");
      write_vec3s(j, m.normals);
    }
    j.end_object();
  }
  j.end_array();
  j.key("morphWeights").begin_array();
  for (const PoseReport::MorphWeights& w : r.morph_weights) {
    j.begin_object().key("node").value(w.node).key("mesh").value(w.mesh).key("weights").numbers(w.weights.begin(), w.weights.end()).end_object();
  }
  j.end_array();
  j.key("warnings").begin_array();
  for (const std::string& w : r.warnings) j.value(w);
  j.end_array();
  if (r.graph) {
    j.key("state").value(r.graph->state);
    j.key("clip_weights").begin_object();
    for (const auto& [clip, weight] : r.graph->clip_weights) j.key(clip).value(weight);
    j.end_object();
  }
  if (root) {
    const glm::vec3& t = root->motion.translation;
    j.key("rootMotion").begin_object().key("node").value(root->node);
    j.key("translation").numbers(&t.x, &t.x + 3);
    j.key("yaw").value(root->motion.yaw).end_object();
  }
  j.end_object();
  j.finish();
}

void write_text(const std::string& file, const PoseReport& r, const std::optional<RootMotionReport>& root,
                const PoseFlags& flags, const Model& model) {
  std::printf("%s: scene %d, ", file.c_str(), r.scene);
  if (r.clip >= 0) {
    std::printf("clip %d \"%s\" (%.4g s) at %.6g s", r.clip, r.clip_name.c_str(), r.duration, r.sampled_time);
  } else if (r.graph) {
    std::printf("graph at %.6g s, state \"%s\", clip weights", r.time, r.graph->state.c_str());
    for (const auto& [clip, weight] : r.graph->clip_weights) std::printf(" \"%s\" %.4g", clip.c_str(), static_cast<double>(weight));
  } else if (flags.layers.empty()) {
    std::printf("rest pose");
  }
  for (const auto* list : {&flags.layers, &flags.additive}) {
    for (const LayerFlag& l : *list) {
      std::printf("%s%s\"%s\" at %.6g s, weight %.6g%s%s", list == &flags.layers && &l == &flags.layers.front() ? "" : " + ",
                  list == &flags.additive ? "additive " : "", model.animations[static_cast<std::size_t>(l.clip)].name.c_str(),
                  l.seconds, static_cast<double>(l.weight), l.mask.empty() ? "" : " below ", l.mask.c_str());
    }
  }
  if (!flags.two_bone_ik.empty()) std::printf(" + %zu IK chain(s)", flags.two_bone_ik.size());
  std::printf("\n");
  std::printf("nodes (world translation):\n");
  for (const PoseReport::Node& n : r.nodes) {
    std::printf("  %4u %-24s (%10.5f, %10.5f, %10.5f)\n", n.index, n.name.c_str(), n.world[3][0], n.world[3][1],
                n.world[3][2]);
  }
  for (const PoseReport::Mesh& m : r.meshes) {
    const BoundingBox box = bounding_box_of(m.positions);
    std::printf("mesh %u primitive %u on node %u%s: %zu vertices, bounds (%.5g, %.5g, %.5g) .. (%.5g, %.5g, %.5g)\n", m.mesh,
                m.primitive, m.node, m.skinned ? " (skinned)" : "", m.positions.size(), box.min.x, box.min.y, box.min.z,
                box.max.x, box.max.y, box.max.z);
  }
  for (const PoseReport::MorphWeights& w : r.morph_weights) {
    std::printf("morph weights of node %u:", w.node);
    for (float x : w.weights) std::printf(" %.6g", x);
    std::printf("\n");
  }
  if (root) {
    const glm::vec3& t = root->motion.translation;
    std::printf("root motion of node %d from 0: (%.6g, %.6g, %.6g), yaw %.6g rad\n", root->node, t.x, t.y, t.z,
                static_cast<double>(root->motion.yaw));
  }
  for (const std::string& w : r.warnings) std::printf("warning: %s\n", w.c_str());
}

// --graph: the graph played under its script from 0 to `seconds` (graph_script.hpp).
PoseReport graph_pose(const Model& model, const GraphFlags& graph, double seconds) {
  ScriptedGraph player(model, load_graph(graph, model), graph.script);
  player.advance_to(ticks_from_seconds(seconds));
  PoseReport report = make_pose_report(model, player.animator());
  report.time = seconds;  // the JSON's time; its clip and sampledTime stay null
  report.graph = describe_graph(player.instance());
  return report;
}

}  // namespace

int run_pose(const Args& arguments) {
  Args args = arguments;
  const ModelFileOptions options = take_load_options(args);
  const auto clip = take_option(args, "--clip");
  const auto time = take_option(args, "--time");
  const bool json = take_flag(args, "--json");
  const bool no_normals = take_flag(args, "--no-normals");
  PoseFlags flags = take_pose_flags(args);
  const GraphFlags graph = take_graph_flags(args);
  if (graph.graph && (clip || flags.blends() || !flags.two_bone_ik.empty() || flags.root_motion)) {
    throw UsageError("--graph plays its own clips: it may not be combined with --clip, --layer, --additive, --two-bone-ik or --root-motion");
  }
  if (!flags.layers.empty() && (clip || time)) throw UsageError("--clip and --time may not be combined with --layer");
  if (flags.root_motion && !clip && flags.layers.empty()) throw UsageError("--root-motion needs --clip (or --layer)");
  if (time) parse_seconds(*time, "--time");  // a usage error before the file is read
  if (graph.graph && time && parse_seconds(*time, "--time") > kMaxScriptSeconds) {
    throw UsageError("--time " + *time + " with --graph: at most " + std::to_string(static_cast<int>(kMaxScriptSeconds)) + " seconds");
  }
  const std::string file = take_file(args, "pose");
  const LoadedFile loaded = load_file(file, options);
  const Model& model = loaded.model;
  resolve_pose_flags(flags, model);
  const double seconds = time ? parse_seconds(*time, "--time") : 0.0;
  const int index = !graph.graph && (clip || (time && flags.layers.empty())) ? clip_for_time(model, clip, "--time") : -1;
  PoseReport report;
  std::optional<RootMotionReport> root;
  if (graph.graph) {
    report = graph_pose(model, graph, seconds);
  } else if (!flags.blends() && flags.two_bone_ik.empty() && !flags.root_motion) {
    report = pose_at(model, index, seconds);
  } else {
    Animator animator(model);
    pose_animator(animator, flags, index, seconds);
    report = make_pose_report(model, animator);
    if (index >= 0 && flags.layers.empty()) describe_clip(model, index, seconds, report);
    if (flags.root_motion) {
      const int node = animator.root_motion_node();
      root = RootMotionReport{model.nodes[static_cast<std::size_t>(node)].source_node, animator.root_motion_offset()};
    }
  }
  if (json) {
    write_json(file, report, !no_normals, root);
  } else {
    write_text(file, report, root, flags, model);
  }
  return 0;
}

}  // namespace marrow::cli
