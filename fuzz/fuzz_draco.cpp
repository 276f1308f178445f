// KHR_draco_mesh_compression: the Draco stream of a small glTF built
// around the input (compressed_input.hpp), imported, then a workout of what is accepted.
#include <cstddef>
#include <cstdint>
#include <span>

#include "compressed_input.hpp"
#include "fuzz_options.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> input(reinterpret_cast<const std::byte*>(data), size);
  const std::vector<std::byte> glb = marrow::fuzz::draco_input_glb(input);
  if (glb.empty()) return 0;
  marrow::Model model;
  try {
    model = marrow::import_gltf(std::span<const std::byte>(glb), marrow::fuzz::options());
  } catch (const marrow::ImportError&) {
    return 0;
  }
  marrow::fuzz::work_out(model);
  return 0;
}
