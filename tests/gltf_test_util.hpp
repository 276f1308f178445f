#pragma once
// Helpers for the glTF I/O tests: an ImportError check (code and message fragments), a sample
// asset that uses every part of the Document, and JSON round trips.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "marrow/core/import_error.hpp"
#include "marrow/io/gltf/gltf_builder.hpp"
#include "marrow/io/gltf/detail/gltf_json.hpp"

namespace marrow::test {

// The smallest valid glTF document.
inline constexpr const char* kMinimalGltf = R"({"asset":{"version":"2.0"}})";

// Runs f, expects an ImportError with that code whose what() contains every fragment.
template <class F>
::testing::AssertionResult refuses(F&& f, ImportErrorCode code, std::initializer_list<std::string> fragments) {
  try {
    f();
  } catch (const ImportError& e) {
    if (e.code() != code) {
      return ::testing::AssertionFailure()
             << "code " << to_string(e.code()) << " instead of " << to_string(code) << ": " << e.what();
    }
    const std::string what = e.what();
    for (const std::string& fragment : fragments) {
      if (what.find(fragment) == std::string::npos) {
        return ::testing::AssertionFailure() << "message '" << what << "' lacks '" << fragment << "'";
      }
    }
    return ::testing::AssertionSuccess() << what;
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw another exception: " << e.what();
  }
  return ::testing::AssertionFailure() << "did not throw";
}

inline gltf::Document parse_json(const std::string& json, const ImportLimits& limits = {}) {
  std::vector<Diagnostic> diagnostics;
  return gltf::parse_gltf_json(json, limits, diagnostics);
}

inline gltf::Document parse_json(const std::string& json, std::vector<Diagnostic>& diagnostics,
                                 const ImportLimits& limits = {}) {
  return gltf::parse_gltf_json(json, limits, diagnostics);
}

// The document written and read back.
inline gltf::Document reparse(const gltf::Document& d, const ImportLimits& limits = {}) {
  return parse_json(gltf::serialize_gltf_json(d), limits);
}

template <class T>
std::vector<std::byte> as_bytes(const std::vector<T>& values) {
  std::vector<std::byte> out(values.size() * sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// A small skinned, animated, morphing asset using every part of the Document:
//  accessors 0 POSITION, 1 indices, 2 key times, 3 translations, 4 inverse binds, 5 JOINTS_0,
//  6 WEIGHTS_0; nodes 0 root (TRS, camera) -> 1 mesh node (skin 0), 2 joint (matrix) -> 3 joint.
inline gltf::GltfAsset sample_asset() {
  using namespace gltf;
  GltfBuilder b;
  const std::vector<float> positions{0, 0, 0, 1, 0, 0, 0, 1, 0};
  const std::vector<std::uint16_t> indices{0, 1, 2};
  const std::vector<float> times{0.f, 0.5f, 1.f};
  const std::vector<float> translations{0, 0, 0, 1, 2, 3, -4.5f, 0.1f, 1e-7f};
  std::vector<float> inverse_binds(32, 0.f);
  for (int m = 0; m < 2; ++m) {
    for (int i = 0; i < 4; ++i) inverse_binds[std::size_t(m * 16 + i * 5)] = 1.f;
  }
  inverse_binds[16 + 13] = -1.f;
  const std::vector<std::uint8_t> joints{0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0};
  const std::vector<float> weights{1, 0, 0, 0, 0.5f, 0.5f, 0, 0, 1, 0, 0, 0};
  b.add_floats(positions, AccessorType::Vec3);
  b.add_uint16(indices, AccessorType::Scalar);
  b.add_floats(times, AccessorType::Scalar);
  b.add_floats(translations, AccessorType::Vec3);
  b.add_floats(inverse_binds, AccessorType::Mat4);
  b.add_uint8(joints, AccessorType::Vec4);
  b.add_floats(weights, AccessorType::Vec4);

  Document& d = b.document();
  d.asset.min_version = "2.0";
  d.extensions_used = {"KHR_materials_unlit", "VENDOR_unknown"};
  d.extensions_required = {"KHR_materials_unlit"};
  d.accessors[0].name = "positions";
  d.buffer_views[0].target = 34962;
  d.buffer_views[1].target = 34963;

  gltf::Material material;
  material.name = "skin \"quoted\" \\ tab\t";
  material.base_color_factor = {0.5f, 0.25f, 1.f, 0.75f};
  material.double_sided = true;
  material.alpha_mode = "MASK";
  d.materials.push_back(material);

  gltf::Mesh mesh;
  mesh.name = "body";
  Primitive p;
  p.attributes = {{"POSITION", 0}, {"JOINTS_0", 5}, {"WEIGHTS_0", 6}};
  p.indices = 1;
  p.material = 0;
  p.targets = {{{"POSITION", 0}}};
  mesh.primitives.push_back(p);
  mesh.weights = {0.5f};
  mesh.target_names = {"smile"};
  d.meshes.push_back(mesh);

  Node root;
  root.name = "root \xc3\xa9";  // UTF-8 survives
  root.children = {1, 2};
  root.translation = {1, 2, 3};
  root.rotation = {0, 0.70710677f, 0, 0.70710677f};
  root.scale = {2, 2, 2};
  root.camera = 0;
  Node mesh_node;
  mesh_node.name = "mesh";
  mesh_node.mesh = 0;
  mesh_node.skin = 0;
  mesh_node.weights = {0.25f};
  Node joint;
  joint.name = "joint";
  joint.children = {3};
  joint.has_matrix = true;
  joint.matrix = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1};
  Node tip;
  tip.name = "tip";
  tip.translation = {0, 1, 0};
  d.nodes = {root, mesh_node, joint, tip};

  gltf::Skin skin;
  skin.name = "skin";
  skin.inverse_bind_matrices = 4;
  skin.skeleton = 2;
  skin.joints = {2, 3};
  d.skins.push_back(skin);

  Animation animation;
  animation.name = "move";
  animation.samplers = {{2, 3, SamplerInterpolation::Step}, {2, 3, SamplerInterpolation::Linear}};
  animation.channels = {{0, 2, "translation"}, {1, kNone, "translation"}, {1, 3, "pointer"}};
  d.animations.push_back(animation);

  Scene scene;
  scene.name = "scene";
  scene.nodes = {0};
  d.scenes.push_back(scene);
  d.scene = 0;

  Image image;
  image.name = "picture";
  image.uri = "picture.png";
  image.mime_type = "image/png";
  d.images.push_back(image);
  d.texture_count = 1;
  d.camera_count = 1;
  return b.finish();
}

}  // namespace marrow::test
