#include "assimp_isolation.hpp"

#include <cstring>
#include <string>
#include <vector>

#include "marrow/core/import_error.hpp"
#include "marrow/io/native_format.hpp"

#if defined(__unix__) || defined(__APPLE__)
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#define MARROW_CAN_FORK 1
#else
#define MARROW_CAN_FORK 0
#endif

#if defined(__SANITIZE_ADDRESS__)
#define MARROW_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MARROW_ASAN 1
#endif
#endif

namespace marrow::detail {

bool can_isolate() noexcept { return MARROW_CAN_FORK != 0; }

#if MARROW_CAN_FORK

namespace {

// The child's answer: 'M' + native bytes, or 'E' + code (u32) + message.
bool write_all(int fd, const void* data, std::size_t size) {
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

[[noreturn]] void child_main(int fd, const WorkerLimits& limits, const std::function<Model()>& import) {
#if !defined(MARROW_ASAN)
  // (AddressSanitizer reserves terabytes of address space: no address-space limit under it.)
  const rlimit memory{limits.memory_bytes, limits.memory_bytes};
  ::setrlimit(RLIMIT_AS, &memory);
#endif
  const rlimit cpu{limits.cpu_seconds, limits.cpu_seconds + 1};
  ::setrlimit(RLIMIT_CPU, &cpu);
  std::vector<char> answer;
  const auto error_answer = [&answer](ImportErrorCode code, const std::string& message) {
    const auto value = static_cast<std::uint32_t>(code);
    answer.resize(1 + 4 + message.size());
    answer[0] = 'E';
    std::memcpy(answer.data() + 1, &value, 4);
    std::memcpy(answer.data() + 5, message.data(), message.size());
  };
  try {
    const std::vector<std::byte> bytes = write_native(import());
    answer.resize(1 + bytes.size());
    answer[0] = 'M';
    std::memcpy(answer.data() + 1, bytes.data(), bytes.size());
  } catch (const ImportError& e) {
    error_answer(e.code(), e.detail());
  } catch (const std::exception& e) {
    error_answer(ImportErrorCode::ExternalImporter, std::string("assimp: ") + e.what());
  }
  const bool ok = write_all(fd, answer.data(), answer.size());
  ::_exit(ok ? 0 : 3);  // no destructors, atexit handlers or stdio flushing of the parent's state
}

}  // namespace

Model import_in_child(const std::string& where, const WorkerLimits& limits, const ImportLimits& read_limits,
                      const std::function<Model()>& import) {
  int fds[2];
  if (::pipe(fds) != 0) throw ImportError(ImportErrorCode::ExternalImporter, where + ": cannot create a pipe for the Assimp worker");
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw ImportError(ImportErrorCode::ExternalImporter, where + ": cannot start the Assimp worker process");
  }
  if (pid == 0) {
    ::close(fds[0]);
    child_main(fds[1], limits, import);
  }
  ::close(fds[1]);
  std::vector<char> answer;
  char chunk[65536];
  for (;;) {
    const ssize_t n = ::read(fds[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    // The child's model is bounded by the same limits the reader will apply.
    if (answer.size() + static_cast<std::size_t>(n) > read_limits.max_total_bytes + 64) {
      ::kill(pid, SIGKILL);
      break;
    }
    answer.insert(answer.end(), chunk, chunk + n);
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    throw ImportError(ImportErrorCode::ExternalImporter,
                      where + ": the Assimp worker process died (signal " + std::to_string(sig) +
                          (sig == SIGXCPU || sig == SIGKILL ? ": CPU time or memory limit" : ": a crash inside Assimp") +
                          ")");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || answer.empty()) {
    throw ImportError(ImportErrorCode::ExternalImporter,
                      where + ": the Assimp worker process ended without an answer (exit status " +
                          std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
  }
  if (answer[0] == 'E' && answer.size() >= 5) {
    std::uint32_t code = 0;
    std::memcpy(&code, answer.data() + 1, 4);
    if (code > static_cast<std::uint32_t>(ImportErrorCode::ExternalImporter)) code = static_cast<std::uint32_t>(ImportErrorCode::ExternalImporter);
    throw ImportError(static_cast<ImportErrorCode>(code), std::string(answer.data() + 5, answer.size() - 5));
  }
  const std::span<const std::byte> model(reinterpret_cast<const std::byte*>(answer.data() + 1), answer.size() - 1);
  return read_native(model, read_limits);
}

#else

Model import_in_child(const std::string&, const WorkerLimits&, const ImportLimits&, const std::function<Model()>& import) {
  return import();
}

#endif

}  // namespace marrow::detail
