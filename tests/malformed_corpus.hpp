#pragma once
// The malformed-file corpus: small files that are each wrong in one way, with the ImportError
// code marrow must refuse them with (docs/errors.md). `marrow_fixtures --malformed DIR` writes
// them with a MANIFEST.tsv; tests/data/malformed holds the committed copy, which the malformed
// test (and the fuzzers, as seeds) read. Crashing inputs found later are added there by hand.
#include <cstddef>
#include <string>
#include <vector>

#include "marrow/core/import_error.hpp"

namespace marrow::test {

struct MalformedFile {
  std::string name;           // file name with .glb, .gltf, .marrow, .bvh or .json (a bone map; graph_*.json a graph)
  std::vector<std::byte> bytes;
  ImportErrorCode code;       // the code the import must throw
  std::string why;            // one line for the manifest
};

std::vector<MalformedFile> malformed_corpus();
// The native (.marrow) files of the corpus, appended to out (malformed_native_corpus.cpp).
void append_malformed_native(std::vector<MalformedFile>& out);
// The native files with a broken motion database (MMDB), likewise (malformed_native_corpus.cpp).
void append_malformed_motion_databases(std::vector<MalformedFile>& out);
// The BVH (.bvh) files of the corpus, appended to out (malformed_bvh_corpus.cpp).
void append_malformed_bvh(std::vector<MalformedFile>& out);
// The retarget bone maps (.json) of the corpus (malformed_bone_map_corpus.cpp).
void append_malformed_bone_maps(std::vector<MalformedFile>& out);
// The animation graph files (graph_*.json) of the corpus (malformed_graph_corpus.cpp).
void append_malformed_graphs(std::vector<MalformedFile>& out);

}  // namespace marrow::test
