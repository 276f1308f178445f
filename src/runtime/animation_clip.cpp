#include "marrow/runtime/animation_clip.hpp"

#include <stdexcept>
#include <string>

#include "marrow/core/finite.hpp"

namespace marrow {

namespace {

std::string where(const AnimationClip& clip, std::size_t track, std::size_t key) {
  return "clip '" + clip.name + "' track " + std::to_string(track) + " key " + std::to_string(key);
}

}  // namespace

void validate_clip(const AnimationClip& clip) {
  if (clip.duration < Ticks{0}) {
    throw std::invalid_argument("clip '" + clip.name + "': duration " + std::to_string(clip.duration.count()) +
                                " ticks is negative");
  }
  for (std::size_t t = 0; t < clip.tracks.size(); ++t) {
    const std::vector<Keyframe>& keys = clip.tracks[t].keys;
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const Keyframe& key = keys[k];
      if (!is_finite(key.translation)) throw std::invalid_argument(where(clip, t, k) + ": translation is not finite");
      if (!is_finite(key.rotation)) throw std::invalid_argument(where(clip, t, k) + ": rotation is not finite");
      if (!is_finite(key.scale)) throw std::invalid_argument(where(clip, t, k) + ": scale is not finite");
      if (k > 0 && key.time < keys[k - 1].time) {
        throw std::invalid_argument(where(clip, t, k) + ": time " + std::to_string(key.time.count()) +
                                    " ticks is before the previous key's " +
                                    std::to_string(keys[k - 1].time.count()));
      }
    }
  }
}

}  // namespace marrow
