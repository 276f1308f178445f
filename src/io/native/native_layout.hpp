#pragma once
// The native format's shared description (docs/native-format.md): magic, header and section
// sizes, section tags, record sizes, and the model checks that writer and reader agree on, so a
// file the writer produces is always one the reader accepts.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

#include <glm/mat4x4.hpp>
#include <glm/gtc/type_precision.hpp>
#include <glm/vec3.hpp>

#include "marrow/core/vertex_access.hpp"
#include "marrow/io/native/native_format.hpp"
#include "marrow/model/model.hpp"

namespace marrow::native {

// Bulk arrays are copied between the file and memory with memcpy; marrow's vertex bytes (like
// glTF's) are little-endian already, so a big-endian host would need per-attribute swapping.
static_assert(std::endian::native == std::endian::little, "the native format reader and writer assume a little-endian host");
// The file stores a matrix as 16 f32 (column-major) and a vector as 3 f32; glm holds exactly that.
static_assert(sizeof(glm::mat4) == 64 && sizeof(glm::vec3) == 12 && sizeof(float) == 4 && sizeof(double) == 8);

inline constexpr std::uint32_t make_tag(const char (&s)[5]) noexcept {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(s[0])) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[1])) << 8 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[2])) << 16 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[3])) << 24;
}

inline constexpr char kMagic[4] = {'M', 'R', 'R', 'W'};
inline constexpr std::size_t kHeaderBytes = 24;         // magic, version, flags, section count, file length
inline constexpr std::size_t kSectionHeaderBytes = 16;  // tag, flags, payload length
inline constexpr std::uint32_t kSectionRequired = 1;    // readers that do not know the tag must refuse

// Section tags (versions 1 and 2), in the order the writer emits them (the reader accepts any order).
inline constexpr std::uint32_t kTagMaterials = make_tag("MATL");
inline constexpr std::uint32_t kTagSkinnedMaterials = make_tag("SMAT");
inline constexpr std::uint32_t kTagBones = make_tag("BONE");
inline constexpr std::uint32_t kTagSkins = make_tag("SKIN");
inline constexpr std::uint32_t kTagPrefixes = make_tag("PRFX");  // optional (G21)
inline constexpr std::uint32_t kTagMeshes = make_tag("MESH");
inline constexpr std::uint32_t kTagAnimations = make_tag("ANIM");
inline constexpr std::uint32_t kTagDiagnostics = make_tag("DIAG");
inline constexpr std::uint32_t kTagSource = make_tag("SRCE");
// Since version 2: skin clips stored compressed (offline/compressed_clip_data.hpp), after PRFX.
inline constexpr std::uint32_t kTagCompressedClips = make_tag("CCLP");
// Optional, not required (older readers skip it and make the boxes themselves): the frame bounds
// (S5, frame_bounds.hpp) the reader would otherwise make from every vertex, after MESH.
inline constexpr std::uint32_t kTagFrameBounds = make_tag("FBND");
// Optional, not required (older readers skip it: the model then has no file map, RT1): the
// file's humanoid map (Model::humanoid), after SRCE.
inline constexpr std::uint32_t kTagHumanoid = make_tag("HUMN");
// Optional, not required (older readers skip it: the model then has no database): motion
// matching's database over the model's animations (Model::motion_database), after HUMN.
inline constexpr std::uint32_t kTagMotionDatabase = make_tag("MMDB");

// Explicit record sizes (never sizeof of an in-memory struct).
inline constexpr std::size_t kMat4Bytes = 64;      // 16 f32, column-major
inline constexpr std::size_t kVec3Bytes = 12;      // 3 f32
inline constexpr std::size_t kKeyframeBytes = 48;  // i64 time, f32 T xyz, R xyzw, S xyz
inline constexpr std::size_t kLayoutBytes = 40;    // u32 stride, 8 x i32 offsets, u32 influences
inline constexpr std::size_t kLayoutBytesV1 = 36;  // version 1: no influences (four)
// Smallest possible encodings of the variable-size records, so that a count can be refused when
// even that many minimal records would not fit in what remains of a section.
inline constexpr std::size_t kStringMinBytes = 4;
inline constexpr std::size_t kMaterialMinBytes = kStringMinBytes + 16 + 1 + 4;
inline constexpr std::size_t kBoneMinBytes = kStringMinBytes + 4 + kMat4Bytes + 4;
inline constexpr std::size_t kSkinMinBytes = kStringMinBytes + 8 + 4 + kStringMinBytes + 8 + 4 * 8 + 4;
inline constexpr std::size_t kClipMinBytes = 2 * kStringMinBytes + 8 + 1 + 8;  // map key + clip
inline constexpr std::size_t kTrackMinBytes = 4 + 8;
inline constexpr std::size_t kMeshMinBytes = kStringMinBytes + 4 + 4 + 16 + 8 + 4 + 8;
inline constexpr std::size_t kPartMinBytes = 4 + 4 + 1 + 1 + 8 + 4 + 4 + kLayoutBytes + 3 * 8 + 1 + 1 + 8;  // + flat, map
inline constexpr std::size_t kPartMinBytesV2 = 4 + 4 + 1 + 1 + 8 + 4 + 4 + kLayoutBytes + 3 * 8 + 1;  // + skinning
inline constexpr std::size_t kPartMinBytesV1 = 4 + 4 + 1 + 1 + 8 + 4 + 4 + kLayoutBytesV1 + 3 * 8;
inline constexpr std::size_t kWeightTrackMinBytes = 1 + 8 + 8 + 3 * 8;
inline constexpr std::size_t kAnimationMinBytes = kStringMinBytes + 8 + (kClipMinBytes - kStringMinBytes) + 8;
inline constexpr std::size_t kChannelMinBytes = 4 + kWeightTrackMinBytes;
inline constexpr std::size_t kDiagnosticMinBytes = 2 * kStringMinBytes + 4;
// A compressed clip: key, name, duration, time count, joint count; a channel: bits, uniform,
// min and step, key count, packed byte count; a joint: its animated flag and three channels.
inline constexpr std::size_t kCompressedClipMinBytes = 2 * kStringMinBytes + 8 + 8 + 8;
inline constexpr std::size_t kCompressedChannelMinBytes = 3 + 1 + 24 + 8 + 8;
// A frame-bounds skin: joint count, box count; a box: its joint, centre and half extent; a mesh
// box: the empty flag, min and max.
inline constexpr std::size_t kJointBoxBytes = 4 + 2 * kVec3Bytes;
inline constexpr std::size_t kMeshBoxBytes = 1 + 2 * kVec3Bytes;
// A motion database range: name, animation, first row, rows, frames; a row: its 27 features.
inline constexpr std::size_t kMotionRangeMinBytes = kStringMinBytes + 4 + 3 * 8;
inline constexpr std::size_t kMotionRowBytes = 27 * 4;
inline constexpr std::size_t kCompressedJointMinBytes = 1 + 3 * kCompressedChannelMinBytes;

// "MESH" for messages; unprintable bytes become '?'.
inline std::string tag_name(std::uint32_t tag) {
  std::string s(4, '?');
  for (int i = 0; i < 4; ++i) {
    const auto c = static_cast<char>((tag >> (8 * i)) & 0xFFu);
    if (c >= 0x20 && c < 0x7F) s[static_cast<std::size_t>(i)] = c;
  }
  return s;
}

// Empty when no two consecutive keys of the clip are further apart than an int64 tick count
// can express: the sampler subtracts them (hostile files could otherwise pair -2^63 with 2^62).
inline std::string key_gap_problem(const AnimationClip& clip) {
  for (std::size_t t = 0; t < clip.tracks.size(); ++t) {
    const std::vector<Keyframe>& keys = clip.tracks[t].keys;
    for (std::size_t k = 1; k < keys.size(); ++k) {
      const std::int64_t a = keys[k - 1].time.count();
      const std::int64_t b = keys[k].time.count();
      if (a < 0 && b > std::numeric_limits<std::int64_t>::max() + a) {
        return "clip '" + clip.name + "' track " + std::to_string(t) + " key " + std::to_string(k) + ": time " +
               std::to_string(b) + " ticks is too far from the previous key's " + std::to_string(a);
      }
    }
  }
  return {};
}

// Empty when the model fits the format, else a sentence naming the object. These are the
// checks beyond validate(Model) that the reader also applies: G21's bone range, the index maps,
// clip spaces the Animator requires, key times the sampler can subtract, consistent
// skin-to-mesh lists, prefix sizes, morph base joints and the default morph weight tracks.
inline std::string model_problem(const Model& model) {
  const auto str = [](auto v) { return std::to_string(v); };
  const std::size_t bones = model.nodes.size();
  if (bones > kNativeMaxBones) return "the model has " + str(bones) + " bones, more than " + str(kNativeMaxBones);
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    const Skin& skin = model.skins[s];
    const std::string where = "skin " + str(s);
    const int n = skin.data.bone_count;
    if (n < 0 || static_cast<std::uint32_t>(n) > kNativeMaxBones) {
      return where + ": bone_count " + str(n) + " is outside 0.." + str(kNativeMaxBones);
    }
    if (!skin.data.skeleton_root_prefix.empty() && skin.data.skeleton_root_prefix.size() != static_cast<std::size_t>(n)) {
      return where + ": skeleton_root_prefix has " + str(skin.data.skeleton_root_prefix.size()) +
             " entries, neither 0 nor bone_count " + str(n);
    }
    for (int m : skin.meshes) {
      if (m < 0 || static_cast<std::size_t>(m) >= model.meshes.size() ||
          model.meshes[static_cast<std::size_t>(m)].skin != static_cast<int>(s)) {
        return where + ": lists mesh " + str(m) + ", which is not a mesh drawn by this skin";
      }
    }
    for (std::size_t i = 0; i < skin.scene_to_palette.size(); ++i) {
      if (skin.scene_to_palette[i] < -1 || skin.scene_to_palette[i] >= n) {
        return where + ": scene_to_palette[" + str(i) + "] = " + str(skin.scene_to_palette[i]) + " names no joint";
      }
    }
    for (std::size_t i = 0; i < skin.palette_to_scene.size(); ++i) {
      if (skin.palette_to_scene[i] < -1 || skin.palette_to_scene[i] >= static_cast<int>(bones)) {
        return where + ": palette_to_scene[" + str(i) + "] = " + str(skin.palette_to_scene[i]) + " names no bone";
      }
    }
    for (const auto& [name, clip] : skin.data.animation_clips) {
      if (clip.target_space != ClipTargetSpace::JointPalette) {
        return where + ": clip '" + name + "' is not a JointPalette clip";
      }
      if (std::string problem = key_gap_problem(clip); !problem.empty()) return where + ": " + problem;
    }
    for (const auto& [name, clip] : skin.compressed_clips) {
      if (name.size() > kNativeMaxStringBytes || clip.name().size() > kNativeMaxStringBytes) {
        return where + ": compressed clip '" + name.substr(0, 64) + "': a name longer than " + str(kNativeMaxStringBytes) + " bytes";
      }
    }
  }
  for (std::size_t a = 0; a < model.animations.size(); ++a) {
    if (model.animations[a].scene_clip.target_space != ClipTargetSpace::SceneNode) {
      return "animation " + str(a) + ": scene_clip is not a SceneNode clip";
    }
    if (std::string problem = key_gap_problem(model.animations[a].scene_clip); !problem.empty()) {
      return "animation " + str(a) + ": " + problem;
    }
  }
  for (std::size_t i = 0; i < model.source.node_to_bone.size(); ++i) {
    const int b = model.source.node_to_bone[i];
    if (b < -1 || b >= static_cast<int>(bones)) return "source node_to_bone[" + str(i) + "] = " + str(b) + " names no bone";
  }
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    for (std::size_t p = 0; p < model.meshes[m].parts.size(); ++p) {
      const ModelMeshPart& part = model.meshes[m].parts[p];
      const std::string where = "mesh " + str(m) + " part " + str(p);
      if (part.skinned_material && static_cast<std::uint32_t>(part.skinned_material->max_bones()) > kNativeMaxBones) {
        return where + ": skinned material max_bones " + str(part.skinned_material->max_bones()) + " exceeds " +
               str(kNativeMaxBones);
      }
      if (!part.morph) continue;
      // The Animator skins the blended bytes, whose joints come from the morph base bytes, which
      // validate(Model) does not check against the palette.
      if (model.meshes[m].skin >= 0 && part.morph->layout.has(VertexAttribute::Joints0)) {
        const int palette = model.skins[static_cast<std::size_t>(model.meshes[m].skin)].data.bone_count;
        const VertexLayout& layout = part.morph->layout;
        const auto joints = attribute_view<std::uint16_t>(part.morph->base_vertex_bytes, layout, VertexAttribute::Joints0);
        for (std::size_t v = 0; v < joints.size(); ++v) {
          for (std::size_t i = 0; i < layout.influences; ++i) {  // every influence of the row (S1)
            std::uint16_t j;
            std::memcpy(&j, joints.data() + v * joints.stride() + 2 * i, sizeof j);
            if (j >= palette) {
              return where + ": morph base vertex " + str(v) + " joint " + str(j) +
                     " is not below the skin's bone_count " + str(palette);
            }
          }
        }
      }
      if (!part.morph->weight_track) continue;
      const MorphWeightTrack& track = *part.morph->weight_track;
      if (track.weight_count != part.morph->target_count()) {
        return where + ": morph weight_track has " + str(track.weight_count) + " weights per key, the part has " +
               str(part.morph->target_count()) + " targets";
      }
      try {
        validate(track);
      } catch (const std::invalid_argument& e) {
        return where + ": morph weight_track: " + e.what();
      }
    }
  }
  return {};
}

}  // namespace marrow::native
