// Every file of the malformed corpus (tests/data/malformed) is refused with its documented
// ImportError code (MANIFEST.tsv, docs/errors.md), and nothing crashes (the suite also runs under
// AddressSanitizer + UBSan: make test-sanitize).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <iterator>
#include <sstream>
#include <utility>

#include "malformed_corpus.hpp"
#include "marrow/io/bone_map_file.hpp"
#include "marrow/io/bvh/bvh_importer.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/io/graph_file.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/io/native/native_format.hpp"

namespace marrow {
namespace {

namespace fs = std::filesystem;

std::map<std::string, std::string> manifest(const fs::path& dir, const char* name = "MANIFEST.tsv") {
  std::map<std::string, std::string> out;
  std::ifstream in(dir / name);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string file, code;
    std::getline(fields, file, '\t');
    std::getline(fields, code, '\t');
    out[file] = code;
  }
  return out;
}

// "accepted": the file imports into a model that validate(Model) accepts.
void expect_each_refused_with_its_code(const fs::path& dir, const std::map<std::string, std::string>& expected) {
  for (const auto& [file, code] : expected) {
    SCOPED_TRACE(file);
    try {
      const fs::path path = dir / file;
      // Files named palette_split_* show a refusal of PalettePolicy::Split (S4).
      ImportOptions options;
      if (file.rfind("palette_split_", 0) == 0) options.palette_policy = PalettePolicy::Split;
      if (path.extension() == ".json") {  // an animation graph or a retarget bone map: no model to validate
        if (file.rfind("graph_", 0) == 0) {
          (void)read_graph_file(path);
        } else {
          (void)read_bone_map_file(path);
        }
        if (code != "accepted") ADD_FAILURE() << file << " was accepted";
        continue;
      }
      const Model model = path.extension() == ".marrow" ? read_native_file(path)
                          : path.extension() == ".bvh" ? import_bvh(path, options)
                                                        : import_gltf(path, options);
      if (code == "accepted") {
        EXPECT_NO_THROW(validate(model));
        continue;
      }
      ADD_FAILURE() << file << " was accepted";
    } catch (const ImportError& e) {
      EXPECT_EQ(std::string(to_string(e.code())), code) << e.what();
      EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << "the message names the file: " << e.what();
    }
  }
}

TEST(Malformed, EveryCorpusFileIsRefusedWithItsCode) {
  const fs::path dir = fs::path(MARROW_TEST_DATA) / "malformed";
  const auto expected = manifest(dir);
  ASSERT_GE(expected.size(), 30u);
  expect_each_refused_with_its_code(dir, expected);
}

// Raw inputs that once crashed a fuzz target (malformed/fuzz, FINDINGS.tsv) stay refused (or, where
// the fix was to accept them properly, import into a valid model); every
// file in the folder is listed, so a finding cannot be dropped in silently.
TEST(Malformed, FuzzFindingsStayHandled) {
  const fs::path dir = fs::path(MARROW_TEST_DATA) / "malformed" / "fuzz";
  const auto expected = manifest(dir, "FINDINGS.tsv");
  ASSERT_GE(expected.size(), 2u);
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name == "FINDINGS.tsv") continue;
    EXPECT_EQ(expected.count(name), 1u) << name << " is not in FINDINGS.tsv";
  }
  expect_each_refused_with_its_code(dir, expected);
}

// The committed corpus is what the generator writes (names and codes); regenerate with
// `build/release/tests/marrow_fixtures --malformed tests/data/malformed` after changing it.
TEST(Malformed, CorpusMatchesItsGenerator) {
  const auto expected = manifest(fs::path(MARROW_TEST_DATA) / "malformed");
  for (const test::MalformedFile& f : test::malformed_corpus()) {
    ASSERT_EQ(expected.count(f.name), 1u) << f.name << " is not in MANIFEST.tsv";
    EXPECT_EQ(expected.at(f.name), to_string(f.code)) << f.name;
  }
}

// Any loader, any extension: an empty file is `empty-file`; bytes of another kind are named by
// their signature instead of reaching a parser that reports them as broken (load_model_file).
TEST(Malformed, ForeignBytesAreNamedWhateverTheExtension) {
  const fs::path dir = fs::temp_directory_path() / "marrow_foreign_bytes";
  fs::create_directories(dir);
  std::ifstream png_in(fs::path(MARROW_TEST_DATA) / "malformed" / "png_named_glb.glb", std::ios::binary);
  const std::string png((std::istreambuf_iterator<char>(png_in)), std::istreambuf_iterator<char>());
  const std::pair<const char*, const char*> cases[] = {
      {"a.glb", "not a glTF file (PNG signature)"}, {"a.gltf", "not a glTF file (PNG signature)"},
      {"a.fbx", "not a .fbx file (PNG signature)"}, {"a.marrow", "not a marrow native file (PNG signature)"},
      {"a", "not a model file (PNG signature)"}};
  for (const auto& [name, message] : cases) {
    std::ofstream(dir / name, std::ios::binary) << png;
    try {
      (void)load_model_file(dir / name);
      ADD_FAILURE() << name << " was accepted";
    } catch (const ImportError& e) {
      EXPECT_EQ(e.code(), ImportErrorCode::UnsupportedFormat) << e.what();
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
  for (const char* name : {"e.glb", "e.dae", "e.marrow"}) {
    std::ofstream(dir / name, std::ios::binary).flush();
    try {
      (void)load_model_file(dir / name);
      ADD_FAILURE() << name << " was accepted";
    } catch (const ImportError& e) {
      EXPECT_EQ(e.code(), ImportErrorCode::EmptyFile) << e.what();
      EXPECT_NE(std::string(e.what()).find(std::string(name) + ": empty file"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW((void)load_model_file(dir / "missing.glb"), ImportError);  // io-error, not "empty"
  try {
    (void)load_model_file(dir / "missing.glb");
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), ImportErrorCode::IoError) << e.what();
  }
  fs::remove_all(dir);
}

// docs/errors.md documents every refusal: each corpus file appears in the table row of its code.
TEST(Malformed, ErrorsDocumentListsEveryCorpusFileUnderItsCode) {
  std::ifstream in(fs::path(MARROW_TEST_DATA) / ".." / ".." / "docs" / "errors.md");
  ASSERT_TRUE(in) << "docs/errors.md is missing";
  std::map<std::string, std::string> rows;  // code -> its table row
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| `", 0) != 0) continue;
    const std::size_t end = line.find('`', 3);
    if (end != std::string::npos) rows[line.substr(3, end - 3)] += line;
  }
  for (const auto& [file, code] : manifest(fs::path(MARROW_TEST_DATA) / "malformed")) {
    ASSERT_EQ(rows.count(code), 1u) << "docs/errors.md has no row for " << code;
    EXPECT_NE(rows.at(code).find("`" + file + "`"), std::string::npos) << file << " is not listed under " << code;
  }
}

}  // namespace
}  // namespace marrow
