// The BVH reader from bytes (text of any shape: line endings, nesting, numbers), then a workout
// of what it accepts.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz_options.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/bvh/bvh_importer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  marrow::Model model;
  try {
    model = marrow::import_bvh(bytes, marrow::fuzz::options(), "fuzz");
  } catch (const marrow::ImportError&) {
    return 0;
  }
  marrow::fuzz::work_out(model);
  return 0;
}
