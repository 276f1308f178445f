// Conformance with an independent glTF implementation: marrow's pose of every glTF file under
// ../shared/assets/gltf, at the rest pose and at 25/50/80% of every clip, and blends of layers
// (B2, B3: two normal layers at equal weights, masked to a subtree or not, an additive layer at
// weight 1, as three.js's AnimationMixer mixes them), against reference poses computed by the
// three.js oracle (../shared/tools/oracle) and committed in tests/data/oracle
// (tests/data/oracle/regenerate.sh rebuilds them).
//
// Tolerance: 1e-4 of the asset's bounding-box diagonal for positions and for the translation of
// node and joint matrices; 1e-4 for the other matrix elements and for morph weights.
// With MARROW_CONFORMANCE_REPORT=path set, the per-asset maximum errors are written there as a
// Markdown table (docs/conformance.md is made that way).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <simdjson.h>
#include <string>

#include "conformance_fixtures.hpp"
#include "marrow/io/file_bytes.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "reports/pose_report.hpp"
#include "marrow/runtime/joint_mask.hpp"

namespace marrow {
namespace {

namespace fs = std::filesystem;

struct Errors {
  double position = 0;  // relative to the diagonal
  double matrix = 0;    // translation relative to the diagonal, other elements absolute
  double normal = 0;
  double weight = 0;
  int poses = 0;
};

std::vector<double> numbers(simdjson::dom::array a) {
  std::vector<double> out;
  for (double v : a) out.push_back(v);
  return out;
}

double matrix_error(const std::vector<double>& expected, const glm::mat4& got, double diagonal) {
  double worst = 0;
  for (int i = 0; i < 16; ++i) {
    const double d = std::fabs(expected[static_cast<std::size_t>(i)] - got[i / 4][i % 4]);
    worst = std::max(worst, (i >= 12 && i <= 14) ? d / diagonal : d);
  }
  return worst;
}

double diagonal_of(simdjson::dom::array meshes) {
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (simdjson::dom::element m : meshes) {
    const std::vector<double> p = numbers(m["positions"].get_array());
    for (std::size_t i = 0; i + 2 < p.size(); i += 3) {
      for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], p[i + static_cast<std::size_t>(c)]), hi[c] = std::max(hi[c], p[i + static_cast<std::size_t>(c)]);
    }
  }
  if (lo[0] > hi[0]) return 1.0;
  return std::max(std::sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) + (hi[2] - lo[2]) * (hi[2] - lo[2])), 1e-6);
}

// The bytes a reference was made from: a file under the shared assets, or a synthetic fixture
// ("fixture/<name>") generated again here.
std::vector<std::byte> source_bytes(const std::string& file, const fs::path& assets) {
  if (file.rfind("fixture/", 0) == 0) {
    for (const test::ConformanceFixture& f : test::conformance_fixtures()) {
      if ("fixture/" + f.name == file) return f.glb;
    }
    ADD_FAILURE() << "no conformance fixture " << file;
    return {};
  }
  const FileBytes bytes = read_file(assets / file, {});
  return {bytes.data(), bytes.data() + bytes.size()};
}

// A blended pose (a reference with "layers"): each normal layer, then each additive one, at
// its own time (clamped, no looping) and weight, masked to the subtree of a file node or not.
PoseReport blended_pose(const Model& model, simdjson::dom::element pose) {
  Animator animator(model);
  std::vector<int> parents;
  for (const ModelNode& b : model.nodes) parents.push_back(b.parent);
  std::size_t layer = 0;
  for (const char* kind : {"layers", "additive"}) {
    for (simdjson::dom::element l : pose[kind]) {
      animator.set_layer(layer, LayerOptions{.weight = static_cast<float>(double(l["weight"])), .mask = "",
                                             .additive = std::string_view(kind) == "additive"});
      if (!l["mask"].is_null()) {
        const int bone = model.source.node_to_bone.at(static_cast<std::size_t>(int64_t(l["mask"])));
        animator.set_layer_mask(layer, subtree_mask(parents, bone));
      }
      PlayOptions options;
      options.loop = LoopMode::Once;
      options.start = ticks_from_seconds(double(l["time"]));
      options.layer = layer++;
      animator.play(static_cast<int>(int64_t(l["clip"])), options);
    }
  }
  return make_pose_report(model, animator);
}

Errors compare_asset(const fs::path& reference, const fs::path& assets) {
  simdjson::dom::parser parser;
  const simdjson::dom::element root = parser.load(reference.string());
  const std::string file(std::string_view(root["file"].get_string()));
  std::vector<Diagnostic> diagnostics;
  const std::vector<std::byte> bytes = source_bytes(file, assets);
  const fs::path base = (assets / file).parent_path();
  const gltf::GltfAsset asset = load_gltf_asset(bytes, {}, &base, diagnostics);
  const Model model = import_gltf(asset);
  Errors e;
  const double diagonal = diagonal_of(root["poses"].at(0)["meshes"].get_array());
  for (simdjson::dom::element pose : root["poses"]) {
    simdjson::dom::array layers;
    const bool blend = !pose["layers"].get(layers);
    const int clip = blend || pose["clip"].is_null() ? -1 : static_cast<int>(int64_t(pose["clip"]));
    const double time = blend || pose["time"].is_null() ? 0.0 : double(pose["time"]);
    const PoseReport got = blend ? blended_pose(model, pose) : pose_at(model, clip, time);
    const std::string where =
        file + (blend ? " blend " + std::string(std::string_view(pose["name"])) : " clip " + std::to_string(clip) + " t " + std::to_string(time));
    std::map<std::uint32_t, const PoseReport::Node*> nodes;
    for (const auto& n : got.nodes) nodes[n.index] = &n;
    for (simdjson::dom::element n : pose["nodes"]) {
      const auto index = static_cast<std::uint32_t>(uint64_t(n["index"]));
      EXPECT_EQ(nodes.count(index), 1u) << where << ": node " << index << " missing";
      if (nodes.count(index)) e.matrix = std::max(e.matrix, matrix_error(numbers(n["world"]), nodes[index]->world, diagonal));
    }
    EXPECT_EQ(pose["nodes"].get_array().size(), got.nodes.size()) << where;
    std::size_t s = 0;
    for (simdjson::dom::element skin : pose["skins"]) {
      if (s >= got.skins.size()) break;
      const PoseReport::Skin& gs = got.skins[s++];
      EXPECT_EQ(uint64_t(skin["index"]), gs.index) << where;
      std::size_t j = 0;
      for (simdjson::dom::element m : skin["jointMatrices"]) {
        e.matrix = std::max(e.matrix, matrix_error(numbers(m), gs.joint_matrices.at(j++), diagonal));
      }
      // Several mesh nodes on one skin: each node's joint matrices (perNode).
      simdjson::dom::array per_node;
      const bool has_per_node = skin["perNode"].get(per_node) == simdjson::SUCCESS;
      EXPECT_EQ(has_per_node ? per_node.size() : 0, gs.per_node.size()) << where << ": skin " << gs.index << " perNode";
      if (has_per_node && per_node.size() == gs.per_node.size()) {
        std::size_t u = 0;
        for (simdjson::dom::element user : per_node) {
          const PoseReport::Skin::NodeMatrices& got_user = gs.per_node[u++];
          EXPECT_EQ(uint64_t(user["node"]), got_user.node) << where;
          std::size_t k = 0;
          for (simdjson::dom::element m : user["jointMatrices"])
            e.matrix = std::max(e.matrix, matrix_error(numbers(m), got_user.joint_matrices.at(k++), diagonal));
        }
      }
    }
    EXPECT_EQ(pose["skins"].get_array().size(), got.skins.size()) << where;
    std::size_t k = 0;
    for (simdjson::dom::element mesh : pose["meshes"]) {
      if (k >= got.meshes.size()) break;
      const PoseReport::Mesh& gm = got.meshes[k++];
      EXPECT_EQ(uint64_t(mesh["node"]), gm.node) << where;
      EXPECT_EQ(uint64_t(mesh["primitive"]), gm.primitive) << where;
      const std::vector<double> p = numbers(mesh["positions"]);
      EXPECT_EQ(p.size(), gm.positions.size() * 3) << where;
      for (std::size_t i = 0; i < p.size() && i / 3 < gm.positions.size(); ++i) {
        e.position = std::max(e.position, std::fabs(p[i] - gm.positions[i / 3][static_cast<int>(i % 3)]) / diagonal);
      }
      simdjson::dom::array normals;
      if (!mesh["normals"].get(normals)) {
        const std::vector<double> n = numbers(normals);
        EXPECT_EQ(n.size(), gm.normals.size() * 3) << where << ": normals";
        for (std::size_t i = 0; i < n.size() && i / 3 < gm.normals.size(); ++i) {
          e.normal = std::max(e.normal, std::fabs(n[i] - gm.normals[i / 3][static_cast<int>(i % 3)]));
        }
      }
    }
    EXPECT_EQ(pose["meshes"].get_array().size(), got.meshes.size()) << where;
    std::size_t w = 0;
    for (simdjson::dom::element mw : pose["morphWeights"]) {
      if (w >= got.morph_weights.size()) break;
      const std::vector<double> ws = numbers(mw["weights"]);
      for (std::size_t i = 0; i < ws.size() && i < got.morph_weights[w].weights.size(); ++i) {
        e.weight = std::max(e.weight, std::fabs(ws[i] - got.morph_weights[w].weights[i]));
      }
      ++w;
    }
    ++e.poses;
  }
  return e;
}

// Compares every reference whose name starts with prefix; returns the Markdown rows.
std::string compare_all(const std::string& prefix, const fs::path& assets) {
  const fs::path references = fs::path(MARROW_TEST_DATA) / "oracle";
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(references)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".json" && name.rfind(prefix, 0) == 0) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  EXPECT_FALSE(files.empty());
  std::string rows;
  for (const fs::path& f : files) {
    SCOPED_TRACE(f.filename().string());
    const Errors e = compare_asset(f, assets);
    EXPECT_LE(e.position, 1e-4) << f.filename();
    EXPECT_LE(e.matrix, 1e-4) << f.filename();
    EXPECT_LE(e.normal, 1e-4) << f.filename();
    EXPECT_LE(e.weight, 1e-4) << f.filename();
    char row[512];
    std::snprintf(row, sizeof row, "| %s | %d | %.2e | %.2e | %.2e | %.2e |\n", f.stem().string().c_str(), e.poses,
                  e.position, e.matrix, e.normal, e.weight);
    rows += row;
  }
  return rows;
}

void report(const std::string& rows, const char* suffix) {
  const std::string table =
      "| asset | poses | max position error / diagonal | max matrix error | max normal error | max weight error |\n"
      "|---|---|---|---|---|---|\n" + rows;
  std::printf("%s", table.c_str());
  if (const char* out = std::getenv("MARROW_CONFORMANCE_REPORT")) std::ofstream(std::string(out) + suffix) << table;
}

TEST(Conformance, EverySharedGltfMatchesTheOracle) {
  const fs::path assets = MARROW_SHARED_ASSETS;
  if (!fs::exists(assets / "gltf")) GTEST_SKIP() << "shared assets not found at " << assets;
  report(compare_all("gltf_", assets), ".assets.md");
}

TEST(Conformance, B2_B3_BlendedLayersMatchTheOraclesAnimationMixer) {
  const fs::path assets = MARROW_SHARED_ASSETS;
  if (!fs::exists(assets / "gltf")) GTEST_SKIP() << "shared assets not found at " << assets;
  report(compare_all("blend_", assets), ".blend.md");
}

TEST(Conformance, SyntheticFixturesMatchTheOracle) {
  report(compare_all("fixture_", MARROW_SHARED_ASSETS), ".fixtures.md");
}

}  // namespace
}  // namespace marrow
