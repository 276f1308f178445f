// Native bytes -> Model (docs/native-format.md). Every file is hostile: each read is bounds
// checked, each count is checked against its limit and against the bytes left in its section
// before anything is allocated, each index before it is stored; validate(Model) has the last word.
#include <array>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "marrow/core/import_error.hpp"
#include "marrow/io/file_bytes.hpp"
#include "marrow/io/finish_import.hpp"
#include "marrow/io/native/native_format.hpp"
#include "native_compressed_clip_reader.hpp"
#include "native_frame_bounds_reader.hpp"
#include "native_layout.hpp"
#include "native_motion_database_reader.hpp"
#include "native_section_reader.hpp"

namespace marrow {

namespace {

using namespace native;

// An index range whose upper end is not known yet (skin.meshes, checked after MESH) or not
// checkable (source_joints: ordinals in the source file).
constexpr std::size_t kUnknownCount = std::numeric_limits<std::size_t>::max();


void check_index(SectionReader& r, const char* field, int value, int lowest, std::size_t size, const char* objects) {
  if (value < lowest || (value >= 0 && static_cast<std::size_t>(value) >= size)) {
    std::string what = std::string(field) + " " + std::to_string(value) + " names no " + objects;
    if (size != kUnknownCount) what += " (there are " + std::to_string(size) + ")";
    r.fail(ImportErrorCode::IndexOutOfRange, what);
  }
}

glm::mat4 read_mat4(SectionReader& r, const char* field) {
  glm::mat4 m;
  std::memcpy(&m, r.take(kMat4Bytes, field), kMat4Bytes);
  return m;
}

void read_matrices(SectionReader& r, std::vector<glm::mat4>& out, std::size_t n, const char* field) {
  r.fits(field, n, kMat4Bytes);
  r.copy_into(out, n, field);
}

VertexLayout read_layout(SectionReader& r) {
  VertexLayout layout;
  layout.stride = r.u32("stride");
  for (std::int32_t& offset : layout.offsets) offset = r.i32("attribute offset");
  // Version 1 layouts hold four influences; validate(Model) checks the range (1..kMaxInfluences).
  if (r.version() >= 2) layout.influences = r.u32("influences");
  return layout;
}

// A u64 vertex count, then count * stride bytes.
void read_vertices(SectionReader& r, const VertexLayout& layout, std::vector<std::byte>& out, const char* field) {
  const std::uint64_t n = r.u64(field);
  r.limit(field, n, r.limits().max_accessor_elements, "ImportLimits::max_accessor_elements");
  if (layout.stride == 0 && n != 0) {
    r.fail(ImportErrorCode::InvalidDocument, std::string(field) + " " + std::to_string(n) + " with a zero stride");
  }
  r.fits(field, n, layout.stride);
  r.copy_into(out, static_cast<std::size_t>(n) * layout.stride, field);
}

void read_keys(SectionReader& r, std::vector<Keyframe>& keys) {
  const std::uint64_t n = r.u64("key count");
  r.charge_keys("key count", n);
  r.fits("key count", n, kKeyframeBytes);
  const std::byte* p = r.take(static_cast<std::size_t>(n) * kKeyframeBytes, "keys");
  r.charge("keys", n * kKeyframeBytes);
  decode_records<Keyframe, kKeyframeBytes, load_keyframe>(keys, p, static_cast<std::size_t>(n));
}

AnimationClip read_clip(SectionReader& r) {
  AnimationClip clip;
  clip.name = r.string("clip name");
  clip.duration = Ticks{r.i64("duration")};
  clip.target_space = r.enumeration("target_space", ClipTargetSpace::SceneNode);
  const std::size_t tracks = object_count(r, "track count", kTrackMinBytes);
  clip.tracks.resize(tracks);
  for (std::size_t t = 0; t < tracks; ++t) {
    const auto scope = r.enter("track", t);
    clip.tracks[t].bone_index = r.i32("bone_index");
    read_keys(r, clip.tracks[t].keys);
  }
  return clip;
}

MorphWeightTrack read_weight_track(SectionReader& r) {
  MorphWeightTrack track;
  track.interpolation = r.enumeration("interpolation", Interpolation::CubicSpline);
  const std::uint64_t weights = r.u64("weight_count");
  r.limit("weight_count", weights, r.limits().max_accessor_elements, "ImportLimits::max_accessor_elements");
  track.weight_count = static_cast<std::size_t>(weights);
  const std::size_t keys = r.count("key count", r.limits().max_accessor_elements, "ImportLimits::max_accessor_elements", 8);
  r.charge_keys("key count", keys);
  r.copy_into(track.times, keys, "times");
  r.array(track.values, "values");
  r.array(track.in_tangents, "in_tangents");
  r.array(track.out_tangents, "out_tangents");
  return track;
}

void read_deltas(SectionReader& r, std::vector<std::vector<glm::vec3>>& out, const char* field) {
  const std::size_t targets = object_count(r, field, 8);
  out.resize(targets);
  for (std::size_t t = 0; t < targets; ++t) {
    const auto scope = r.enter("target", t);
    r.array(out[t], field);
  }
}

MorphTargetData read_morph(SectionReader& r) {
  MorphTargetData morph;
  morph.layout = read_layout(r);
  read_vertices(r, morph.layout, morph.base_vertex_bytes, "morph vertex_count");
  read_deltas(r, morph.position_deltas, "position_deltas");
  read_deltas(r, morph.normal_deltas, "normal_deltas");
  read_deltas(r, morph.tangent_deltas, "tangent_deltas");
  r.array(morph.weights, "morph weights");
  morph.recompute_flat_normals = r.flag("recompute_flat_normals");
  r.array(morph.triangle_indices, "triangle_indices");
  if (r.flag("has_weight_track")) morph.weight_track = read_weight_track(r);
  return morph;
}

struct Tables {
  std::vector<std::shared_ptr<Material>> materials;
  std::vector<std::shared_ptr<SkinnedMaterial>> skinned;
};

ModelMeshPart read_part(SectionReader& r, const Tables& tables) {
  ModelMeshPart part;
  const int material = r.i32("material");
  check_index(r, "material", material, -1, tables.materials.size(), "material");
  if (material >= 0) part.material = tables.materials[static_cast<std::size_t>(material)];
  const int skinned = r.i32("skinned_material");
  check_index(r, "skinned_material", skinned, -1, tables.skinned.size(), "skinned material");
  if (skinned >= 0) part.skinned_material = tables.skinned[static_cast<std::size_t>(skinned)];
  part.mode = r.enumeration("mode", PrimitiveMode::TriangleFan);
  const bool has_morph = r.flag("has_morph");
  part.revision = r.u64("revision");
  part.source_primitive = r.i32("source_primitive");
  part.source_vertex_count = r.u32("source_vertex_count");
  part.layout = read_layout(r);
  read_vertices(r, part.layout, part.vertex_bytes, "vertex_count");
  r.array(part.indices, "index count");
  r.array(part.source_vertices, "source_vertices count");
  if (r.version() >= 2) part.skinning = r.enumeration("skinning", SkinningMode::DualQuaternion);
  if (r.version() >= 3) {
    part.flat_normals = r.flag("flat_normals");
    r.array(part.palette_joints, "palette_joints count");  // S4; validate(Model) checks the entries
  } else {
    // Before version 3 only the glTF importer's flat-normal parts had source_vertices.
    part.flat_normals = !part.source_vertices.empty();
  }
  if (has_morph) part.morph = read_morph(r);
  return part;
}

void read_materials(SectionReader& r, Tables& tables) {
  const std::size_t n = object_count(r, "material count", kMaterialMinBytes);
  tables.materials.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto scope = r.enter("material", i);
    auto m = std::make_shared<Material>();
    m->name = r.string("name");
    for (int c = 0; c < 4; ++c) m->base_color[c] = r.f32("base_color");
    m->double_sided = r.flag("double_sided");
    m->source_material = r.i32("source_material");
    tables.materials.push_back(std::move(m));
  }
}

void read_skinned_materials(SectionReader& r, Tables& tables) {
  const std::size_t n = object_count(r, "skinned material count", 4);
  tables.skinned.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto scope = r.enter("skinned material", i);
    const std::uint32_t max_bones = r.u32("max_bones");
    if (max_bones == 0) r.fail(ImportErrorCode::InvalidDocument, "max_bones is 0");
    r.limit("max_bones", max_bones, kNativeMaxBones, nullptr);
    r.charge("palette", std::uint64_t{max_bones} * kMat4Bytes);  // the palette is allocated, not read
    tables.skinned.push_back(std::make_shared<SkinnedMaterial>(static_cast<int>(max_bones)));
  }
}

void read_bones(SectionReader& r, Model& model) {
  const std::uint64_t n = r.u64("bone count");
  r.limit("bone count", n, kNativeMaxBones, nullptr);
  r.limit("bone count", n, r.limits().max_nodes, "ImportLimits::max_nodes");
  r.fits("bone count", n, kBoneMinBytes);
  model.nodes.resize(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < model.nodes.size(); ++i) {
    const auto scope = r.enter("bone", i);
    ModelNode& bone = model.nodes[i];
    bone.name = r.string("name");
    bone.parent = r.i32("parent");
    if (bone.parent >= static_cast<int>(i)) {
      r.fail(ImportErrorCode::IndexOutOfRange,
             "parent " + std::to_string(bone.parent) + " is not before the bone's own index " + std::to_string(i));
    }
    bone.transform = read_mat4(r, "transform");
    bone.source_node = r.i32("source_node");
  }
}

void read_int_array(SectionReader& r, std::vector<int>& out, const char* field, int lowest, std::size_t size,
                    const char* objects) {
  static_assert(sizeof(int) == 4);
  r.array(out, field);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] < lowest || (out[i] >= 0 && static_cast<std::size_t>(out[i]) >= size)) {
      const auto scope = r.enter(field, i);
      check_index(r, "value", out[i], lowest, size, objects);
    }
  }
}

void read_skins(SectionReader& r, Model& model) {
  const std::size_t n = object_count(r, "skin count", kSkinMinBytes);
  model.skins.resize(n);
  for (std::size_t s = 0; s < n; ++s) {
    const auto scope = r.enter("skin", s);
    Skin& skin = model.skins[s];
    SkinningData& d = skin.data;
    skin.name = r.string("name");
    const std::uint64_t bones = r.u64("bone_count");
    r.limit("bone_count", bones, kNativeMaxBones, nullptr);  // G21
    r.fits("bone_count", bones, 4 + 2 * kMat4Bytes);
    d.bone_count = static_cast<int>(bones);
    r.copy_into(d.skeleton_hierarchy, static_cast<std::size_t>(bones), "skeleton_hierarchy");
    for (std::size_t i = 0; i < d.skeleton_hierarchy.size(); ++i) {
      if (d.skeleton_hierarchy[i] >= static_cast<int>(i)) {
        r.fail(ImportErrorCode::IndexOutOfRange, "skeleton_hierarchy[" + std::to_string(i) + "] = " +
                                                     std::to_string(d.skeleton_hierarchy[i]) +
                                                     " is not before the joint's own index");
      }
    }
    read_matrices(r, d.bind_pose, static_cast<std::size_t>(bones), "bind_pose");
    read_matrices(r, d.inverse_bind_pose, static_cast<std::size_t>(bones), "inverse_bind_pose");
    d.skeleton_root_node_index = r.i32("skeleton_root_node_index");
    d.skeleton_root_name = r.string("skeleton_root_name");
    const std::size_t clips = object_count(r, "clip count", kClipMinBytes);
    for (std::size_t c = 0; c < clips; ++c) {
      const auto clip_scope = r.enter("clip", c);
      std::string key = r.string("clip key");
      AnimationClip clip = read_clip(r);
      if (clip.target_space != ClipTargetSpace::JointPalette) {
        r.fail(ImportErrorCode::InvalidDocument, "clip '" + key + "' is not a JointPalette clip");
      }
      if (!d.animation_clips.emplace(std::move(key), std::move(clip)).second) {
        r.fail(ImportErrorCode::InvalidDocument, "two clips have one key");
      }
    }
    // Mesh indices are checked once the meshes are read (MESH may follow SKIN).
    read_int_array(r, skin.meshes, "meshes", 0, kUnknownCount, "mesh");
    read_int_array(r, skin.scene_to_palette, "scene_to_palette", -1, static_cast<std::size_t>(bones), "joint");
    read_int_array(r, skin.palette_to_scene, "palette_to_scene", -1, model.nodes.size(), "bone");
    read_int_array(r, skin.source_joints, "source_joints", std::numeric_limits<int>::min(), kUnknownCount, "joint");
    skin.source_skin = r.i32("source_skin");
  }
}

void read_prefixes(SectionReader& r, Model& model) {
  read_skin_count(r, model);
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    const auto scope = r.enter("skin", s);
    SkinningData& d = model.skins[s].data;
    const std::uint64_t count = r.u64("prefix count");
    if (count != 0 && count != static_cast<std::uint64_t>(d.bone_count)) {
      r.fail(ImportErrorCode::InvalidDocument, "prefix count " + std::to_string(count) + " is neither 0 nor bone_count " +
                                                   std::to_string(d.bone_count));
    }
    read_matrices(r, d.skeleton_root_prefix, static_cast<std::size_t>(count), "skeleton_root_prefix");
  }
}

void read_meshes(SectionReader& r, Model& model, const Tables& tables) {
  const std::size_t n = object_count(r, "mesh count", kMeshMinBytes);
  model.meshes.resize(n);
  for (std::size_t m = 0; m < n; ++m) {
    const auto scope = r.enter("mesh", m);
    ModelMesh& mesh = model.meshes[m];
    mesh.name = r.string("name");
    mesh.node = r.i32("node");
    check_index(r, "node", mesh.node, 0, model.nodes.size(), "bone");
    mesh.skin = r.i32("skin");
    check_index(r, "skin", mesh.skin, -1, model.skins.size(), "skin");
    mesh.bounding_sphere.center.x = r.f32("bounding_sphere");
    mesh.bounding_sphere.center.y = r.f32("bounding_sphere");
    mesh.bounding_sphere.center.z = r.f32("bounding_sphere");
    mesh.bounding_sphere.radius = r.f32("bounding_sphere");
    r.array(mesh.morph_weights, "morph_weights");
    mesh.source_mesh = r.i32("source_mesh");
    const std::size_t parts = object_count(r, "part count", r.version() >= 3 ? kPartMinBytes : r.version() == 2 ? kPartMinBytesV2 : kPartMinBytesV1);
    mesh.parts.resize(parts);
    for (std::size_t p = 0; p < parts; ++p) {
      const auto part_scope = r.enter("part", p);
      mesh.parts[p] = read_part(r, tables);
    }
  }
  // The skins' mesh lists, now that the meshes are known (M5: exactly the meshes each drives).
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    for (int mesh : model.skins[s].meshes) {
      if (static_cast<std::size_t>(mesh) >= n) {
        refuse(ImportErrorCode::IndexOutOfRange, "section 'SKIN' skin " + std::to_string(s) + ": mesh " +
                                                     std::to_string(mesh) + " names no mesh (there are " +
                                                     std::to_string(n) + ")");
      }
      if (model.meshes[static_cast<std::size_t>(mesh)].skin != static_cast<int>(s)) {
        refuse(ImportErrorCode::InvalidDocument, "section 'SKIN' skin " + std::to_string(s) + ": lists mesh " +
                                                     std::to_string(mesh) + ", which is drawn by skin " +
                                                     std::to_string(model.meshes[static_cast<std::size_t>(mesh)].skin));
      }
    }
  }
}

void read_animations(SectionReader& r, Model& model) {
  const std::size_t n = object_count(r, "animation count", kAnimationMinBytes);
  model.animations.resize(n);
  for (std::size_t a = 0; a < n; ++a) {
    const auto scope = r.enter("animation", a);
    ModelAnimation& anim = model.animations[a];
    anim.name = r.string("name");
    anim.duration = Ticks{r.i64("duration")};
    anim.scene_clip = read_clip(r);
    if (anim.scene_clip.target_space != ClipTargetSpace::SceneNode) {
      r.fail(ImportErrorCode::InvalidDocument, "scene_clip is not a SceneNode clip");
    }
    const std::size_t channels = object_count(r, "morph channel count", kChannelMinBytes);
    anim.morph_channels.resize(channels);
    for (std::size_t c = 0; c < channels; ++c) {
      const auto channel_scope = r.enter("morph channel", c);
      anim.morph_channels[c].mesh = r.i32("mesh");
      check_index(r, "mesh", anim.morph_channels[c].mesh, 0, model.meshes.size(), "mesh");
      anim.morph_channels[c].track = read_weight_track(r);
    }
  }
}

void read_diagnostics(SectionReader& r, Model& model) {
  const std::size_t n = object_count(r, "diagnostic count", kDiagnosticMinBytes);
  model.diagnostics.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto scope = r.enter("diagnostic", i);
    // Stored by name, so renumbering the enum never changes what a file means.
    const std::string name = r.string("code");
    const std::optional<DiagnosticCode> code = diagnostic_code_from_string(name);
    if (!code) r.fail(ImportErrorCode::InvalidDocument, "code \"" + name + "\" is not a diagnostic code");
    model.diagnostics[i].code = *code;
    model.diagnostics[i].count = r.i32("count");
    model.diagnostics[i].message = r.string("message");
  }
}

void read_source(SectionReader& r, Model& model) {
  model.source.scene = r.i32("scene");
  const std::size_t n = r.count("node_to_bone count", r.limits().max_nodes, "ImportLimits::max_nodes", 4);
  r.copy_into(model.source.node_to_bone, n, "node_to_bone");
  for (std::size_t i = 0; i < n; ++i) {
    const int b = model.source.node_to_bone[i];
    if (b < -1 || b >= static_cast<int>(model.nodes.size())) {
      const auto scope = r.enter("node", i);
      check_index(r, "node_to_bone", b, -1, model.nodes.size(), "bone");
    }
  }
}

// HUMN: the file's humanoid map, each node checked against BONE, then the map as a whole
// (validate(HumanoidMap, Model): required bones, no node twice, all below hips).
void read_humanoid(SectionReader& r, Model& model) {
  const std::uint64_t bones = r.u64("bone count");
  if (bones != kHumanoidBoneCount) {
    r.fail(ImportErrorCode::InvalidDocument,
           "bone count " + std::to_string(bones) + " is not the humanoid profile's " + std::to_string(kHumanoidBoneCount));
  }
  HumanoidMap map;
  for (std::size_t b = 0; b < kHumanoidBoneCount; ++b) {
    map.nodes[b] = r.i32("node");
    if (map.nodes[b] != -1) {
      const auto scope = r.enter("bone", b);
      check_index(r, "node", map.nodes[b], -1, model.nodes.size(), "bone");
    }
  }
  const std::size_t notes = object_count(r, "note count", kStringMinBytes);
  map.notes.resize(notes);
  for (std::size_t i = 0; i < notes; ++i) map.notes[i] = r.string("note");
  try {
    validate(map, model);
  } catch (const std::invalid_argument& e) {
    r.fail(ImportErrorCode::InvalidDocument, e.what());
  }
  model.humanoid = std::move(map);
}

// The sections, in the order they are parsed (references point backwards), and the version
// that introduced each: an older file's reader does not know it.
struct SectionSpec {
  std::uint32_t tag;
  bool required;
  std::uint32_t since = 1;
};
constexpr std::array<SectionSpec, 13> kSections{{{kTagMaterials, true},
                                                 {kTagSkinnedMaterials, true},
                                                 {kTagBones, true},
                                                 {kTagSkins, true},
                                                 {kTagPrefixes, false},
                                                 {kTagCompressedClips, true, 2},
                                                 {kTagMeshes, true},
                                                 {kTagFrameBounds, false, 3},
                                                 {kTagAnimations, true},
                                                 {kTagDiagnostics, true},
                                                 {kTagSource, true},
                                                 {kTagHumanoid, false, 3},
                                                 {kTagMotionDatabase, false, 3}}};

struct Found {
  bool present = false;
  std::size_t begin = 0;
  std::size_t end = 0;
};

template <class T>
T load(std::span<const std::byte> bytes, std::size_t at) {
  T v;
  std::memcpy(&v, bytes.data() + at, sizeof(T));
  return v;
}

std::array<Found, kSections.size()> scan_sections(std::span<const std::byte> bytes) {
  if (bytes.size() < 4 || std::memcmp(bytes.data(), kMagic, 4) != 0) {
    refuse(ImportErrorCode::InvalidContainer, "header: not a marrow native file (no \"MRRW\" magic)");
  }
  if (bytes.size() < 8) refuse(ImportErrorCode::InvalidContainer, "header: truncated before the version");
  const auto version = load<std::uint32_t>(bytes, 4);
  if (version < kNativeOldestVersion || version > kNativeVersion) {
    refuse(ImportErrorCode::VersionMismatch, "header: version " + std::to_string(version) +
                                                 " is not supported (this reader reads versions " +
                                                 std::to_string(kNativeOldestVersion) + " to " +
                                                 std::to_string(kNativeVersion) + ")");
  }
  if (bytes.size() < kHeaderBytes) {
    refuse(ImportErrorCode::InvalidContainer, "header: " + std::to_string(bytes.size()) + " bytes, shorter than the " +
                                                  std::to_string(kHeaderBytes) + "-byte header");
  }
  const auto declared_sections = load<std::uint32_t>(bytes, 12);
  const auto length = load<std::uint64_t>(bytes, 16);
  if (length != bytes.size()) {
    refuse(ImportErrorCode::InvalidContainer, "header: file length " + std::to_string(length) + " but " +
                                                  std::to_string(bytes.size()) + " bytes are present");
  }
  std::array<Found, kSections.size()> found{};
  std::size_t pos = kHeaderBytes;
  std::uint64_t sections = 0;
  while (pos < bytes.size()) {
    const std::string where = "section " + std::to_string(sections) + " at offset " + std::to_string(pos);
    if (bytes.size() - pos < kSectionHeaderBytes) {
      refuse(ImportErrorCode::InvalidContainer, where + ": truncated section header (" +
                                                    std::to_string(bytes.size() - pos) + " of " +
                                                    std::to_string(kSectionHeaderBytes) + " bytes)");
    }
    const auto tag = load<std::uint32_t>(bytes, pos);
    const auto flags = load<std::uint32_t>(bytes, pos + 4);
    const auto size = load<std::uint64_t>(bytes, pos + 8);
    const std::size_t begin = pos + kSectionHeaderBytes;
    if (size > bytes.size() - begin) {
      refuse(ImportErrorCode::InvalidContainer, where + " ('" + tag_name(tag) + "'): length " + std::to_string(size) +
                                                    " exceeds the " + std::to_string(bytes.size() - begin) +
                                                    " bytes that remain");
    }
    bool known = false;
    for (std::size_t k = 0; k < kSections.size(); ++k) {
      if (kSections[k].tag != tag || version < kSections[k].since) continue;
      known = true;
      if (found[k].present) refuse(ImportErrorCode::InvalidContainer, where + ": section '" + tag_name(tag) + "' appears twice");
      found[k] = Found{true, begin, begin + static_cast<std::size_t>(size)};
    }
    // Unknown sections are skipped, unless the writer marked them as needed to read the file.
    if (!known && (flags & kSectionRequired) != 0) {
      refuse(ImportErrorCode::VersionMismatch, where + ": section '" + tag_name(tag) +
                                                   "' is marked required but unknown to version " +
                                                   std::to_string(version) + " files");
    }
    pos = begin + static_cast<std::size_t>(size);
    ++sections;
  }
  if (sections != declared_sections) {
    refuse(ImportErrorCode::InvalidContainer, "header: declares " + std::to_string(declared_sections) +
                                                  " sections, the file holds " + std::to_string(sections));
  }
  for (std::size_t k = 0; k < kSections.size(); ++k) {
    if (kSections[k].required && version >= kSections[k].since && !found[k].present) {
      refuse(ImportErrorCode::InvalidContainer, "section '" + tag_name(kSections[k].tag) + "' is missing");
    }
  }
  return found;
}

}  // namespace

bool is_native(std::span<const std::byte> bytes) noexcept {
  return bytes.size() >= 4 && std::memcmp(bytes.data(), kMagic, 4) == 0;
}

Model read_native(std::span<const std::byte> bytes, const ImportOptions& options) {
  check_import_options(options);
  const ImportLimits& limits = options.limits;
  check_file_size(bytes.size(), limits, "native");
  const std::array<Found, kSections.size()> found = scan_sections(bytes);
  ImportBudget budget(limits);
  Model model;
  Tables tables;
  for (std::size_t k = 0; k < kSections.size(); ++k) {
    if (!found[k].present) continue;
    const std::uint32_t tag = kSections[k].tag;
    SectionReader r(bytes, found[k].begin, found[k].end, tag, budget, load<std::uint32_t>(bytes, 4));
    if (tag == kTagMaterials) read_materials(r, tables);
    else if (tag == kTagSkinnedMaterials) read_skinned_materials(r, tables);
    else if (tag == kTagBones) read_bones(r, model);
    else if (tag == kTagSkins) read_skins(r, model);
    else if (tag == kTagPrefixes) read_prefixes(r, model);
    else if (tag == kTagCompressedClips) read_compressed_clips(r, model);
    else if (tag == kTagMeshes) read_meshes(r, model, tables);
    else if (tag == kTagFrameBounds) read_frame_bounds(r, model);
    else if (tag == kTagAnimations) read_animations(r, model);
    else if (tag == kTagDiagnostics) read_diagnostics(r, model);
    else if (tag == kTagSource) read_source(r, model);
    else if (tag == kTagHumanoid) read_humanoid(r, model);
    else if (tag == kTagMotionDatabase) read_motion_database(r, model);
    r.finish();
  }
  // The model must be one every consumer can use; then it is finished as any import
  // (finish_import): M2, each skin's bind palette onto its meshes' skinned materials; S5, stored
  // in FBND by this writer (checked as read) and made when a file of an older writer lacks it.
  try {
    validate(model);
    if (const std::string problem = model_problem(model); !problem.empty()) throw std::invalid_argument(problem);
  } catch (const std::logic_error& e) {  // invalid_argument, out_of_range
    refuse(ImportErrorCode::InvalidDocument, e.what());
  }
  // Validated, the model cannot make finishing fail (every joint, palette and mesh index it reads
  // is in range), and the options were checked before the first byte.
  finish_import(model, options, ImportSource::NativeFile);
  return model;
}

Model read_native(std::span<const std::byte> bytes, const ImportLimits& limits) {
  ImportOptions options;
  options.limits = limits;
  return read_native(bytes, options);
}

Model read_native_file(const std::filesystem::path& path, const ImportOptions& options) {
  check_import_options(options);
  const FileBytes bytes = read_file(path, options.limits);
  try {
    return read_native(bytes.bytes(), options);
  } catch (const ImportError& e) {
    throw ImportError(e.code(), path.filename().string() + ": " + e.detail());
  }
}

Model read_native_file(const std::filesystem::path& path, const ImportLimits& limits) {
  ImportOptions options;
  options.limits = limits;
  return read_native_file(path, options);
}

}  // namespace marrow
