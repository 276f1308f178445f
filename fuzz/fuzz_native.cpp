// The native format reader from bytes, then a workout of what it accepts.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz_options.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/native/native_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  marrow::Model model;
  try {
    model = marrow::read_native(bytes, marrow::fuzz::options().limits);
  } catch (const marrow::ImportError&) {
    return 0;
  }
  marrow::fuzz::work_out(model);
  return 0;
}
