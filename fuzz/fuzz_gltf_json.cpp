// glTF JSON -> Document: every input is parsed or refused with ImportError; round-trips what it
// accepts through the writer.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_options.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/gltf/detail/gltf_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<marrow::Diagnostic> diagnostics;
  try {
    const marrow::gltf::Document doc =
        marrow::gltf::parse_gltf_json(std::string_view(reinterpret_cast<const char*>(data), size), marrow::fuzz::options().limits, diagnostics);
    const std::string again = marrow::gltf::serialize_gltf_json(doc);
    std::vector<marrow::Diagnostic> more;
    (void)marrow::gltf::parse_gltf_json(again, marrow::fuzz::options().limits, more);
  } catch (const marrow::ImportError&) {
  }
  return 0;
}
