#pragma once
// The end the glTF fuzz targets share: import the bytes (a refusal is a correct answer), then
// work out what was accepted (fuzz_options.hpp).
#include <span>

#include "fuzz_options.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"

namespace marrow::fuzz {

inline int import_gltf_and_work_out(std::span<const std::byte> bytes) {
  Model model;
  try {
    model = import_gltf(bytes, options());
  } catch (const ImportError&) {
    return 0;
  }
  work_out(model);
  return 0;
}

}  // namespace marrow::fuzz
