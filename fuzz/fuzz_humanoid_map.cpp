// auto_humanoid_map on rigs built from the bytes, read as text: one node per line, its depth in
// the hierarchy by its leading spaces (deeper than one below the line before clamps; a line
// starting with '>' is one below the line before, its '>' part of the name), its name
// the rest of the line up to a tab, then optionally its offset from its parent as three numbers
// ("nan", "1e39", "-0" included): names of any bytes and length, duplicates, chains as deep as
// the input is long, any rest pose. Every few lines a node's transform is a raw matrix (zero
// scale, NaN), and the rest pose is given apart from the nodes (rest_locals) once in a while,
// sometimes of the wrong size. A refusal is std::invalid_argument; a map must pass
// validate(HumanoidMap, Model) and come back unchanged through humanoid_map as the model's own.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "marrow/model/humanoid_map.hpp"
#include "marrow/model/model.hpp"

namespace {

// The offset after the tab: up to three numbers, missing ones 0.
glm::vec3 offset_of(std::string_view text) {
  glm::vec3 out(0.f);
  std::string copy(text.substr(0, 200));
  const char* p = copy.c_str();
  for (int i = 0; i < 3; ++i) {
    char* end = nullptr;
    const float v = std::strtof(p, &end);
    if (end == p) break;
    out[i] = v;
    p = end;
  }
  return out;
}

marrow::Model rig_of(std::string_view text, std::vector<glm::mat4>& rest) {
  marrow::Model model;
  model.nodes.push_back(marrow::ModelNode{"<root>", -1, glm::mat4(1.f), -1});
  std::vector<int> at_depth{0};  // the last node at each depth (depth 0: the root)
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    std::size_t depth = line.find_first_not_of(' ');
    if (depth == std::string_view::npos) continue;
    line.remove_prefix(depth);
    depth = std::min(depth + 1, at_depth.size());  // 1: under the root
    if (line.starts_with('>')) depth = at_depth.size();  // under the line before: deep chains in few bytes
    const std::size_t tab = line.find('\t');
    const std::string_view name = line.substr(0, tab);
    const glm::vec3 offset = tab == std::string_view::npos ? glm::vec3(0.f) : offset_of(line.substr(tab + 1));
    const int self = static_cast<int>(model.nodes.size());
    glm::mat4 local = glm::translate(glm::mat4(1.f), offset);
    if (self % 7 == 3) local = glm::mat4(offset.x);  // zero scale, huge or NaN
    model.nodes.push_back(marrow::ModelNode{std::string(name), at_depth[depth - 1], local, self - 1});
    at_depth.resize(depth);
    at_depth.push_back(self);
    rest.push_back(local * (self % 5 == 0 ? 2.f : 1.f));
  }
  return model;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<glm::mat4> rest{glm::mat4(1.f)};  // the root's
  marrow::Model model = rig_of(text, rest);
  // Mostly the nodes' own transforms; sometimes a rest pose of its own, or one of the wrong size.
  const std::size_t choice = size % 8;
  if (choice == 6) rest.pop_back();
  const std::span<const glm::mat4> rest_locals = choice >= 5 ? std::span<const glm::mat4>(rest) : std::span<const glm::mat4>();
  marrow::HumanoidMap map;
  try {
    map = marrow::auto_humanoid_map(model, rest_locals);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  marrow::validate(map, model);  // throws (a finding) when the mapper returned a broken map
  model.humanoid = map;
  if (marrow::humanoid_map(model).nodes != map.nodes) std::abort();
  return 0;
}
