#pragma once
// Private: running an Assimp import in the worker executable marrow-assimp-worker
// (AssimpOptions::Isolation::ChildProcess), started with posix_spawn -- never a bare fork of the
// caller, which is unsafe in a multithreaded program. The worker applies memory and CPU limits
// to itself, imports, and sends back the model in marrow's native format (or its ImportError);
// the caller reads the model with the validating native reader (assimp_worker_protocol.hpp).
#include <filesystem>
#include <string>

#include "assimp_worker_protocol.hpp"
#include "marrow/io/import_options.hpp"
#include "marrow/model/model.hpp"

namespace marrow::detail {

// The worker to start: `configured` when it is not empty, else $MARROW_ASSIMP_WORKER, else the
// first marrow-assimp-worker found next to the program or library holding this code, in the
// build tree, or where `cmake --install` puts it. Empty when none exists.
std::filesystem::path find_assimp_worker(const std::filesystem::path& configured);

// Throws ImportError: the worker's own (same code and message), or ExternalImporter naming
// `request.where` and the signal or exit status when the worker cannot start, dies or exceeds a
// limit. read_limits bound the model that comes back.
Model import_in_worker(const std::filesystem::path& worker, const WorkerRequest& request, const ImportLimits& read_limits);

// False where there is no posix_spawn (then imports run in process).
bool can_isolate() noexcept;

}  // namespace marrow::detail
