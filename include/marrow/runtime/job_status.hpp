#pragma once
// What a job's validate() returns (X3): valid, or the field that is wrong and what is wrong
// with it. Both are static strings, so validating allocates nothing and run() can afford it.
//
//   SkinningJob job{...};
//   if (const JobStatus s = job.validate(); !s) log(s.message("SkinningJob"));
//   job.run();   // never throws or allocates; writes nothing when validate() fails
#include <stdexcept>
#include <string>
#include <string_view>

namespace marrow {

struct JobStatus {
  const char* field = nullptr;    // the input or output at fault; nullptr when valid
  const char* problem = nullptr;  // e.g. "has fewer elements than in_positions"

  constexpr bool ok() const noexcept { return field == nullptr; }
  constexpr explicit operator bool() const noexcept { return ok(); }

  // "<job>: <field> <problem>", or "<job>: ok".
  std::string message(std::string_view job) const {
    std::string out(job);
    out += ": ";
    if (ok()) return out + "ok";
    out += field;
    out += ' ';
    out += problem;
    return out;
  }
};

inline constexpr JobStatus kJobOk{};

constexpr JobStatus job_error(const char* field, const char* problem) noexcept { return JobStatus{field, problem}; }

// For facades that keep the seed's exception contract: throws std::invalid_argument with the
// message when the status is not ok.
inline void throw_if_invalid(const JobStatus& status, std::string_view job) {
  if (!status) throw std::invalid_argument(status.message(job));
}

}  // namespace marrow
