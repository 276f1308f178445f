// A stand-in for marrow-assimp-worker that speaks the same protocol and misbehaves on request,
// so the tests can show what the caller makes of each way a worker can end. The extension hint
// of a from-memory request says what to do.
#include <unistd.h>

#include <array>
#include <csignal>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../src/io/assimp/assimp_worker_protocol.hpp"
#include "marrow/core/import_error.hpp"
#include "demo/demo_character.hpp"

namespace {

bool read_exact(std::span<std::byte> out) {
  while (!out.empty()) {
    const ssize_t n = ::read(0, out.data(), out.size());
    if (n <= 0) return false;
    out = out.subspan(static_cast<std::size_t>(n));
  }
  return true;
}

void write_all(std::span<const std::byte> data) {
  while (!data.empty()) {
    const ssize_t n = ::write(1, data.data(), data.size());
    if (n <= 0) return;
    data = data.subspan(static_cast<std::size_t>(n));
  }
}

}  // namespace

int main() {
  using namespace marrow;
  std::array<std::byte, detail::kWorkerHeaderBytes> head{};
  detail::WorkerHeader header;
  if (!read_exact(head) || !detail::decode_worker_header(head, header)) return 4;
  std::vector<std::byte> payload(static_cast<std::size_t>(header.payload_bytes));
  if (!read_exact(payload)) return 4;
  detail::WorkerRequest request;
  detail::decode_worker_payload(payload, request);
  const std::string_view act = request.extension_hint;
  if (act == "demo") write_all(detail::encode_model_answer(make_demo_character()));
  if (act == "error") {
    write_all(detail::encode_error_answer(static_cast<std::uint32_t>(ImportErrorCode::InvalidMesh), "x: mesh 3 is bad"));
  }
  if (act == "future-code") write_all(detail::encode_error_answer(9999, "a code from a newer marrow"));
  if (act == "crash") std::raise(SIGSEGV);
  if (act == "junk") write_all(std::as_bytes(std::span("Zjunk", 5)));
  if (act == "echo") {
    // The options as the worker received them, back as an error message, for the round trip.
    const AssimpOptions& o = request.options;
    write_all(detail::encode_error_answer(
        static_cast<std::uint32_t>(ImportErrorCode::InvalidDocument),
        request.where + "|" + std::to_string(request.bytes.size()) + "|" + std::to_string(header.limits.memory_bytes) + "|" +
            std::to_string(header.limits.cpu_seconds) + "|" + std::to_string(o.import.scene) + "|" +
            std::to_string(o.import.max_palette) + "|" + std::to_string(static_cast<int>(o.import.palette_policy)) + "|" +
            std::to_string(o.import.union_only) + "|" + std::to_string(o.import.curve_tolerance) + "|" +
            std::to_string(o.import.unit_scale) + "|" + std::to_string(o.import.max_influences) + "|" +
            (o.import.compression ? std::to_string(o.import.compression->tolerance) + "/" +
                                        std::to_string(o.import.compression->distance)
                                  : std::string("none")) + "|" + std::to_string(o.import.limits.max_file_bytes) + "|" +
            std::to_string(o.import.limits.max_total_bytes) + "|" + std::to_string(o.import.limits.max_nodes) + "|" +
            std::to_string(o.import.limits.max_accessor_elements) + "|" +
            std::to_string(o.import.limits.max_animation_keys) + "|" + std::to_string(o.import.limits.max_json_depth) +
            "|" + std::to_string(o.max_bones) + "|" + std::to_string(o.ticks_per_second.value_or(-1.0)) + "|" +
            std::to_string(o.load_skeletal_data) + "|" + std::to_string(o.skeleton_meshes)));
  }
  // "mute": no answer at all.
  return 0;
}
