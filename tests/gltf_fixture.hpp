#pragma once
// Builds small glTF files in code for the import tests (the seed's discriminating fixtures and
// more): nodes, meshes, skins and animations are added through GltfBuilder, then the asset is
// written as a GLB and imported back, so every test also exercises the writer and the reader.
#include <cstdint>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "marrow/io/gltf/gltf_builder.hpp"
#include "marrow/io/import_options.hpp"
#include "marrow/model/model.hpp"

namespace marrow::test {

struct MeshData {
  std::vector<glm::vec3> positions;
  std::vector<glm::vec3> normals;           // empty: none
  std::vector<std::uint32_t> indices;       // empty: non-indexed
  std::vector<glm::u16vec4> joints;         // empty: unskinned
  std::vector<glm::vec4> weights;
  // Further influence sets (S1): JOINTS_1/WEIGHTS_1, JOINTS_2/WEIGHTS_2, ..., one entry per vertex.
  std::vector<std::vector<glm::u16vec4>> more_joints;
  std::vector<std::vector<glm::vec4>> more_weights;
  std::vector<std::vector<glm::vec3>> position_targets;  // morph targets
  std::vector<std::vector<glm::vec3>> normal_targets;    // empty, or one per target
  std::vector<float> weights_default;       // mesh.weights
  std::uint32_t mode = 4;
  std::uint32_t material = gltf::kNone;
};

class Fixture {
 public:
  gltf::Document& doc() { return builder_.document(); }
  gltf::GltfBuilder& builder() { return builder_; }

  std::uint32_t node(const std::string& name, glm::vec3 translation = glm::vec3(0.f),
                     glm::quat rotation = glm::quat(1, 0, 0, 0), glm::vec3 scale = glm::vec3(1.f));
  void child(std::uint32_t parent, std::uint32_t child);
  // Adds a scene (the first one added becomes the default).
  std::uint32_t scene(const std::vector<std::uint32_t>& roots);
  std::uint32_t mesh(const MeshData& data);
  std::uint32_t skin(const std::vector<std::uint32_t>& joints, const std::vector<glm::mat4>& inverse_binds,
                     std::uint32_t skeleton = gltf::kNone);
  std::uint32_t animation(const std::string& name);
  // values: keys * components (x3 for CUBICSPLINE: in-tangent, value, out-tangent per key).
  void channel(std::uint32_t animation, std::uint32_t node, const std::string& path,
               gltf::SamplerInterpolation interpolation, const std::vector<float>& times,
               const std::vector<float>& values);

  gltf::GltfAsset asset();       // a finished copy (the fixture can still be edited)
  std::vector<std::byte> glb();
  Model import(const ImportOptions& options = {});

 private:
  gltf::GltfBuilder builder_;
};

// A chain of `count` joints (J0, then each 0.1 above its parent) skinning `mesh` on the node
// "Body" with identity inverse binds, both in one scene (the palette-limit fixtures).
Fixture joint_chain(int count, const MeshData& mesh);

// World transform of a node of the fixture's document (through its parents).
glm::mat4 node_world(const gltf::Document& doc, std::uint32_t node);

// Posed positions of every part of a mesh (model space) with an Animator at a time of a clip.
std::vector<glm::vec3> posed_positions(const Model& model, std::size_t mesh, int clip = -1, double seconds = 0.0);

}  // namespace marrow::test
