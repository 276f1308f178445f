// Assimp's path from bytes with the Collada hint (seeded with Collada text; Assimp falls back to
// detecting other formats by content), then a workout of what it accepts.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "fuzz_options.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/assimp/assimp_importer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  marrow::AssimpOptions options;
  options.import = marrow::fuzz::options();
  // In process: coverage and sanitizers must see the conversion code (a child's are invisible).
  options.isolation = marrow::AssimpOptions::Isolation::InProcess;
  marrow::Model model;
  try {
    model = marrow::import_assimp(bytes, "dae", options);
  } catch (const marrow::ImportError&) {
    return 0;
  }
  marrow::fuzz::work_out(model);
  return 0;
}
