// marrow_fixtures DIR               writes the conformance fixtures (conformance_fixtures.hpp), so
//                                   the oracle can compute references from the exact bytes
// marrow_fixtures --malformed DIR   writes the malformed corpus (malformed_corpus.hpp) and its
//                                   MANIFEST.tsv (file, expected ImportError code, why)
// marrow_fixtures --fuzz-seeds TARGET DIR   valid inputs of the draco or meshopt fuzz target
// marrow_fixtures --native DIR      writes native files that use version 2's fields (twelve
//                                   influences per vertex, a dual-quaternion part): seeds of the
//                                   native fuzz target (scripts/fuzz-run)
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>

#include <glm/gtc/matrix_transform.hpp>

#include "conformance_fixtures.hpp"
#include "compressed_fixtures.hpp"
#include "gltf_fixture.hpp"
#include "malformed_corpus.hpp"
#include "marrow/io/native/native_format.hpp"
#include "twisted_cylinders.hpp"

namespace {

bool write(const std::string& path, const std::vector<std::byte>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

// Three joints, a quad whose vertices have twelve influences (JOINTS_0..2), a short clip; and
// the twisted cylinders (one part skinned by dual quaternions).
std::vector<std::pair<std::string, marrow::Model>> native_seeds() {
  using namespace marrow;
  test::Fixture f;
  const auto j0 = f.node("J0"), j1 = f.node("J1", {0, 1, 0}), j2 = f.node("J2", {0, 1, 0}), body = f.node("Body");
  f.child(j0, j1);
  f.child(j1, j2);
  f.scene({j0, body});
  test::MeshData m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 2, 0}, {1, 2, 0}};
  m.normals.assign(4, glm::vec3(0, 0, 1));
  m.indices = {0, 1, 2, 2, 1, 3};
  m.joints.assign(4, glm::u16vec4(0, 1, 2, 0));
  m.weights.assign(4, glm::vec4(0.2f, 0.1f, 0.1f, 0.05f));
  m.more_joints = {std::vector<glm::u16vec4>(4, glm::u16vec4(1, 2, 0, 1)), std::vector<glm::u16vec4>(4, glm::u16vec4(2, 0, 1, 2))};
  m.more_weights = {std::vector<glm::vec4>(4, glm::vec4(0.1f, 0.05f, 0.05f, 0.1f)),
                    std::vector<glm::vec4>(4, glm::vec4(0.05f, 0.1f, 0.05f, 0.05f))};
  f.doc().nodes[body].mesh = f.mesh(m);
  f.doc().nodes[body].skin = f.skin({j0, j1, j2}, {glm::mat4(1.f), glm::translate(glm::mat4(1.f), glm::vec3(0, -1, 0)),
                                                   glm::translate(glm::mat4(1.f), glm::vec3(0, -2, 0))});
  const auto anim = f.animation("Bend");
  f.channel(anim, j1, "rotation", gltf::SamplerInterpolation::Linear, {0.f, 1.f}, {0, 0, 0, 1, 0, 0, 0.38f, 0.92f});
  Model twelve = f.import();
  Model dual = twelve;
  dual.meshes[0].parts[0].skinning = SkinningMode::DualQuaternion;
  return {{"twelve_influences.marrow", std::move(twelve)},
          {"twelve_influences_dqs.marrow", std::move(dual)},
          {"twisted_cylinders.marrow", test::twisted_cylinders()}};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--fuzz-seeds") {
    int i = 0;
    for (const auto& input : marrow::test::compressed_fuzz_seeds(argv[2])) {
      if (!write(std::string(argv[3]) + "/seed_" + argv[2] + "_" + std::to_string(i++), input)) return 1;
    }
    return i > 0 ? 0 : 2;
  }
  const bool malformed = argc == 3 && std::string(argv[1]) == "--malformed";
  const bool native = argc == 3 && std::string(argv[1]) == "--native";
  if (argc != 2 && !malformed && !native) {
    std::fprintf(stderr, "usage: marrow_fixtures [--malformed | --native] DIR\n");
    return 2;
  }
  const std::string dir = argv[argc - 1];
  if (native) {
    for (const auto& [name, model] : native_seeds()) {
      if (!write(dir + "/" + name, marrow::write_native(model))) return 1;
      std::printf("%s\n", name.c_str());
    }
    return 0;
  }
  if (malformed) {
    std::ofstream manifest(dir + "/MANIFEST.tsv");
    manifest << "# file\texpected ImportError code\twhat is wrong (written by marrow_fixtures --malformed)\n";
    for (const auto& file : marrow::test::malformed_corpus()) {
      if (!write(dir + "/" + file.name, file.bytes)) return 1;
      manifest << file.name << '\t' << marrow::to_string(file.code) << '\t' << file.why << '\n';
    }
    return manifest ? 0 : 1;
  }
  for (const auto& fixture : marrow::test::conformance_fixtures()) {
    if (!write(dir + "/" + fixture.name, fixture.glb)) {
      std::fprintf(stderr, "marrow_fixtures: cannot write %s\n", fixture.name.c_str());
      return 1;
    }
    std::printf("%s\n", fixture.name.c_str());
  }
  return 0;
}
