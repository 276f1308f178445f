#pragma once
// Private: running an import in a child process with memory and CPU limits (AssimpOptions::
// Isolation::ChildProcess). The child sends back the model in marrow's native format, or the
// ImportError it threw; the parent reads the model with the validating native reader.
#include <cstdint>
#include <functional>
#include <string>

#include "marrow/io/import_options.hpp"
#include "marrow/model/model.hpp"

namespace marrow::detail {

struct WorkerLimits {
  std::uint64_t memory_bytes = 4ull << 30;
  unsigned cpu_seconds = 120;
};

// Throws ImportError: the child's own (same code and message), or ExternalImporter naming the
// signal or exit status when the child dies or exceeds a limit.
Model import_in_child(const std::string& where, const WorkerLimits& limits, const ImportLimits& read_limits,
                      const std::function<Model()>& import);

// False where processes cannot be forked (then imports run in process).
bool can_isolate() noexcept;

}  // namespace marrow::detail
