#include "marrow/core/diagnostic.hpp"

#include <array>

namespace marrow {

namespace {

// In enum order; a static_assert below keeps the two lists the same length.
constexpr std::array kNames = {
    std::string_view("channel-target-outside-scene"),
    std::string_view("unsupported-channel-path"),
    std::string_view("channel-without-target"),
    std::string_view("duplicate-channel"),
    std::string_view("weights-channel-without-morph-targets"),
    std::string_view("skin-weights-renormalized"),
    std::string_view("skin-weights-zero"),
    std::string_view("skin-weights-negative"),
    std::string_view("skin-influences-reduced"),
    std::string_view("palette-limit-loaded-static"),
    std::string_view("morph-weight-count-mismatch"),
    std::string_view("incomplete-triangle-dropped"),
    std::string_view("tangents-without-normals-ignored"),
    std::string_view("morph-normals-without-normals-ignored"),
    std::string_view("byte-stride-on-non-vertex-data"),
    std::string_view("accessor-unaligned"),
    std::string_view("accessor-min-max-ignored"),
    std::string_view("buffer-longer-than-byte-length"),
    std::string_view("buffer-view-target-unknown"),
    std::string_view("node-matrix-and-trs"),
    std::string_view("material-alpha-mode-unknown"),
    std::string_view("mesh-target-names-ignored"),
    std::string_view("clip-not-compressed"),
    std::string_view("skeletal-data-not-loaded"),
    std::string_view("ticks-per-second-defaulted"),
    std::string_view("invalid-channel-keys"),
    std::string_view("channel-keys-sorted"),
    std::string_view("channel-behaviour-ignored"),
    std::string_view("invalid-animation-duration"),
    std::string_view("mesh-channel-not-imported"),
    std::string_view("morph-channel-not-imported"),
    std::string_view("morph-targets-not-imported"),
    std::string_view("cameras-not-imported"),
    std::string_view("lights-not-imported"),
    std::string_view("textures-not-imported"),
    std::string_view("fbx-pivot-channel-rebased"),
    std::string_view("bone-without-node"),
    std::string_view("invalid-bone-offset"),
    std::string_view("conflicting-bone-offsets"),
    std::string_view("singular-mesh-node"),
    std::string_view("invalid-bone-weight"),
    std::string_view("bone-influences-limited"),
    std::string_view("unweighted-vertices"),
    std::string_view("faces-dropped"),
    std::string_view("non-finite-normals"),
    std::string_view("mesh-without-node"),
    std::string_view("ambiguous-node-name"),
    std::string_view("vrm-humanoid-entry-ignored"),
    std::string_view("vrm-humanoid-dropped"),
};
static_assert(kNames.size() == static_cast<std::size_t>(DiagnosticCode::VrmHumanoidDropped) + 1);

}  // namespace

std::string_view to_string(DiagnosticCode code) noexcept {
  const auto i = static_cast<std::size_t>(code);
  return i < kNames.size() ? kNames[i] : std::string_view("unknown");
}

std::optional<DiagnosticCode> diagnostic_code_from_string(std::string_view name) noexcept {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<DiagnosticCode>(i);
  }
  return std::nullopt;
}

void add_diagnostic(std::vector<Diagnostic>& list, DiagnosticCode code, std::string_view message, int count) {
  for (Diagnostic& d : list) {
    if (d.code == code) {
      d.count += count;
      return;
    }
  }
  list.push_back(Diagnostic{code, count, std::string(message)});
}

const Diagnostic* find_diagnostic(const std::vector<Diagnostic>& list, DiagnosticCode code) noexcept {
  for (const Diagnostic& d : list) {
    if (d.code == code) return &d;
  }
  return nullptr;
}

const Diagnostic* find_diagnostic(const std::vector<Diagnostic>& list, std::string_view name) noexcept {
  const std::optional<DiagnosticCode> code = diagnostic_code_from_string(name);
  return code ? find_diagnostic(list, *code) : nullptr;
}

}  // namespace marrow
