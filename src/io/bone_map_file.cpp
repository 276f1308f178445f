#include "marrow/io/bone_map_file.hpp"

#include <algorithm>
#include <string_view>

#include <simdjson.h>

#include "marrow/core/import_error.hpp"
#include "marrow/core/quoted_name.hpp"
#include "marrow/io/file_bytes.hpp"

namespace marrow {

BoneMapEntries parse_bone_map(std::span<const std::byte> json, const ImportLimits& limits, std::string_view where) {
  const auto refuse = [&](ImportErrorCode code, const std::string& message) {
    throw ImportError(code, std::string(where) + ": " + message);
  };
  check_file_size(json.size(), limits, where);
  if (json.empty()) refuse(ImportErrorCode::EmptyFile, "the file is empty");
  std::string_view text(reinterpret_cast<const char*>(json.data()), json.size());
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  simdjson::dom::parser parser;
  // An object of strings is two levels deep; anything deeper is refused by the parser itself.
  if (parser.allocate(text.size(), 2) != simdjson::SUCCESS) refuse(ImportErrorCode::LimitExceeded, "cannot allocate a parser");
  const simdjson::padded_string padded(text);
  simdjson::dom::element root;
  const simdjson::error_code error = parser.parse(padded).get(root);
  if (error == simdjson::DEPTH_ERROR) refuse(ImportErrorCode::InvalidJson, "nested deeper than an object of names");
  if (error != simdjson::SUCCESS) refuse(ImportErrorCode::InvalidJson, simdjson::error_message(error));
  simdjson::dom::object object;
  if (root.get_object().get(object) != simdjson::SUCCESS)
    refuse(ImportErrorCode::InvalidDocument, "the document is not an object of {\"target node\": \"source node or humanoid bone\"}");
  BoneMapEntries entries;
  for (const auto field : object) {
    if (entries.size() == kMaxBoneMapEntries)
      refuse(ImportErrorCode::InvalidDocument, "more than " + std::to_string(kMaxBoneMapEntries) + " entries");
    const std::string_view key = field.key;
    std::string_view value;
    if (field.value.get_string().get(value) != simdjson::SUCCESS)
      refuse(ImportErrorCode::InvalidDocument, quoted_name(key) + ": the value is not a string (a source node or humanoid bone name)");
    if (key.empty() || value.empty()) refuse(ImportErrorCode::InvalidDocument, "an empty name (" + quoted_name(key) + ": " + quoted_name(value) + ")");
    if (std::any_of(entries.begin(), entries.end(), [&](const auto& e) { return e.first == key; }))
      refuse(ImportErrorCode::InvalidDocument, quoted_name(key) + " is mapped twice");
    entries.emplace_back(std::string(key), std::string(value));
  }
  if (entries.empty()) refuse(ImportErrorCode::InvalidDocument, "the object maps no bone");
  return entries;
}

BoneMapEntries read_bone_map_file(const std::filesystem::path& path, const ImportLimits& limits) {
  const FileBytes bytes = read_file(path, limits);
  return parse_bone_map(bytes.bytes(), limits, path.string());
}

}  // namespace marrow
