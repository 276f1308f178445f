#include "marrow/model/compress_model_clips.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "marrow/core/diagnostic.hpp"
#include "marrow/runtime/offline/compressed_clip_data.hpp"

namespace marrow {

void compress_model_clips(Model& model, const ClipCompression& options) {
  if (const std::string why = compression_refusal(options); !why.empty()) {
    throw std::invalid_argument("compress_model_clips: " + why);
  }
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    Skin& skin = model.skins[s];
    const auto rest = compressed_rest_pose(skin.data.bind_pose);  // shared by the skin's clips
    for (auto& [name, clip] : skin.data.animation_clips) {
      if (skin.compressed_clips.count(name) != 0) continue;
      try {
        RuntimeClip compressed = compress_clip(clip, skin.data, options, nullptr, rest);
        AnimationClip played = decompress_clip(compressed);
        played.target_space = clip.target_space;
        clip = std::move(played);
        skin.compressed_clips.emplace(name, std::move(compressed));
      } catch (const std::invalid_argument& e) {
        add_diagnostic(model.diagnostics, DiagnosticCode::ClipNotCompressed, "skin " + std::to_string(s) + " clip '" + name + "': " + e.what());
      }
    }
  }
}

std::string uncompressed_clips(const Model& model) {
  for (const Diagnostic& d : model.diagnostics) {
    if (d.code != DiagnosticCode::ClipNotCompressed) continue;
    return "clip not compressed: " + d.message + (d.count > 1 ? " (and " + std::to_string(d.count - 1) + " more clips)" : "");
  }
  return {};
}

}  // namespace marrow
