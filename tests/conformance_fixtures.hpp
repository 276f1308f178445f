#pragma once
// Synthetic glTF files that exercise what the shared assets do not (STEP and CUBICSPLINE
// channels, morph targets with animated weights, flat normals, reversed joints under a scaled
// armature with a transformed mesh node). The conformance test writes them and compares
// marrow's poses with oracle references made from the very same bytes
// (tests/data/oracle/regenerate.sh runs `marrow_fixtures DIR` to write them first).
#include <cstddef>
#include <string>
#include <vector>

namespace marrow::test {

struct ConformanceFixture {
  std::string name;             // file name, e.g. "interpolation.glb"
  std::vector<std::byte> glb;
};

std::vector<ConformanceFixture> conformance_fixtures();

}  // namespace marrow::test
