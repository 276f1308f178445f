#include "twisted_cylinders.hpp"

#include <array>
#include <cmath>
#include <numbers>

#include <glm/gtc/matrix_transform.hpp>

#include "gltf_fixture.hpp"

namespace marrow::test {

Model twisted_cylinders() {
  using C = TwistedCylinders;
  Fixture f;
  std::vector<std::uint32_t> roots;
  const auto anim = f.animation("Twist");
  for (int side = 0; side < 2; ++side) {
    const float x = side == 0 ? -C::kSpacing : C::kSpacing;
    const std::string name = side == 0 ? "Linear" : "DualQuaternion";
    const auto base = f.node(name + "Base", {x, 0, 0});
    const auto tip = f.node(name + "Tip", {0, 1, 0});
    const auto body = f.node(name + "Cylinder");
    f.child(base, tip);
    roots.insert(roots.end(), {base, body});
    MeshData m;
    // Warm for linear blending, cool for dual quaternions (the picture tells them apart).
    m.material = static_cast<std::uint32_t>(f.doc().materials.size());
    f.doc().materials.push_back(gltf::Material{name, side == 0 ? std::array<float, 4>{0.95f, 0.55f, 0.3f, 1.f}
                                                               : std::array<float, 4>{0.35f, 0.6f, 0.95f, 1.f},
                                               false, "OPAQUE"});
    for (int r = 0; r < C::kRings; ++r) {
      const float y = C::kHeight * static_cast<float>(r) / (C::kRings - 1);
      const float w = std::fmin(std::fmax(y - 0.5f, 0.f), 1.f);
      for (int k = 0; k < C::kSegments; ++k) {
        const float a = 2.f * std::numbers::pi_v<float> * static_cast<float>(k) / C::kSegments;
        const glm::vec3 radial(std::cos(a), 0.f, -std::sin(a));
        m.positions.push_back(glm::vec3(x, y, 0.f) + C::kRadius * radial);
        m.normals.push_back(radial);
        m.joints.emplace_back(0, 1, 0, 0);
        m.weights.emplace_back(1.f - w, w, 0.f, 0.f);
      }
    }
    for (int r = 0; r + 1 < C::kRings; ++r) {
      for (int k = 0; k < C::kSegments; ++k) {
        const auto a = static_cast<std::uint32_t>(r * C::kSegments + k);
        const auto b = static_cast<std::uint32_t>(r * C::kSegments + (k + 1) % C::kSegments);
        m.indices.insert(m.indices.end(), {a, b, a + C::kSegments, b, b + C::kSegments, a + C::kSegments});
      }
    }
    f.doc().nodes[body].mesh = f.mesh(m);
    f.doc().nodes[body].skin =
        f.skin({base, tip}, {glm::translate(glm::mat4(1.f), glm::vec3(-x, 0, 0)),
                             glm::translate(glm::mat4(1.f), glm::vec3(-x, -1, 0))});
    // Three keys a quarter turn apart, so that slerp turns the right way round.
    const float s = std::sqrt(0.5f);
    f.channel(anim, tip, "rotation", gltf::SamplerInterpolation::Linear, {0.f, 1.f, 2.f},
              {0, 0, 0, 1, 0, s, 0, s, 0, 1, 0, 0});
  }
  f.scene(roots);
  Model model = f.import();
  for (ModelMesh& mesh : model.meshes) {
    if (mesh.source_mesh == 1) mesh.parts[0].skinning = SkinningMode::DualQuaternion;
  }
  return model;
}

}  // namespace marrow::test
