// Model -> native bytes (docs/native-format.md). The layout is written field by field with
// explicit sizes; only arrays whose file encoding equals their memory image (bytes, u32/i32,
// f32, vec3, mat4) are copied in one memcpy.
#include <algorithm>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "marrow/core/import_error.hpp"
#include "marrow/io/native/native_format.hpp"
#include "marrow/model/frame_bounds.hpp"
#include "marrow/model/live_retarget.hpp"
#include "marrow/model/motion_database.hpp"
#include "marrow/runtime/offline/compressed_clip_data.hpp"
#include "native_layout.hpp"

namespace marrow {

namespace {

using namespace native;

class ByteWriter {
 public:
  explicit ByteWriter(std::size_t capacity) { out_.reserve(capacity); }

  template <class T>
  void scalar(T v) {
    static_assert(std::is_arithmetic_v<T>);
    append(&v, sizeof(T));
  }
  void u8(std::uint8_t v) { scalar(v); }
  void u32(std::uint32_t v) { scalar(v); }
  void i32(int v) { scalar(static_cast<std::int32_t>(v)); }
  void u64(std::uint64_t v) { scalar(v); }
  void i64(std::int64_t v) { scalar(v); }
  void f32(float v) { scalar(v); }

  void string(std::string_view s, const char* what) {
    if (s.size() > kNativeMaxStringBytes) {
      throw std::invalid_argument("write_native: " + std::string(what) + " has " + std::to_string(s.size()) +
                                  " bytes, more than " + std::to_string(kNativeMaxStringBytes));
    }
    u32(static_cast<std::uint32_t>(s.size()));
    append(s.data(), s.size());
  }

  void mat4(const glm::mat4& m) { append(&m, kMat4Bytes); }

  // A u64 count followed by the elements' memory image (types whose image is their encoding).
  template <class T>
  void array(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    u64(v.size());
    append(v.data(), v.size() * sizeof(T));
  }
  void ints(const std::vector<int>& v) {
    static_assert(sizeof(int) == 4);
    array(v);
  }

  void layout(const VertexLayout& layout) {
    u32(layout.stride);
    for (std::int32_t offset : layout.offsets) i32(offset);
    u32(layout.influences);  // version 2
  }

  void keys(const std::vector<Keyframe>& keys) {
    u64(keys.size());
    const std::size_t at = grow(keys.size() * kKeyframeBytes);
    std::byte* p = out_.data() + at;
    for (const Keyframe& k : keys) {
      const std::int64_t t = k.time.count();
      const float f[10] = {k.translation.x, k.translation.y, k.translation.z, k.rotation.x, k.rotation.y,
                           k.rotation.z,    k.rotation.w,    k.scale.x,       k.scale.y,    k.scale.z};
      std::memcpy(p, &t, 8);
      std::memcpy(p + 8, f, 40);
      p += kKeyframeBytes;
    }
  }

  // Sections: the header is written with a zero length, patched by end_section. A section that
  // is not required may be skipped by readers that do not know it.
  void begin_section(std::uint32_t tag, bool required = true) {
    section_start_ = out_.size();
    u32(tag);
    u32(required ? kSectionRequired : 0);
    u64(0);
    ++sections_;
  }
  void end_section() {
    const std::uint64_t length = out_.size() - section_start_ - kSectionHeaderBytes;
    std::memcpy(out_.data() + section_start_ + 8, &length, 8);
  }

  void append(const void* data, std::size_t n) {
    if (n == 0) return;
    const std::size_t at = grow(n);
    std::memcpy(out_.data() + at, data, n);
  }

  std::uint32_t sections() const { return sections_; }
  std::vector<std::byte>& bytes() { return out_; }

 private:
  std::size_t grow(std::size_t n) {
    const std::size_t at = out_.size();
    out_.resize(at + n);
    return at;
  }

  std::vector<std::byte> out_;
  std::size_t section_start_ = 0;
  std::uint32_t sections_ = 0;
};

// Distinct pointers in order of first use, so sharing is restored by index.
template <class T>
class PointerTable {
 public:
  int index_of(const std::shared_ptr<T>& p) {
    if (!p) return -1;
    const auto [it, added] = index_.try_emplace(p.get(), static_cast<int>(items_.size()));
    if (added) items_.push_back(p.get());
    return it->second;
  }
  const std::vector<const T*>& items() const { return items_; }

 private:
  std::unordered_map<const T*, int> index_;
  std::vector<const T*> items_;
};

// A rough size so the output vector rarely reallocates.
std::size_t estimate_bytes(const Model& model) {
  std::size_t n = 4096 + model.nodes.size() * 128;
  for (const ModelMesh& mesh : model.meshes) {
    for (const ModelMeshPart& part : mesh.parts) {
      n += 256 + part.vertex_bytes.size() + 4 * (part.indices.size() + part.source_vertices.size() + part.palette_joints.size());
      if (part.morph) {
        n += part.morph->base_vertex_bytes.size() + 4 * part.morph->triangle_indices.size();
        for (const auto* d : {&part.morph->position_deltas, &part.morph->normal_deltas, &part.morph->tangent_deltas}) {
          for (const auto& t : *d) n += 8 + t.size() * kVec3Bytes;
        }
      }
    }
  }
  for (const Skin& skin : model.skins) {
    n += 256 + static_cast<std::size_t>(skin.data.bone_count) * (4 + 3 * kMat4Bytes + kJointBoxBytes);
    for (const auto& [name, clip] : skin.data.animation_clips) {
      for (const BoneTrack& t : clip.tracks) n += 16 + t.keys.size() * kKeyframeBytes;
    }
  }
  for (const ModelAnimation& a : model.animations) {
    for (const BoneTrack& t : a.scene_clip.tracks) n += 16 + t.keys.size() * kKeyframeBytes;
  }
  for (const Skin& skin : model.skins) {
    for (const auto& [key, clip] : skin.compressed_clips) n += clip.size_in_bytes();
  }
  return n;
}

void write_clip(ByteWriter& w, const AnimationClip& clip) {
  w.string(clip.name, "a clip name");
  w.i64(clip.duration.count());
  w.u8(static_cast<std::uint8_t>(clip.target_space));
  w.u64(clip.tracks.size());
  for (const BoneTrack& track : clip.tracks) {
    w.i32(track.bone_index);
    w.keys(track.keys);
  }
}

// A compressed clip's content (offline/compressed_clip_data.hpp) under the key of the clip it
// plays.
void write_compressed_clip(ByteWriter& w, const std::string& key, const RuntimeClip& clip) {
  const CompressedClipData data = compressed_clip_data(clip);
  w.string(key, "a clip key");
  w.string(clip.name(), "a clip name");
  w.i64(clip.duration().count());
  w.u64(data.times.size());
  for (Ticks t : data.times) w.i64(t.count());
  w.array(data.animated);  // the joint count, then a u8 per joint
  for (const CompressedChannel& ch : data.channels) {
    for (std::uint8_t b : ch.bits) w.u8(b);
    w.u8(!ch.segments.empty() ? 2 : ch.uniform ? 1 : 0);  // the form: keyed, keyed uniform, segmented
    for (float v : ch.min) w.f32(v);
    for (float v : ch.step) w.f32(v);
    if (!ch.segments.empty()) {
      for (float v : ch.extent) w.f32(v);
      w.u64(ch.segments.size());
      for (const CompressedSegment& seg : ch.segments) {
        for (std::uint8_t v : seg.low) w.u8(v);
        for (std::uint8_t v : seg.extent) w.u8(v);
        for (std::uint8_t v : seg.bits) w.u8(v);
        w.u8(seg.stride);
        w.u8(seg.dropped);
      }
    }
    w.array(ch.key_times);
    w.array(ch.packed);
  }
}

void write_weight_track(ByteWriter& w, const MorphWeightTrack& track) {
  w.u8(static_cast<std::uint8_t>(track.interpolation));
  w.u64(track.weight_count);
  w.array(track.times);  // the key count, then f64 times
  w.array(track.values);
  w.array(track.in_tangents);
  w.array(track.out_tangents);
}

void write_deltas(ByteWriter& w, const std::vector<std::vector<glm::vec3>>& deltas) {
  w.u64(deltas.size());
  for (const std::vector<glm::vec3>& d : deltas) w.array(d);
}

void write_morph(ByteWriter& w, const MorphTargetData& morph) {
  w.layout(morph.layout);
  w.u64(morph.vertex_count());
  w.append(morph.base_vertex_bytes.data(), morph.base_vertex_bytes.size());
  write_deltas(w, morph.position_deltas);
  write_deltas(w, morph.normal_deltas);
  write_deltas(w, morph.tangent_deltas);
  w.array(morph.weights);
  w.u8(morph.recompute_flat_normals ? 1 : 0);
  w.array(morph.triangle_indices);
  w.u8(morph.weight_track ? 1 : 0);
  if (morph.weight_track) write_weight_track(w, *morph.weight_track);
}

void write_part(ByteWriter& w, const ModelMeshPart& part, PointerTable<Material>& materials,
                PointerTable<SkinnedMaterial>& skinned) {
  w.i32(materials.index_of(part.material));
  w.i32(skinned.index_of(part.skinned_material));
  w.u8(static_cast<std::uint8_t>(part.mode));
  w.u8(part.morph ? 1 : 0);
  w.u64(part.revision);
  w.i32(part.source_primitive);
  w.u32(part.source_vertex_count);
  w.layout(part.layout);
  w.u64(part.vertex_count());
  w.append(part.vertex_bytes.data(), part.vertex_bytes.size());
  w.array(part.indices);
  w.array(part.source_vertices);
  w.u8(static_cast<std::uint8_t>(part.skinning));  // version 2
  w.u8(part.flat_normals ? 1 : 0);                  // version 3
  w.array(part.palette_joints);                     // version 3 (S4)
  if (part.morph) write_morph(w, *part.morph);
}

// FBND: the frame bounds the model holds (made here when it has none or stale-sized ones), so a
// reader need not walk every vertex to make them again.
void write_frame_bounds(ByteWriter& w, const Model& model) {
  std::optional<FrameBounds> made;
  if (!frame_bounds_ready(model)) made = make_frame_bounds(model);
  w.begin_section(kTagFrameBounds, false);
  w.u64(model.skins.size());
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    const JointBounds& b = made ? made->skins[s] : model.skins[s].joint_bounds;
    w.u64(b.joint_count);
    w.u64(b.joints.size());
    w.append(b.joints.data(), b.joints.size() * 4);
    w.append(b.centers.data(), b.centers.size() * kVec3Bytes);
    w.append(b.extents.data(), b.extents.size() * kVec3Bytes);
  }
  w.u64(model.meshes.size());
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const BoundingBox& box = made ? made->meshes[m] : model.meshes[m].local_bounds;
    w.u8(box.empty ? 1 : 0);
    w.append(&box.min, kVec3Bytes);
    w.append(&box.max, kVec3Bytes);
  }
  w.end_section();
}

// What the reader would refuse is refused before a byte is written.
void check_writable(const Model& model) {
  validate(model);
  require_no_live_animations(model, "write_native");
  if (const std::string problem = model_problem(model); !problem.empty()) {
    throw std::invalid_argument("write_native: " + problem);
  }
  if (model.humanoid) {
    try {
      validate(*model.humanoid, model);  // what the reader checks
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("write_native: ") + e.what());
    }
  }
  if (model.motion_database) {
    try {
      validate(*model.motion_database, model);  // what the reader checks (the rest its constructor did)
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("write_native: ") + e.what());
    }
  }
}

void write_header(ByteWriter& w) {
  w.append(kMagic, 4);
  w.u32(kNativeVersion);
  w.u32(0);  // flags: none defined (versions 1 to 3)
  w.u32(0);  // section count, patched by patch_header
  w.u64(0);  // file length, patched by patch_header
}

void patch_header(std::vector<std::byte>& out, std::uint32_t sections) {
  const std::uint64_t length = out.size();
  std::memcpy(out.data() + 12, &sections, 4);
  std::memcpy(out.data() + 16, &length, 8);
}

void write_materials(ByteWriter& w, const PointerTable<Material>& materials, const PointerTable<SkinnedMaterial>& skinned) {
  w.begin_section(kTagMaterials);
  w.u64(materials.items().size());
  for (const Material* m : materials.items()) {
    w.string(m->name, "a material name");
    for (int c = 0; c < 4; ++c) w.f32(m->base_color[c]);
    w.u8(m->double_sided ? 1 : 0);
    w.i32(m->source_material);
  }
  w.end_section();

  w.begin_section(kTagSkinnedMaterials);
  w.u64(skinned.items().size());
  for (const SkinnedMaterial* m : skinned.items()) w.u32(static_cast<std::uint32_t>(m->max_bones()));
  w.end_section();
}

void write_bones(ByteWriter& w, const Model& model) {
  w.begin_section(kTagBones);
  w.u64(model.nodes.size());
  for (const ModelNode& bone : model.nodes) {
    w.string(bone.name, "a bone name");
    w.i32(bone.parent);
    w.mat4(bone.transform);
    w.i32(bone.source_node);
  }
  w.end_section();
}

void write_skins(ByteWriter& w, const Model& model) {
  w.begin_section(kTagSkins);
  w.u64(model.skins.size());
  for (const Skin& skin : model.skins) {
    const SkinningData& d = skin.data;
    w.string(skin.name, "a skin name");
    w.u64(static_cast<std::uint64_t>(d.bone_count));
    w.append(d.skeleton_hierarchy.data(), d.skeleton_hierarchy.size() * 4);
    w.append(d.bind_pose.data(), d.bind_pose.size() * kMat4Bytes);
    w.append(d.inverse_bind_pose.data(), d.inverse_bind_pose.size() * kMat4Bytes);
    w.i32(d.skeleton_root_node_index);
    w.string(d.skeleton_root_name, "a skeleton root name");
    // Clips stored compressed (CCLP) are left out here: the reader rebuilds them from CCLP.
    w.u64(d.animation_clips.size() - skin.compressed_clips.size());
    for (const auto& [key, clip] : d.animation_clips) {
      if (skin.compressed_clips.count(key) != 0) continue;
      w.string(key, "a clip key");
      write_clip(w, clip);
    }
    w.ints(skin.meshes);
    w.ints(skin.scene_to_palette);
    w.ints(skin.palette_to_scene);
    w.ints(skin.source_joints);
    w.i32(skin.source_skin);
  }
  w.end_section();
}

void write_prefixes(ByteWriter& w, const Model& model) {
  w.begin_section(kTagPrefixes);
  w.u64(model.skins.size());
  for (const Skin& skin : model.skins) {
    w.u64(skin.data.skeleton_root_prefix.size());
    w.append(skin.data.skeleton_root_prefix.data(), skin.data.skeleton_root_prefix.size() * kMat4Bytes);
  }
  w.end_section();
}

void write_compressed_clips(ByteWriter& w, const Model& model) {
  w.begin_section(kTagCompressedClips);
  w.u64(model.skins.size());
  for (const Skin& skin : model.skins) {
    w.u64(skin.compressed_clips.size());
    for (const auto& [key, clip] : skin.compressed_clips) write_compressed_clip(w, key, clip);
  }
  w.end_section();
}

void write_meshes(ByteWriter& w, const Model& model, PointerTable<Material>& materials,
                  PointerTable<SkinnedMaterial>& skinned) {
  w.begin_section(kTagMeshes);
  w.u64(model.meshes.size());
  for (const ModelMesh& mesh : model.meshes) {
    w.string(mesh.name, "a mesh name");
    w.i32(mesh.node);
    w.i32(mesh.skin);
    w.f32(mesh.bounding_sphere.center.x);
    w.f32(mesh.bounding_sphere.center.y);
    w.f32(mesh.bounding_sphere.center.z);
    w.f32(mesh.bounding_sphere.radius);
    w.array(mesh.morph_weights);
    w.i32(mesh.source_mesh);
    w.u64(mesh.parts.size());
    for (const ModelMeshPart& part : mesh.parts) write_part(w, part, materials, skinned);
  }
  w.end_section();
}

void write_animations(ByteWriter& w, const Model& model) {
  w.begin_section(kTagAnimations);
  w.u64(model.animations.size());
  for (const ModelAnimation& anim : model.animations) {
    w.string(anim.name, "an animation name");
    w.i64(anim.duration.count());
    write_clip(w, anim.scene_clip);
    w.u64(anim.morph_channels.size());
    for (const MorphWeightChannel& channel : anim.morph_channels) {
      w.i32(channel.mesh);
      write_weight_track(w, channel.track);
    }
  }
  w.end_section();
}

void write_diagnostics_and_source(ByteWriter& w, const Model& model) {
  w.begin_section(kTagDiagnostics);
  w.u64(model.diagnostics.size());
  for (const Diagnostic& d : model.diagnostics) {
    w.string(to_string(d.code), "a diagnostic code");
    w.i32(d.count);
    w.string(d.message, "a diagnostic message");
  }
  w.end_section();

  w.begin_section(kTagSource);
  w.i32(model.source.scene);
  w.ints(model.source.node_to_bone);
  w.end_section();
}

// HUMN: not required, a reader that predates it loads the model without it.
void write_humanoid(ByteWriter& w, const HumanoidMap& humanoid) {
  w.begin_section(kTagHumanoid, false);
  w.u64(kHumanoidBoneCount);
  for (int node : humanoid.nodes) w.i32(node);
  w.u64(humanoid.notes.size());
  for (const std::string& note : humanoid.notes) w.string(note, "a humanoid map note");
  w.end_section();
}

// MMDB: not required, a reader that predates it loads the model without its database.
void write_motion_database(ByteWriter& w, const MotionDatabase& database) {
  const MotionDatabaseData d = database.data();
  w.begin_section(kTagMotionDatabase, false);
  w.scalar(d.rate);
  w.u64(kMotionFeatures);
  w.append(d.mean.data(), kMotionFeatures * 4);
  w.append(d.scale.data(), kMotionFeatures * 4);
  w.u64(d.ranges.size());
  for (const MotionRange& r : d.ranges) {
    w.string(r.name, "a motion database range name");
    w.i32(r.animation);
    w.u64(r.first_row);
    w.u64(r.rows);
    w.u64(r.frames);
  }
  w.u64(database.size());
  w.append(d.rows.data(), d.rows.size() * 4);
  // MM5: the mirrored flags only when a range is mirrored (files without are unchanged).
  if (std::any_of(d.ranges.begin(), d.ranges.end(), [](const MotionRange& r) { return r.mirrored; }))
    for (const MotionRange& r : d.ranges) w.u8(r.mirrored ? 1 : 0);
  w.end_section();
}

}  // namespace

std::vector<std::byte> write_native(const Model& model, const NativeWriteOptions& options) {
  check_writable(model);
  ByteWriter w(estimate_bytes(model));
  write_header(w);
  // The material tables come first in the file, so a reader resolves a part's material index
  // while reading the part: collect the distinct pointers in order of first use.
  PointerTable<Material> materials;
  PointerTable<SkinnedMaterial> skinned;
  for (const ModelMesh& mesh : model.meshes) {
    for (const ModelMeshPart& part : mesh.parts) {
      materials.index_of(part.material);
      skinned.index_of(part.skinned_material);
    }
  }
  write_materials(w, materials, skinned);
  write_bones(w, model);
  write_skins(w, model);
  if (options.write_root_prefix) write_prefixes(w, model);
  write_compressed_clips(w, model);
  write_meshes(w, model, materials, skinned);
  write_frame_bounds(w, model);
  write_animations(w, model);
  write_diagnostics_and_source(w, model);
  if (model.humanoid) write_humanoid(w, *model.humanoid);
  if (model.motion_database) write_motion_database(w, *model.motion_database);
  patch_header(w.bytes(), w.sections());
  return std::move(w.bytes());
}

void write_native_file(const Model& model, const std::filesystem::path& path, const NativeWriteOptions& options) {
  const std::vector<std::byte> bytes = write_native(model, options);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw ImportError(ImportErrorCode::IoError, path.string() + ": cannot be opened for writing");
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw ImportError(ImportErrorCode::IoError, path.string() + ": write failed");
}

}  // namespace marrow
