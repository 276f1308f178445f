// The whole glTF import from bytes (.gltf JSON or .glb), then a workout of what it accepts.
#include <cstddef>
#include <cstdint>
#include <span>

#include "gltf_workout.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return marrow::fuzz::import_gltf_and_work_out(std::span<const std::byte>(reinterpret_cast<const std::byte*>(data), size));
}
