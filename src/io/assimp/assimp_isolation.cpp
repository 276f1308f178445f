#include "assimp_isolation.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "marrow/core/import_error.hpp"

#if defined(__unix__) || defined(__APPLE__)
#include <dlfcn.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#define MARROW_CAN_SPAWN 1
extern char** environ;
#else
#define MARROW_CAN_SPAWN 0
#endif

namespace marrow::detail {

bool can_isolate() noexcept { return MARROW_CAN_SPAWN != 0; }

#if MARROW_CAN_SPAWN

namespace {

constexpr const char* kWorkerName = "marrow-assimp-worker";

bool is_executable(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

// MSG_NOSIGNAL: a worker that died before reading everything is an error, not SIGPIPE.
bool send_all(int fd, std::span<const std::byte> data) {
  while (!data.empty()) {
    const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data = data.subspan(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace

std::filesystem::path find_assimp_worker(const std::filesystem::path& configured) {
  if (!configured.empty()) return configured;
  if (const char* given = std::getenv("MARROW_ASSIMP_WORKER"); given != nullptr && *given != '\0') return given;
  std::vector<std::filesystem::path> candidates;
  // Next to the executable or shared object this code was linked into (a program, a Python
  // extension whose package carries the worker).
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&find_assimp_worker), &info) != 0 && info.dli_fname != nullptr) {
    std::error_code ec;
    const auto self = std::filesystem::canonical(info.dli_fname, ec);
    if (!ec) candidates.push_back(self.parent_path() / kWorkerName);
  }
#if defined(MARROW_ASSIMP_WORKER_BUILD_PATH)
  candidates.emplace_back(MARROW_ASSIMP_WORKER_BUILD_PATH);
#endif
#if defined(MARROW_ASSIMP_WORKER_INSTALL_PATH)
  candidates.emplace_back(MARROW_ASSIMP_WORKER_INSTALL_PATH);
#endif
  for (const auto& candidate : candidates) {
    if (is_executable(candidate)) return candidate;
  }
  return {};
}

Model import_in_worker(const std::filesystem::path& worker, const WorkerRequest& request, const ImportLimits& read_limits) {
  const std::string& where = request.where;
  if (worker.empty()) {
    throw ImportError(ImportErrorCode::ExternalImporter,
                      where + ": the Assimp worker executable (" + kWorkerName +
                          ") was not found next to the program, in the build tree or in the install folder; "
                          "set MARROW_ASSIMP_WORKER or AssimpOptions::worker_executable, or import trusted files "
                          "with AssimpOptions::Isolation::InProcess");
  }
  const std::vector<std::byte> head = encode_worker_request(request);
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    throw ImportError(ImportErrorCode::ExternalImporter, where + ": cannot create a socket for the Assimp worker");
  }
  // The worker's stdin and stdout are one end of the socket; nothing else of ours leaks in.
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_adddup2(&actions, fds[1], 0);
  ::posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  ::posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
  const std::string program = worker.string();
  std::string flag = "--marrow-assimp-worker";
  char* argv[] = {const_cast<char*>(program.c_str()), flag.data(), nullptr};
  pid_t pid = 0;
  const int started = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, environ);
  ::posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (started != 0) {
    ::close(fds[0]);
    throw ImportError(ImportErrorCode::ExternalImporter,
                      where + ": cannot start the Assimp worker " + program + " (" + std::strerror(started) + ")");
  }
  // A worker that dies early stops reading; what it says (or its exit status) explains why.
  if (send_all(fds[0], head) && request.from_memory) send_all(fds[0], request.bytes);
  ::shutdown(fds[0], SHUT_WR);
  std::vector<std::byte> answer;
  std::byte chunk[65536];
  for (;;) {
    const ssize_t n = ::recv(fds[0], chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    // The worker's model is bounded by the same limits the reader will apply.
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
  return decode_worker_answer(answer, where, read_limits);
}

#else

std::filesystem::path find_assimp_worker(const std::filesystem::path& configured) { return configured; }

Model import_in_worker(const std::filesystem::path&, const WorkerRequest& request, const ImportLimits&) {
  throw ImportError(ImportErrorCode::ExternalImporter, request.where + ": no worker processes on this platform");
}

#endif

}  // namespace marrow::detail
