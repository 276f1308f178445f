#include "conformance_fixtures.hpp"

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "gltf_fixture.hpp"
#include "marrow/io/gltf/gltf_builder.hpp"
#include "marrow/io/gltf/gltf_writer.hpp"
#include "demo/demo_character.hpp"

namespace marrow::test {

namespace {

using gltf::SamplerInterpolation;

// Nine nodes, each animated on one path with one interpolation (like Khronos'
// InterpolationTest), each carrying a small triangle so positions are compared too.
std::vector<std::byte> interpolation() {
  Fixture f;
  MeshData tri;
  tri.positions = {{0, 0, 0}, {0.5f, 0, 0}, {0, 0.5f, 0}};
  tri.normals.assign(3, glm::vec3(0, 0, 1));
  const auto mesh = f.mesh(tri);
  std::vector<std::uint32_t> roots;
  const auto anim = f.animation("Everything");
  const std::vector<float> times = {0.f, 0.4f, 1.1f, 1.5f};
  const SamplerInterpolation kinds[] = {SamplerInterpolation::Step, SamplerInterpolation::Linear,
                                        SamplerInterpolation::CubicSpline};
  int i = 0;
  for (const char* path : {"translation", "rotation", "scale"}) {
    for (SamplerInterpolation kind : kinds) {
      const auto n = f.node(std::string(path) + std::to_string(static_cast<int>(kind)), {2.f * float(i), 0, 0});
      f.doc().nodes[n].mesh = mesh;
      roots.push_back(n);
      std::vector<float> values;
      for (std::size_t k = 0; k < times.size(); ++k) {
        const float s = static_cast<float>(k);
        std::vector<float> v;
        if (std::string(path) == "translation") v = {2.f * float(i) + 0.3f * s, std::sin(s), 0.2f * s * s};
        if (std::string(path) == "scale") v = {1.f + 0.25f * s, 1.f, 1.f + 0.1f * std::cos(3 * s)};
        if (std::string(path) == "rotation") {
          const glm::quat q = glm::angleAxis(0.9f * s, glm::normalize(glm::vec3(0.2f * s, 1, 0.3f)));
          v = {q.x, q.y, q.z, q.w};
        }
        if (kind == SamplerInterpolation::CubicSpline) {
          const float tangent = (k % 2 ? 0.7f : -0.4f);
          for (float x : v) values.push_back(x * tangent * 0.3f);  // in-tangent
          values.insert(values.end(), v.begin(), v.end());
          for (float x : v) values.push_back(x * tangent * 0.5f);  // out-tangent
        } else {
          values.insert(values.end(), v.begin(), v.end());
        }
      }
      f.channel(anim, n, path, kind, times, values);
      ++i;
    }
  }
  f.scene(roots);
  return f.glb();
}

// A morphing, skinned strip: two targets (one with normal deltas), a cubic weights channel; and
// a second primitive-less mesh without normals (flat normals) with a linear weights channel.
std::vector<std::byte> morph() {
  Fixture f;
  const auto armature = f.node("Armature", {0, 0.5f, 0}, glm::quat(1, 0, 0, 0), glm::vec3(1.5f));
  const auto j0 = f.node("J0");
  const auto j1 = f.node("J1", {0, 1, 0});
  const auto body = f.node("Body", {3, 0, 0});
  const auto flat = f.node("Flat", {-2, 0, 0});
  f.child(armature, j0);
  f.child(j0, j1);
  f.scene({armature, body, flat});
  MeshData strip;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 2; ++c) {
      strip.positions.push_back(glm::vec3(0.5f * static_cast<float>(c) - 0.25f, 0.5f + 1.5f * static_cast<float>(r), 0));
      strip.normals.push_back(glm::vec3(0, 0, 1));
      strip.joints.push_back(glm::u16vec4(r == 0 ? 1 : 0, 1, 0, 0));
      const float w = r == 0 ? 1.f : (r == 1 ? 0.5f : 0.f);
      strip.weights.push_back(glm::vec4(r == 0 ? 1.f : w, r == 0 ? 0.f : 1.f - w, 0, 0));
    }
  }
  strip.indices = {0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4};
  std::vector<glm::vec3> push(6, glm::vec3(0, 0, 0.5f)), tilt(6, glm::vec3(0)), tilt_n(6, glm::vec3(0));
  tilt[5] = glm::vec3(0.4f, 0, 0);
  tilt_n[5] = glm::vec3(0.5f, 0, 0);
  strip.position_targets = {push, tilt};
  strip.normal_targets = {{}, tilt_n};
  strip.weights_default = {0.1f, 0.f};
  f.doc().nodes[body].mesh = f.mesh(strip);
  const glm::mat4 w0 = node_world(f.doc(), j0), w1 = node_world(f.doc(), j1);
  f.doc().nodes[body].skin = f.skin({j1, j0}, {glm::inverse(w1), glm::inverse(w0)});  // reversed order
  f.doc().nodes[body].weights = {0.2f, 0.3f};
  MeshData tent;
  tent.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  tent.indices = {0, 1, 2, 0, 2, 3};
  tent.position_targets = {{{0, 0, 0}, {0, 0.5f, 0.5f}, {0, 0, 0}, {0, 0, 0}}};
  f.doc().nodes[flat].mesh = f.mesh(tent);
  const auto anim = f.animation("Breathe");
  f.channel(anim, body, "weights", SamplerInterpolation::CubicSpline, {0.f, 1.f, 2.f},
            {0, 0, 0.2f, 0.3f, 1, 0.5f, /**/ -1, 0, 1, 0.8f, 0, 0, /**/ 0, 0, 0.2f, 0.3f, 0, 0});
  f.channel(anim, flat, "weights", SamplerInterpolation::Linear, {0.f, 2.f}, {0, 1});
  const glm::quat bent = glm::angleAxis(glm::radians(70.f), glm::vec3(0, 0, 1));
  f.channel(anim, j1, "rotation", SamplerInterpolation::Linear, {0.f, 2.f}, {0, 0, 0, 1, bent.x, bent.y, bent.z, bent.w});
  f.channel(anim, armature, "translation", SamplerInterpolation::Step, {0.f, 1.f}, {0, 0.5f, 0, 0, 0.8f, 0});
  return f.glb();
}

// The tentacle drawn a second time by another node with its own transform and morph weights,
// through the same mesh and skin: a skin several mesh nodes use (the oracle's `perNode`).
std::vector<std::byte> shared_skin() {
  gltf::GltfAsset asset = model_to_gltf(make_demo_character());
  gltf::Document& doc = asset.document;
  std::uint32_t drawn = gltf::kNone;
  for (std::uint32_t i = 0; i < doc.nodes.size() && drawn == gltf::kNone; ++i)
    if (doc.nodes[i].mesh != gltf::kNone && doc.nodes[i].skin != gltf::kNone) drawn = i;
  gltf::Node copy;
  copy.name = "TentacleAgain";
  copy.mesh = doc.nodes.at(drawn).mesh;
  copy.skin = doc.nodes[drawn].skin;
  copy.translation = {3.f, 0.5f, -1.f};
  copy.rotation = {0.f, 0.38268343f, 0.f, 0.92387953f};  // 45 degrees about +Y
  copy.weights.assign(doc.meshes.at(copy.mesh).primitives.at(0).targets.size(), 0.25f);
  doc.nodes.push_back(copy);
  doc.scenes.at(0).nodes.push_back(static_cast<std::uint32_t>(doc.nodes.size() - 1));
  return gltf::write_glb_asset(asset);
}

}  // namespace

std::vector<ConformanceFixture> conformance_fixtures() {
  std::vector<ConformanceFixture> out;
  out.push_back({"interpolation.glb", interpolation()});
  out.push_back({"morph_skin.glb", morph()});
  out.push_back({"tentacle.glb", gltf::write_glb_asset(model_to_gltf(make_demo_character()))});
  out.push_back({"shared_skin.glb", shared_skin()});
  return out;
}

}  // namespace marrow::test
