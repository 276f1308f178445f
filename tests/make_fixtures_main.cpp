// marrow_fixtures DIR: writes the conformance fixtures (conformance_fixtures.hpp) into DIR, so
// the oracle can compute reference poses from the exact bytes the test will import.
#include <cstdio>
#include <fstream>

#include "conformance_fixtures.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: marrow_fixtures DIR\n");
    return 2;
  }
  for (const auto& fixture : marrow::test::conformance_fixtures()) {
    std::ofstream out(std::string(argv[1]) + "/" + fixture.name, std::ios::binary);
    out.write(reinterpret_cast<const char*>(fixture.glb.data()), static_cast<std::streamsize>(fixture.glb.size()));
    if (!out) {
      std::fprintf(stderr, "marrow_fixtures: cannot write %s\n", fixture.name.c_str());
      return 1;
    }
    std::printf("%s\n", fixture.name.c_str());
  }
  return 0;
}
