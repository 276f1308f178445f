#pragma once
// Private: what the caller and the Assimp worker executable (marrow-assimp-worker) say to each
// other over one socket (the worker's stdin and stdout). One room for both ends, so they cannot
// drift apart; a version in the header makes a stale worker refuse instead of misreading.
//
//   request  = header (28 bytes: "MRWQ", version u32, memory u64, cpu seconds u32, payload u64)
//              then the payload: the import to run (encode_worker_request).
//   answer   = 'M' + the model in marrow's native format, or 'E' + ImportErrorCode (u32) + message.
// The worker reads the header first and applies its limits before reading the payload.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "marrow/io/assimp/assimp_importer.hpp"
#include "marrow/model/model.hpp"

namespace marrow::detail {

inline constexpr std::uint32_t kWorkerProtocolVersion = 3;  // 2: max_influences (S1); 3: compression
inline constexpr std::size_t kWorkerHeaderBytes = 28;

struct WorkerLimits {
  std::uint64_t memory_bytes = 4ull << 30;
  unsigned cpu_seconds = 120;
};

// One import: a file Assimp opens itself (so its references resolve next to it) or bytes with an
// extension hint. The options' isolation is ignored: the worker imports in its own process.
struct WorkerRequest {
  WorkerLimits limits;
  std::string where;  // the name errors carry: the file's name, or <memory>.<hint>
  bool from_memory = false;
  std::string path;            // from_memory == false: the file
  std::string extension_hint;  // from_memory == true: "fbx", "dae", ...
  std::span<const std::byte> bytes;  // from_memory: a view of the file's bytes
  AssimpOptions options;
};

// The header and the payload up to the file's bytes, which the sender sends next as they are
// (from_memory; no copy of a large file).
std::vector<std::byte> encode_worker_request(const WorkerRequest& request);

// The header's fields; false when the bytes are not a request of this version.
struct WorkerHeader {
  WorkerLimits limits;
  std::uint64_t payload_bytes = 0;
};
bool decode_worker_header(std::span<const std::byte, kWorkerHeaderBytes> header, WorkerHeader& out);

// Fills everything but the limits from the payload (`bytes` views into it); throws
// std::runtime_error when it is cut short or inconsistent.
void decode_worker_payload(std::span<const std::byte> payload, WorkerRequest& out);

std::vector<std::byte> encode_model_answer(const Model& model);
std::vector<std::byte> encode_error_answer(std::uint32_t code, const std::string& message);

// Returns the model, or throws the worker's ImportError (same code and message); an answer that
// is neither is an ExternalImporter error naming `where`.
Model decode_worker_answer(std::span<const std::byte> answer, const std::string& where, const ImportLimits& read_limits);

}  // namespace marrow::detail
