#include "gltf_vrm_humanoid.hpp"

#include <stdexcept>
#include <string>
#include <string_view>

#include "marrow/core/quoted_name.hpp"

namespace marrow::gltf {

namespace {

// The entries in model nodes: the first of a bone or a node wins.
HumanoidMap read_entries(const VrmHumanoid& vrm, const Model& model, std::vector<Diagnostic>& diagnostics) {
  const bool vrm0 = vrm.version == 0;
  const auto ignore = [&](const std::string& why) {
    add_diagnostic(diagnostics, DiagnosticCode::VrmHumanoidEntryIgnored, "VRM humanoid: " + why + "; the entry is ignored");
  };
  HumanoidMap map;
  for (const VrmHumanBone& entry : vrm.bones) {
    const std::string what = "bone " + quoted_name(entry.bone, 40);
    const std::optional<HumanoidBone> bone = humanoid_bone_named(entry.bone, vrm0);
    if (!bone) {
      ignore(what + " is not a VRM " + (vrm0 ? "0.x" : "1.0") + " bone name");
      continue;
    }
    const std::vector<int>& node_to_bone = model.source.node_to_bone;
    const int node = entry.node < node_to_bone.size() ? node_to_bone[entry.node] : -1;
    if (node <= 0) {
      ignore(what + ": node " + std::to_string(entry.node) + " is outside the scene");
      continue;
    }
    if (map.has(*bone)) {
      ignore(what + " is named twice");
      continue;
    }
    bool taken = false;
    for (std::size_t b = 0; b < kHumanoidBoneCount; ++b) taken = taken || map.nodes[b] == node;
    if (taken) {
      ignore(what + ": node " + std::to_string(entry.node) + " is another bone's already");
      continue;
    }
    map.set(*bone, node);
  }
  const int hips = map.node(HumanoidBone::Hips);
  for (std::size_t b = 1; b < kHumanoidBoneCount && hips >= 0; ++b) {
    if (map.nodes[b] >= 0 && !model.descends_from(map.nodes[b], hips)) {
      ignore(std::string(to_string(static_cast<HumanoidBone>(b))) + ": its node is not below hips");
      map.nodes[b] = -1;
    }
  }
  return map;
}

}  // namespace

std::optional<HumanoidMap> vrm_humanoid_map(const Document& doc, const Model& model, std::vector<Diagnostic>& diagnostics) {
  if (!doc.vrm_humanoid) return std::nullopt;
  HumanoidMap map = read_entries(*doc.vrm_humanoid, model, diagnostics);
  for (std::size_t b = 0; b < kHumanoidBoneCount; ++b) {
    const auto bone = static_cast<HumanoidBone>(b);
    if (is_required(bone) && !map.has(bone)) {
      add_diagnostic(diagnostics, DiagnosticCode::VrmHumanoidDropped,
                     "VRM humanoid: no " + std::string(to_string(bone)) + " (a required bone): the file's map is not used");
      return std::nullopt;
    }
  }
  try {
    validate(map, model);  // what the steps above already ensure; kept so a map in a Model is always valid
  } catch (const std::invalid_argument& e) {
    add_diagnostic(diagnostics, DiagnosticCode::VrmHumanoidDropped, std::string("VRM humanoid: ") + e.what());
    return std::nullopt;
  }
  return map;
}

}  // namespace marrow::gltf
