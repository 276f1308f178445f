#pragma once
// `marrow match demo --gif`: the character of a run drawn as its skeleton (as `marrow render
// --skeleton` draws one) following the path, seen from above at an angle by a camera that
// frames the whole run, over a one-metre ground grid, with the simulated (desired) path and the
// character's own trail. Frames are kept while the run plays and drawn at the end.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "marrow/model/motion_matcher.hpp"

namespace marrow::cli {

class MatchPicture {
 public:
  // Keeps every `step`-th frame (step >= 1) for a GIF of width x height pixels.
  MatchPicture(const MotionClips& clips, int width, int height, std::size_t step);

  // After every frame of the run (MatchFrameVisitor).
  void record(std::size_t frame, const MotionMatcher& matcher);
  // Draws the kept frames and writes the GIF at `fps`; `title` heads every frame's caption.
  // Returns the frame count.
  std::size_t write(const std::filesystem::path& path, double fps, const std::string& title) const;

 private:
  struct Kept {
    std::size_t frame = 0;
    std::vector<glm::mat4> worlds;  // every node, world space
    std::string clip;
  };
  const MotionClips& clips_;
  int width_, height_;
  std::size_t step_;
  std::vector<glm::vec3> simulated_, character_;  // every frame
  std::vector<Kept> kept_;
};

}  // namespace marrow::cli
