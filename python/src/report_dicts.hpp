#pragma once
// The reports the command line prints as JSON (`marrow info --json`, `marrow pose --json`), as
// the dicts json.loads would give for that output: the same keys, nesting and order, integers
// as int, null as None, matrices as 16 numbers column-major. Built from the same report
// structures (InfoReport, PoseReport) the CLI prints, so both say the same; the numbers are
// the exact float values, which the CLI prints in their shortest round-trip text.
// tests/test_cli_reports.py holds the two equal for sample assets.
#include <optional>
#include <string>

#include <pybind11/pybind11.h>

#include "reports/info_report.hpp"
#include "reports/pose_report.hpp"
#include "marrow/model/root_motion.hpp"

namespace marrow::python {

namespace py = pybind11;

// `marrow info FILE --json`.
py::dict info_dict(const std::string& file, const InfoReport& report);

// The root motion `marrow pose --root-motion` adds: the file node and the motion taken out.
struct RootMotionEntry {
  int node = -1;
  RootMotion motion;
};

// `marrow pose FILE ... --json` (normals false: --no-normals).
py::dict pose_dict(const std::string& file, const PoseReport& report, bool normals,
                   const std::optional<RootMotionEntry>& root_motion);

}  // namespace marrow::python
