// marrow_fixtures DIR               writes the conformance fixtures (conformance_fixtures.hpp), so
//                                   the oracle can compute references from the exact bytes
// marrow_fixtures --malformed DIR   writes the malformed corpus (malformed_corpus.hpp) and its
//                                   MANIFEST.tsv (file, expected ImportError code, why)
// marrow_fixtures --fuzz-seeds TARGET DIR   valid inputs of the draco or meshopt fuzz target
#include <cstdio>
#include <fstream>
#include <string>

#include "conformance_fixtures.hpp"
#include "compressed_fixtures.hpp"
#include "malformed_corpus.hpp"

namespace {

bool write(const std::string& path, const std::vector<std::byte>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
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
  if (argc != 2 && !malformed) {
    std::fprintf(stderr, "usage: marrow_fixtures [--malformed] DIR\n");
    return 2;
  }
  const std::string dir = argv[argc - 1];
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
