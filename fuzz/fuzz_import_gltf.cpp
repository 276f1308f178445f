// The whole glTF import from bytes (.gltf JSON or .glb), then a workout of what it accepts.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz_options.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  marrow::Model model;
  try {
    model = marrow::import_gltf(bytes, marrow::fuzz::options());
  } catch (const marrow::ImportError&) {
    return 0;
  }
  marrow::fuzz::work_out(model);
  return 0;
}
