// G22: every importer refuses options out of range before it reads the file, naming the field
// (check_import_options, io/import_options.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "marrow/io/assimp/assimp_importer.hpp"
#include "marrow/io/bvh/bvh_importer.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/io/native/native_format.hpp"
#include "gltf_test_util.hpp"

namespace marrow {
namespace {

std::vector<std::byte> bytes_of(const std::string& s) {
  std::vector<std::byte> out(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) out[i] = static_cast<std::byte>(s[i]);
  return out;
}

const char* const kOneJoint =
    "HIERARCHY\nROOT hip\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n"
    "    OFFSET 0 1 0\n  }\n}\nMOTION\nFrames: 2\nFrame Time: 0.5\n0 0 0\n0 90 0\n";
const char* const kTriangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";

// Each importer, by its way in, on a file it reads with the default options.
struct Importer {
  std::string name;
  std::function<Model(const ImportOptions&)> import;
};

std::vector<Importer> importers() {
  const std::vector<std::byte> gltf = bytes_of(test::kMinimalGltf), bvh = bytes_of(kOneJoint), obj = bytes_of(kTriangle);
  const std::vector<std::byte> native = write_native(import_bvh(bvh, {}, "walk"));
  return {
      {"glTF", [gltf](const ImportOptions& o) { return import_gltf(gltf, o); }},
      {"BVH", [bvh](const ImportOptions& o) { return import_bvh(bvh, o, "walk"); }},
      {"native", [native](const ImportOptions& o) { return read_native(native, o); }},
      {"Assimp", [obj](const ImportOptions& o) {
         AssimpOptions a;
         a.import = o;
         a.isolation = AssimpOptions::Isolation::InProcess;
         return import_assimp(obj, "obj", a);
       }},
  };
}

TEST(ImportOptions, G22_EveryImporterRefusesAFieldOutOfRangeNamingIt) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  struct Bad {
    std::string field;
    std::function<void(ImportOptions&)> set;
  };
  const std::vector<Bad> bad = {
      {"ImportOptions::scene -2", [](ImportOptions& o) { o.scene = -2; }},
      {"ImportOptions::max_palette 0", [](ImportOptions& o) { o.max_palette = 0; }},
      {"ImportOptions::max_palette 65537", [](ImportOptions& o) { o.max_palette = kMaxPaletteJoints + 1; }},
      {"ImportOptions::curve_tolerance 0", [](ImportOptions& o) { o.curve_tolerance = 0.0; }},
      {"ImportOptions::curve_tolerance nan", [&](ImportOptions& o) { o.curve_tolerance = nan; }},
      {"ImportOptions::unit_scale -1", [](ImportOptions& o) { o.unit_scale = -1.f; }},
      {"ImportOptions::unit_scale inf", [&](ImportOptions& o) { o.unit_scale = inf; }},
      {"ImportOptions::compression tolerance 0", [](ImportOptions& o) { o.compression = ClipCompression{0.f, 0.1f}; }},
      {"ImportOptions::compression distance -1", [](ImportOptions& o) { o.compression = ClipCompression{0.001f, -1.f}; }},
  };
  for (const Importer& importer : importers()) {
    EXPECT_NO_THROW(importer.import({})) << importer.name;
    for (const Bad& b : bad) {
      ImportOptions options;
      b.set(options);
      try {
        importer.import(options);
        ADD_FAILURE() << importer.name << " accepts " << b.field;
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(b.field), std::string::npos) << importer.name << ": " << e.what();
      } catch (const std::exception& e) {
        ADD_FAILURE() << importer.name << " refuses " << b.field << " as another error: " << e.what();
      }
    }
  }
}

TEST(ImportOptions, G22_TheEndsOfEachRangeAreAccepted) {
  ImportOptions options;
  options.scene = -1;
  options.max_palette = 1;
  options.curve_tolerance = 1e-12;
  options.unit_scale = 1e-6f;
  options.compression = ClipCompression{1e-6f, 0.f};
  EXPECT_NO_THROW(check_import_options(options));
  options.max_palette = kMaxPaletteJoints;
  options.scene = 0;
  EXPECT_NO_THROW(check_import_options(options));
}

}  // namespace
}  // namespace marrow
