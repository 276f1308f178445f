#pragma once
// Private: a BVH file as read (bvh_parser.cpp), before it becomes a Model (bvh_importer.cpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

#include "marrow/io/import_options.hpp"

namespace marrow::bvh {

enum class Channel : std::uint8_t { Xposition, Yposition, Zposition, Xrotation, Yrotation, Zrotation };

std::string_view channel_name(Channel c) noexcept;

struct Joint {
  std::string name;               // End Sites: "<parent>_end"
  int parent = -1;                // index into Document::joints, always below this joint's own
  glm::vec3 offset{0.f};          // OFFSET, in the file's units
  std::vector<Channel> channels;  // in file order; End Sites have none
  std::size_t first_column = 0;   // where channels[0]'s value sits in a frame line
  bool end_site = false;
  int line = 0;                   // of its ROOT, JOINT or End Site keyword
};

struct Document {
  std::vector<Joint> joints;    // file order: parents before children (depth-first)
  std::size_t columns = 0;      // numbers per frame line: every joint's channels
  std::size_t frame_count = 0;
  double frame_time = 0.0;      // seconds, finite and > 0
  std::vector<float> values;    // frame_count * columns, frame by frame, in file units and degrees
};

// Reads the whole text; throws ImportError naming the line and what is wrong. Charges the
// frame values to the budget before allocating them.
Document parse_bvh(std::string_view text, ImportBudget& budget);

}  // namespace marrow::bvh
