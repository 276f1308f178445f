// The retarget bone map files of the malformed corpus (.json): each wrong in one way
// (docs/retargeting.md, "Bone maps"; io/bone_map_file.hpp).
#include <string>

#include "malformed_corpus.hpp"

namespace marrow::test {

void append_malformed_bone_maps(std::vector<MalformedFile>& out) {
  using C = ImportErrorCode;
  const auto add = [&](const char* name, const std::string& text, C code, const char* why) {
    std::vector<std::byte> bytes(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) bytes[i] = static_cast<std::byte>(text[i]);
    out.push_back({name, std::move(bytes), code, why});
  };
  add("bone_map_empty.json", "", C::EmptyFile, "no bytes");
  add("bone_map_not_json.json", "{hips: Hips}", C::InvalidJson, "names without quotes");
  add("bone_map_array.json", "[\"hips\", \"Hips\"]", C::InvalidDocument, "an array, not an object");
  add("bone_map_number_value.json", "{\"hips\": 3}", C::InvalidDocument, "a node index instead of a name");
  add("bone_map_nested.json", "{\"hips\": {\"node\": \"Hips\"}}", C::InvalidJson, "an object as a value");
  add("bone_map_twice.json", "{\"hips\": \"Hips\", \"hips\": \"Pelvis\"}", C::InvalidDocument, "one target node mapped twice");
  add("bone_map_empty_name.json", "{\"\": \"Hips\"}", C::InvalidDocument, "an empty target node name");
  add("bone_map_no_entries.json", "{}", C::InvalidDocument, "an object that maps nothing");
}

}  // namespace marrow::test
