// The BVH files of the malformed corpus: each wrong in one way (docs/formats.md, "BVH").
#include <string>

#include "malformed_corpus.hpp"
#include "marrow/io/bvh/bvh_importer.hpp"

namespace marrow::test {

namespace {

using C = ImportErrorCode;

std::vector<std::byte> bvh_text(const std::string& s) {
  std::vector<std::byte> out(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) out[i] = static_cast<std::byte>(s[i]);
  return out;
}

const std::string kBvhHierarchy = "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n}\n";

std::string with_motion(const std::string& motion) { return kBvhHierarchy + "MOTION\n" + motion; }

}  // namespace

void append_malformed_bvh(std::vector<MalformedFile>& out) {
  const auto add = [&](const char* name, const std::string& text, C code, const char* why) {
    out.push_back({name, bvh_text(text), code, why});
  };
  add("bvh_no_hierarchy.bvh", "ROOT Hips\n{\n  OFFSET 0 0 0\n}\nMOTION\nFrames: 0\nFrame Time: 0.1\n", C::InvalidDocument,
      "no HIERARCHY keyword");
  add("bvh_no_root.bvh", "HIERARCHY\nMOTION\nFrames: 0\nFrame Time: 0.1\n", C::InvalidDocument, "HIERARCHY without a ROOT");
  add("bvh_no_motion.bvh", kBvhHierarchy, C::InvalidDocument, "the file ends after the hierarchy");
  add("bvh_unknown_keyword.bvh", "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  SCALE 1 1 1\n}\n", C::InvalidDocument,
      "SCALE inside a joint");
  add("bvh_channel_count_7.bvh", "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 7 Xrotation\n}\n", C::InvalidDocument,
      "CHANNELS 7");
  add("bvh_channel_names_short.bvh",
      "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition\n}\n", C::InvalidDocument,
      "CHANNELS 6 followed by 3 channel names");
  add("bvh_unclosed_joint.bvh", "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  JOINT Spine\n  {\n    OFFSET 0 1 0\n", C::InvalidDocument,
      "the file ends inside a joint");
  add("bvh_frame_too_few_numbers.bvh", with_motion("Frames: 1\nFrame Time: 0.1\n1 2\n"), C::InvalidDocument,
      "a frame line of 2 numbers for 3 channels");
  add("bvh_frame_too_many_numbers.bvh", with_motion("Frames: 1\nFrame Time: 0.1\n1 2 3 4\n"), C::InvalidDocument,
      "a frame line of 4 numbers for 3 channels");
  add("bvh_frames_more_than_lines.bvh", with_motion("Frames: 5\nFrame Time: 0.1\n1 2 3\n"), C::InvalidDocument,
      "Frames: 5 with 1 frame line");
  add("bvh_frames_fewer_than_lines.bvh", with_motion("Frames: 1\nFrame Time: 0.1\n1 2 3\n4 5 6\n"), C::InvalidDocument,
      "Frames: 1 with 2 frame lines");
  add("bvh_nan_value.bvh", with_motion("Frames: 1\nFrame Time: 0.1\n1 nan 3\n"), C::InvalidAnimation, "a NaN rotation");
  add("bvh_value_beyond_float.bvh", with_motion("Frames: 1\nFrame Time: 0.1\n1 2 1e40\n"), C::InvalidAnimation,
      "a rotation beyond the float range");
  add("bvh_frame_time_zero.bvh", with_motion("Frames: 1\nFrame Time: 0\n1 2 3\n"), C::InvalidAnimation, "Frame Time 0");
  add("bvh_frame_time_negative.bvh", with_motion("Frames: 1\nFrame Time: -0.1\n1 2 3\n"), C::InvalidAnimation,
      "Frame Time -0.1");
  add("bvh_frame_time_below_a_tick.bvh", with_motion("Frames: 2\nFrame Time: 0.00000004\n1 2 3\n4 5 6\n"), C::InvalidAnimation,
      "Frame Time 4e-8 s: two frames on one tick");
  add("bvh_frame_time_inf.bvh", with_motion("Frames: 1\nFrame Time: inf\n1 2 3\n"), C::InvalidAnimation, "Frame Time inf");
  std::string deep = "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\n";
  for (int i = 0; i < kMaxBvhDepth; ++i) deep += "JOINT J" + std::to_string(i) + "\n{\nOFFSET 0 1 0\n";
  add("bvh_nested_too_deep.bvh", deep, C::LimitExceeded, "joints nested 257 levels deep");
}

}  // namespace marrow::test
