// VRM's humanoid map (extensions.VRMC_vrm / extensions.VRM) -> Document::vrm_humanoid. The map is
// an extra of the file, not what makes it glTF: whatever shape it has, the file is never refused
// for it. An entry of the wrong type or with a node out of range is left out
// (vrm-humanoid-entry-ignored); a map of the wrong shape is not read at all (vrm-humanoid-dropped).
#include <simdjson.h>

#include <optional>
#include <string>
#include <string_view>

#include "gltf_json_document_reader.hpp"
#include "gltf_json_values.hpp"
#include "marrow/core/quoted_name.hpp"

namespace marrow::gltf {

using namespace json_values;

namespace {

// o[key] when it is an object.
std::optional<object> object_member(object o, std::string_view key) {
  const std::optional<element> e = member(o, key);
  object out;
  if (!e || e->get_object().get(out) != simdjson::SUCCESS) return std::nullopt;
  return out;
}

}  // namespace

void DocumentReader::read_vrm_humanoid(object root) {
  const std::optional<object> extensions = object_member(root, "extensions");
  if (!extensions) return;
  int version = 1;
  std::optional<element> vrm = member(*extensions, "VRMC_vrm");
  if (!vrm) {
    vrm = member(*extensions, "VRM");
    version = 0;
  }
  if (!vrm) return;
  const std::string where = version == 1 ? "extensions.VRMC_vrm.humanoid.humanBones" : "extensions.VRM.humanoid.humanBones";
  const auto drop = [&](const std::string& why) {
    add_diagnostic(diagnostics_, DiagnosticCode::VrmHumanoidDropped, why + ": the file's humanoid map is not read");
  };
  object vrm_object;
  if (vrm->get_object().get(vrm_object) != simdjson::SUCCESS) return drop(where + ": the extension is not an object");
  const std::optional<object> humanoid = object_member(vrm_object, "humanoid");
  const std::optional<element> bones = humanoid ? member(*humanoid, "humanBones") : std::nullopt;
  if (!bones) return drop(where + " is missing (or humanoid is not an object)");
  VrmHumanoid out;
  out.version = version;
  if (version == 1) {
    object entries;
    if (bones->get_object().get(entries) != simdjson::SUCCESS) return drop(where + " is not an object");
    for (const auto field : entries) {
      object entry;
      const std::string name(field.key);
      if (field.value.get_object().get(entry) != simdjson::SUCCESS) {
        ignore_vrm_entry(where + "." + quoted_name(name, 40) + " is " + describe(field.value) + ", not an object");
        continue;
      }
      read_vrm_entry(entry, name, where + "." + quoted_name(name, 40), out);
    }
  } else {
    array entries;
    if (bones->get_array().get(entries) != simdjson::SUCCESS) return drop(where + " is not an array");
    std::uint64_t i = 0;
    for (const element item : entries) {
      const std::string at = where + "[" + num(i++) + "]";
      object entry;
      std::string_view name;
      if (item.get_object().get(entry) != simdjson::SUCCESS) {
        ignore_vrm_entry(at + " is " + describe(item) + ", not an object");
        continue;
      }
      const std::optional<element> bone = member(entry, "bone");
      if (!bone || bone->get_string().get(name) != simdjson::SUCCESS) {
        ignore_vrm_entry(at + ": bone is missing or not a string");
        continue;
      }
      read_vrm_entry(entry, std::string(name), at, out);
    }
  }
  doc_.vrm_humanoid = std::move(out);
}

// One entry's node: an integer index of a node of the file.
void DocumentReader::read_vrm_entry(object entry, std::string bone, const std::string& where, VrmHumanoid& out) {
  const std::optional<element> node = member(entry, "node");
  if (!node) return ignore_vrm_entry(where + ": node is missing");
  const JsonInteger v = integer_of(*node);
  if (!v.is_integer || (v.negative && v.magnitude != 0) || v.magnitude >= counts_.nodes) {
    return ignore_vrm_entry(where + ": node " + describe(*node) + " is not a node index (the file has " +
                            num(counts_.nodes) + " nodes)");
  }
  out.bones.push_back(VrmHumanBone{std::move(bone), static_cast<std::uint32_t>(v.magnitude)});
}

void DocumentReader::ignore_vrm_entry(const std::string& why) {
  add_diagnostic(diagnostics_, DiagnosticCode::VrmHumanoidEntryIgnored, why + "; the entry is ignored");
}

}  // namespace marrow::gltf
