#pragma once
// The pose of an imported model at one moment, reported in the FILE's index spaces (node, mesh,
// primitive and skin indices, joints in the file's joint order, vertices in the file's order and
// count, from Model::source and the source_* fields), so it can be compared with any other
// implementation. This is what `marrow pose --json` prints, in the schema of
// ../shared/tools/oracle, for every format marrow loads.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>

#include "marrow/model/animator.hpp"
#include "marrow/model/graph_instance.hpp"
#include "marrow/model/model.hpp"

namespace marrow {

struct PoseReport {
  struct Node {
    std::uint32_t index = 0;
    std::string name;
    glm::vec3 translation{0.f};
    glm::quat rotation{1, 0, 0, 0};
    glm::vec3 scale{1.f};
    glm::mat4 world{1.f};
  };
  struct Skin {
    std::uint32_t index = 0;
    std::string name;
    std::vector<std::uint32_t> joints;
    std::optional<std::uint32_t> mesh_node;
    std::vector<glm::mat4> joint_matrices;         // inverse(W_meshNode) * W_joint * IBM
    std::vector<glm::mat4> global_joint_matrices;  // W_joint * IBM
    struct NodeMatrices {
      std::uint32_t node = 0;
      std::vector<glm::mat4> joint_matrices;       // inverse(W_node) * W_joint * IBM
    };
    std::vector<NodeMatrices> per_node;            // every mesh node drawing with the skin, when several do
  };
  struct Mesh {
    std::uint32_t node = 0, mesh = 0, primitive = 0;
    bool skinned = false;
    std::vector<glm::vec3> positions;  // world space, file vertex order
    std::vector<glm::vec3> normals;    // when the file's primitive has NORMAL (triangles)
  };
  struct MorphWeights {
    std::uint32_t node = 0, mesh = 0;
    std::vector<float> weights;
  };
  // A pose an animation graph made (`marrow pose --graph`): the root state machine's state (""
  // when the root is no state machine) and, per clip the graph plays, the sum of the weights of
  // the places that play it (GraphInstance::clip_weights, additive places included), in the
  // order the graph first names each clip.
  struct Graph {
    std::string state;
    std::vector<std::pair<std::string, float>> clip_weights;
  };

  int scene = -1;
  int clip = -1;                 // animation index, -1 for the rest pose
  std::string clip_name;
  double duration = 0.0;
  double time = 0.0;             // requested
  double sampled_time = 0.0;     // clamped to [0, duration]
  std::vector<Node> nodes;       // the scene's nodes, ascending file index
  std::vector<Skin> skins;       // skins whose joints are all in the scene
  std::vector<Mesh> meshes;      // by node, then primitive
  std::vector<MorphWeights> morph_weights;
  std::vector<std::string> warnings;
  std::optional<Graph> graph;    // set for a graph's pose
};

// Poses `animator` (already played and updated by the caller) and reports it.
PoseReport make_pose_report(const Model& model, Animator& animator);

// Plays clip (-1: rest pose) at `seconds` (clamped, no looping) on a fresh Animator and reports.
PoseReport pose_at(const Model& model, int clip, double seconds);

// A graph instance's state and clip weights after its last update (PoseReport::Graph); the
// Python module's GraphInstance.clip_weights() is the same sum.
PoseReport::Graph describe_graph(const GraphInstance& instance);

// Fills the report's clip fields (index, name, duration, time, sampled time) for clip at seconds.
void describe_clip(const Model& model, int clip, double seconds, PoseReport& report);

}  // namespace marrow
