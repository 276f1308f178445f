// marrow-assimp-worker: runs one Assimp import for a marrow process that started it (see
// src/io/assimp/assimp_isolation.hpp). It reads the request from stdin, limits its own memory and CPU
// before reading the payload, imports in process, and writes the answer to stdout. Whatever
// Assimp does to this process -- crash, abort, allocate without bound -- the caller sees an
// ImportError.
#include <sys/resource.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <exception>
#include <span>
#include <string_view>
#include <vector>

#include "../../src/core/address_sanitizer.hpp"
#include "../../src/io/assimp/assimp_worker_protocol.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/assimp/assimp_importer.hpp"


namespace {

using namespace marrow;

bool read_exact(int fd, std::span<std::byte> out) {
  while (!out.empty()) {
    const ssize_t n = ::read(fd, out.data(), out.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    out = out.subspan(static_cast<std::size_t>(n));
  }
  return true;
}

bool write_all(int fd, std::span<const std::byte> data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data = data.subspan(static_cast<std::size_t>(n));
  }
  return true;
}

void apply_limits(const detail::WorkerLimits& limits) {
#if !defined(MARROW_ASAN)
  // (AddressSanitizer reserves terabytes of address space: no address-space limit under it.)
  const rlimit memory{limits.memory_bytes, limits.memory_bytes};
  ::setrlimit(RLIMIT_AS, &memory);
#endif
  const rlimit cpu{limits.cpu_seconds, limits.cpu_seconds + 1};
  ::setrlimit(RLIMIT_CPU, &cpu);
}

std::vector<std::byte> run(const detail::WorkerRequest& request) {
  try {
    const Model model = request.from_memory ? import_assimp(request.bytes, request.extension_hint, request.options)
                                            : import_assimp(request.path, request.options);
    return detail::encode_model_answer(model);
  } catch (const ImportError& e) {
    return detail::encode_error_answer(static_cast<std::uint32_t>(e.code()), e.detail());
  } catch (const std::exception& e) {
    return detail::encode_error_answer(static_cast<std::uint32_t>(ImportErrorCode::ExternalImporter),
                                       request.where + ": assimp: " + e.what());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || std::string_view(argv[1]) != "--marrow-assimp-worker") {
    std::fputs("marrow-assimp-worker: marrow starts this program for each isolated Assimp import "
               "(AssimpOptions::Isolation::ChildProcess); it is not a command\n", stderr);
    return 2;
  }
  std::array<std::byte, detail::kWorkerHeaderBytes> head{};
  if (!read_exact(0, head)) return 3;
  detail::WorkerHeader header;
  if (!detail::decode_worker_header(head, header)) {
    const auto answer = detail::encode_error_answer(
        static_cast<std::uint32_t>(ImportErrorCode::ExternalImporter),
        "the Assimp worker does not understand its caller's request (a marrow-assimp-worker of another marrow version?)");
    return write_all(1, answer) ? 0 : 3;
  }
  apply_limits(header.limits);
  std::vector<std::byte> payload(static_cast<std::size_t>(header.payload_bytes));
  if (!read_exact(0, payload)) return 3;
  detail::WorkerRequest request;
  request.limits = header.limits;
  std::vector<std::byte> answer;
  try {
    detail::decode_worker_payload(payload, request);
    answer = run(request);
  } catch (const std::exception& e) {
    answer = detail::encode_error_answer(static_cast<std::uint32_t>(ImportErrorCode::ExternalImporter),
                                         std::string("the Assimp worker could not read its request: ") + e.what());
  }
  return write_all(1, answer) ? 0 : 3;
}
