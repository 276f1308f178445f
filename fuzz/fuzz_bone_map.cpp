// The retarget bone map file (RT1) from bytes, then the map it names between two synthetic
// humanoids (names that match nothing, a node mapped twice, profile bones the source lacks, a
// map that pairs a child above its parent), and one retargeted clip through it.
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>

#include "demo/humanoid_rig.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/bone_map_file.hpp"
#include "marrow/model/retarget_clips.hpp"
#include "marrow/model/retarget_map.hpp"

namespace {

struct Rigs {
  marrow::Model source, target;
  Rigs() {
    source = marrow::demo::humanoid_rig({.spine_bones = 3, .seed = 2});
    marrow::demo::add_random_clip(source, "clip", 4, 0.6f, 0.3);
    target = marrow::demo::humanoid_rig({.spine_bones = 2, .height = 0.5f, .seed = 8});
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Rigs rigs;
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  marrow::BoneMapEntries entries;
  try {
    entries = marrow::parse_bone_map(bytes);
  } catch (const marrow::ImportError&) {
    return 0;
  }
  try {
    const marrow::RetargetMap map(rigs.source, rigs.target, {.bone_map = entries});
    const marrow::Model out = marrow::retarget_clips(rigs.source, rigs.target, map, {.feet_ik = true});
    (void)out;
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
