// EXT_meshopt_compression: the meshopt stream of a small glTF built
// around the input (compressed_input.hpp), imported, then a workout of what is accepted.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "compressed_input.hpp"
#include "gltf_workout.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> input(reinterpret_cast<const std::byte*>(data), size);
  const std::vector<std::byte> glb = marrow::fuzz::meshopt_input_glb(input);
  return glb.empty() ? 0 : marrow::fuzz::import_gltf_and_work_out(glb);
}
