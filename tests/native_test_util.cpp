#include "native_test_util.hpp"

namespace marrow::test {

namespace {

// Pointers of one model map one-to-one onto pointers of the other.
template <class T>
class SharingMap {
 public:
  void expect(const T* a, const T* b) {
    ASSERT_EQ(a == nullptr, b == nullptr);
    if (a == nullptr) return;
    const auto [it, added] = forward_.try_emplace(a, b);
    EXPECT_EQ(it->second, b) << "one object became two";
    const auto [jt, added_back] = backward_.try_emplace(b, a);
    EXPECT_EQ(jt->second, a) << "two objects became one";
  }

 private:
  std::map<const T*, const T*> forward_;
  std::map<const T*, const T*> backward_;
};

}  // namespace

bool same_keys(const std::vector<Keyframe>& a, const std::vector<Keyframe>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k].time != b[k].time || !same_bits(a[k].translation, b[k].translation) ||
        !same_bits(a[k].rotation, b[k].rotation) || !same_bits(a[k].scale, b[k].scale)) {
      return false;
    }
  }
  return true;
}

void expect_same_clip(const AnimationClip& a, const AnimationClip& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.duration, b.duration);
  EXPECT_EQ(a.target_space, b.target_space);
  ASSERT_EQ(a.tracks.size(), b.tracks.size());
  for (std::size_t t = 0; t < a.tracks.size(); ++t) {
    EXPECT_EQ(a.tracks[t].bone_index, b.tracks[t].bone_index) << "track " << t;
    EXPECT_TRUE(same_keys(a.tracks[t].keys, b.tracks[t].keys)) << "track " << t;
  }
}

void expect_same_compressed_clip(const RuntimeClip& a, const RuntimeClip& b) {
  ASSERT_TRUE(a.compressed());
  ASSERT_TRUE(b.compressed());
  EXPECT_EQ(a.name(), b.name());
  EXPECT_EQ(a.duration(), b.duration());
  const CompressedClipData x = compressed_clip_data(a), y = compressed_clip_data(b);
  EXPECT_EQ(x.times, y.times);
  EXPECT_EQ(x.animated, y.animated);
  ASSERT_EQ(x.channels.size(), y.channels.size());
  for (std::size_t c = 0; c < x.channels.size(); ++c) {
    const CompressedChannel& u = x.channels[c];
    const CompressedChannel& v = y.channels[c];
    EXPECT_TRUE(u.key_times == v.key_times && u.bits == v.bits && u.uniform == v.uniform && same_bits(u.min, v.min) &&
                same_bits(u.step, v.step) && u.packed == v.packed)
        << "channel " << c;
  }
}

void expect_same_track(const MorphWeightTrack& a, const MorphWeightTrack& b) {
  EXPECT_EQ(a.interpolation, b.interpolation);
  EXPECT_EQ(a.weight_count, b.weight_count);
  EXPECT_TRUE(same_bits(a.times, b.times));
  EXPECT_TRUE(same_bits(a.values, b.values));
  EXPECT_TRUE(same_bits(a.in_tangents, b.in_tangents));
  EXPECT_TRUE(same_bits(a.out_tangents, b.out_tangents));
}

void expect_same_deltas(const std::vector<std::vector<glm::vec3>>& a, const std::vector<std::vector<glm::vec3>>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t t = 0; t < a.size(); ++t) EXPECT_TRUE(same_bits(a[t], b[t])) << "target " << t;
}

void expect_same_model(const Model& a, const Model& b) {
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    SCOPED_TRACE("bone " + std::to_string(i));
    EXPECT_EQ(a.nodes[i].name, b.nodes[i].name);
    EXPECT_EQ(a.nodes[i].parent, b.nodes[i].parent);
    EXPECT_TRUE(same_bits(a.nodes[i].transform, b.nodes[i].transform));
    EXPECT_EQ(a.nodes[i].source_node, b.nodes[i].source_node);
  }
  SharingMap<Material> materials;
  SharingMap<SkinnedMaterial> skinned;
  ASSERT_EQ(a.meshes.size(), b.meshes.size());
  for (std::size_t m = 0; m < a.meshes.size(); ++m) {
    SCOPED_TRACE("mesh " + std::to_string(m));
    const ModelMesh& x = a.meshes[m];
    const ModelMesh& y = b.meshes[m];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.node, y.node);
    EXPECT_EQ(x.skin, y.skin);
    EXPECT_TRUE(same_bits(x.bounding_sphere.center, y.bounding_sphere.center));
    EXPECT_TRUE(same_bits(x.bounding_sphere.radius, y.bounding_sphere.radius));
    EXPECT_TRUE(same_bits(x.morph_weights, y.morph_weights));
    EXPECT_EQ(x.source_mesh, y.source_mesh);
    ASSERT_EQ(x.parts.size(), y.parts.size());
    for (std::size_t p = 0; p < x.parts.size(); ++p) {
      SCOPED_TRACE("part " + std::to_string(p));
      const ModelMeshPart& u = x.parts[p];
      const ModelMeshPart& v = y.parts[p];
      EXPECT_TRUE(same_bits(u.vertex_bytes, v.vertex_bytes));
      EXPECT_EQ(u.layout, v.layout);
      EXPECT_EQ(u.indices, v.indices);
      EXPECT_EQ(u.mode, v.mode);
      materials.expect(u.material.get(), v.material.get());
      if (u.material && v.material) {
        EXPECT_EQ(u.material->name, v.material->name);
        EXPECT_TRUE(same_bits(u.material->base_color, v.material->base_color));
        EXPECT_EQ(u.material->double_sided, v.material->double_sided);
        EXPECT_EQ(u.material->source_material, v.material->source_material);
      }
      skinned.expect(u.skinned_material.get(), v.skinned_material.get());
      if (u.skinned_material && v.skinned_material) {
        EXPECT_EQ(u.skinned_material->max_bones(), v.skinned_material->max_bones());
      }
      EXPECT_EQ(u.revision, v.revision);
      EXPECT_EQ(u.source_primitive, v.source_primitive);
      EXPECT_EQ(u.source_vertices, v.source_vertices);
      EXPECT_EQ(u.source_vertex_count, v.source_vertex_count);
      ASSERT_EQ(u.morph.has_value(), v.morph.has_value());
      if (!u.morph) continue;
      const MorphTargetData& s = *u.morph;
      const MorphTargetData& t = *v.morph;
      EXPECT_TRUE(same_bits(s.base_vertex_bytes, t.base_vertex_bytes));
      EXPECT_EQ(s.layout, t.layout);
      expect_same_deltas(s.position_deltas, t.position_deltas);
      expect_same_deltas(s.normal_deltas, t.normal_deltas);
      expect_same_deltas(s.tangent_deltas, t.tangent_deltas);
      EXPECT_TRUE(same_bits(s.weights, t.weights));
      ASSERT_EQ(s.weight_track.has_value(), t.weight_track.has_value());
      if (s.weight_track) expect_same_track(*s.weight_track, *t.weight_track);
      EXPECT_EQ(s.recompute_flat_normals, t.recompute_flat_normals);
      EXPECT_EQ(s.triangle_indices, t.triangle_indices);
    }
  }
  ASSERT_EQ(a.skins.size(), b.skins.size());
  for (std::size_t s = 0; s < a.skins.size(); ++s) {
    SCOPED_TRACE("skin " + std::to_string(s));
    const Skin& x = a.skins[s];
    const Skin& y = b.skins[s];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.data.bone_count, y.data.bone_count);
    EXPECT_EQ(x.data.skeleton_hierarchy, y.data.skeleton_hierarchy);
    EXPECT_TRUE(same_bits(x.data.bind_pose, y.data.bind_pose));
    EXPECT_TRUE(same_bits(x.data.inverse_bind_pose, y.data.inverse_bind_pose));
    EXPECT_TRUE(same_bits(x.data.skeleton_root_prefix, y.data.skeleton_root_prefix));
    EXPECT_EQ(x.data.skeleton_root_node_index, y.data.skeleton_root_node_index);
    EXPECT_EQ(x.data.skeleton_root_name, y.data.skeleton_root_name);
    ASSERT_EQ(x.data.animation_clips.size(), y.data.animation_clips.size());
    for (auto i = x.data.animation_clips.begin(), j = y.data.animation_clips.begin(); i != x.data.animation_clips.end();
         ++i, ++j) {
      EXPECT_EQ(i->first, j->first);
      expect_same_clip(i->second, j->second);
    }
    ASSERT_EQ(x.compressed_clips.size(), y.compressed_clips.size());
    for (auto i = x.compressed_clips.begin(), j = y.compressed_clips.begin(); i != x.compressed_clips.end(); ++i, ++j) {
      EXPECT_EQ(i->first, j->first);
      expect_same_compressed_clip(i->second, j->second);
    }
    EXPECT_EQ(x.meshes, y.meshes);
    EXPECT_EQ(x.scene_to_palette, y.scene_to_palette);
    EXPECT_EQ(x.palette_to_scene, y.palette_to_scene);
    EXPECT_EQ(x.source_joints, y.source_joints);
    EXPECT_EQ(x.source_skin, y.source_skin);
  }
  ASSERT_EQ(a.animations.size(), b.animations.size());
  for (std::size_t i = 0; i < a.animations.size(); ++i) {
    SCOPED_TRACE("animation " + std::to_string(i));
    EXPECT_EQ(a.animations[i].name, b.animations[i].name);
    EXPECT_EQ(a.animations[i].duration, b.animations[i].duration);
    expect_same_clip(a.animations[i].scene_clip, b.animations[i].scene_clip);
    ASSERT_EQ(a.animations[i].morph_channels.size(), b.animations[i].morph_channels.size());
    for (std::size_t c = 0; c < a.animations[i].morph_channels.size(); ++c) {
      EXPECT_EQ(a.animations[i].morph_channels[c].mesh, b.animations[i].morph_channels[c].mesh);
      expect_same_track(a.animations[i].morph_channels[c].track, b.animations[i].morph_channels[c].track);
    }
  }
  ASSERT_EQ(a.diagnostics.size(), b.diagnostics.size());
  for (std::size_t i = 0; i < a.diagnostics.size(); ++i) {
    EXPECT_EQ(a.diagnostics[i].code, b.diagnostics[i].code);
    EXPECT_EQ(a.diagnostics[i].count, b.diagnostics[i].count);
    EXPECT_EQ(a.diagnostics[i].message, b.diagnostics[i].message);
  }
  EXPECT_EQ(a.source.scene, b.source.scene);
  EXPECT_EQ(a.source.node_to_bone, b.source.node_to_bone);
}

void expect_same_palettes(const Model& a, const Model& b) {
  for (std::size_t m = 0; m < a.meshes.size(); ++m) {
    for (std::size_t p = 0; p < a.meshes[m].parts.size(); ++p) {
      const auto& x = a.meshes[m].parts[p].skinned_material;
      const auto& y = b.meshes[m].parts[p].skinned_material;
      if (!x || !y) continue;
      const auto u = x->bone_transforms();
      const auto v = y->bone_transforms();
      ASSERT_EQ(u.size(), v.size());
      EXPECT_EQ(std::memcmp(u.data(), v.data(), u.size_bytes()), 0) << "mesh " << m << " part " << p;
    }
  }
}

float max_difference(std::span<const float> a, std::span<const float> b) {
  float worst = 0.f;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) worst = std::max(worst, std::fabs(a[i] - b[i]));
  return worst;
}

void expect_same_poses(const Model& a, const Model& b, float tolerance, std::size_t max_times) {
  Animator x(a);
  Animator y(b);
  for (int anim = -1; anim < static_cast<int>(a.animations.size()); ++anim) {
    x.play(anim);
    y.play(anim);
    const double duration = anim >= 0 ? seconds_from_ticks(a.animations[static_cast<std::size_t>(anim)].duration) : 1.0;
    const std::vector<double> times{0.0, 0.1, 0.37, duration * 0.5, duration * 0.9, duration + 0.25};
    for (std::size_t i = 0; i < std::min(max_times, times.size()); ++i) {
      const Ticks t = ticks_from_seconds(times[i]);
      x.update(t, false, false);
      y.update(t, false, false);
      SCOPED_TRACE("animation " + std::to_string(anim) + " at " + std::to_string(times[i]) + " s");
      ASSERT_LE(max_difference(floats(x.absolute_bone_transforms()), floats(y.absolute_bone_transforms())), tolerance);
      for (std::size_t m = 0; m < a.meshes.size(); ++m) {
        for (std::size_t p = 0; p < a.meshes[m].parts.size(); ++p) {
          const std::size_t n = a.meshes[m].parts[p].vertex_count();
          std::vector<glm::vec3> px(n), nx(n), py(n), ny(n);
          x.pose_part(m, p, px, nx);
          y.pose_part(m, p, py, ny);
          ASSERT_LE(max_difference(floats(std::span<const glm::vec3>(px)), floats(std::span<const glm::vec3>(py))),
                    tolerance)
              << "mesh " << m << " part " << p << " positions";
          ASSERT_LE(max_difference(floats(std::span<const glm::vec3>(nx)), floats(std::span<const glm::vec3>(ny))),
                    tolerance)
              << "mesh " << m << " part " << p << " normals";
        }
      }
    }
  }
}

ModelMeshPart triangle_part(const VertexLayout& layout, float x) {
  using A = VertexAttribute;
  ModelMeshPart part;
  part.layout = layout;
  part.vertex_bytes.resize(3 * layout.stride);
  for (std::size_t v = 0; v < 3; ++v) {
    write_attribute(part.vertex_bytes, layout, v, A::Position, glm::vec3(x + float(v), float(v == 2), 0.5f));
    if (layout.has(A::Normal)) write_attribute(part.vertex_bytes, layout, v, A::Normal, glm::vec3(0, 0, 1));
    if (layout.has(A::Tangent)) write_attribute(part.vertex_bytes, layout, v, A::Tangent, glm::vec4(1, 0, 0, -1));
    if (layout.has(A::TexCoord0)) write_attribute(part.vertex_bytes, layout, v, A::TexCoord0, glm::vec2(0.5f, float(v)));
    if (layout.has(A::Joints0)) {
      write_attribute(part.vertex_bytes, layout, v, A::Joints0, glm::u16vec4(v % 2, 0, 0, 0));
      write_attribute(part.vertex_bytes, layout, v, A::Weights0, glm::vec4(1, 0, 0, 0));
    }
  }
  return part;
}

Model small_model() {
  using A = VertexAttribute;
  Model model;
  const char* names[] = {"root", "Armature", "J0", "J1", "MeshNode", "Prop"};
  const int parents[] = {-1, 0, 1, 2, 0, 0};
  const glm::mat4 locals[] = {glm::mat4(1.f), glm::scale(translate(0, 1, 0), glm::vec3(1.5f)), translate(0, 0.5f, 0),
                              translate(0, 1, 0), translate(0, 0, 2), translate(1, 0, 0)};
  for (int i = 0; i < 6; ++i) model.nodes.push_back(ModelNode{names[i], parents[i], locals[i], kNodeSentinel + i});

  auto shared = std::make_shared<Material>(Material{"Shared", glm::vec4(0.25f, 0.5f, 0.75f, 1.f), true, 3});
  auto other = std::make_shared<Material>(Material{"Other", glm::vec4(1.f, 0.f, 0.f, 0.5f), false, -1});
  auto palette = std::make_shared<SkinnedMaterial>(4);

  const VertexLayout full = VertexLayout::interleaved({A::Position, A::Normal, A::Tangent, A::TexCoord0, A::Joints0, A::Weights0}, 4);
  ModelMesh skinned_mesh;
  skinned_mesh.name = "MeshSentinel";
  skinned_mesh.node = 4;
  skinned_mesh.skin = 0;
  skinned_mesh.bounding_sphere = {glm::vec3(1, 0.5f, 0.5f), 2.f};
  skinned_mesh.morph_weights = {0.25f, 0.f};
  skinned_mesh.source_mesh = 9;
  ModelMeshPart p0 = triangle_part(full, 0.f);
  p0.indices = {0, 1, 2};
  p0.material = shared;
  p0.skinned_material = palette;
  p0.revision = 5;
  p0.source_primitive = kPrimitiveSentinel;
  p0.source_vertices = {2, 1, 0};
  p0.source_vertex_count = 3;
  MorphTargetData morph;
  morph.base_vertex_bytes = p0.vertex_bytes;
  morph.layout = full;
  morph.position_deltas = {{{0, 0.1f, 0}, {0, 0.2f, 0}, {0, 0.3f, 0}}, {{0.5f, 0, 0}, {0, 0, 0}, {-0.5f, 0, 0}}};
  morph.normal_deltas = {{{0.1f, 0, 0}, {0, 0.1f, 0}, {0, 0, 0.1f}}, {}};  // an empty inner vector is kept
  morph.tangent_deltas = {{}, {{0, 0.2f, 0}, {0, 0.2f, 0}, {0, 0.2f, 0}}};
  morph.weights = {0.25f, 0.f};
  MorphWeightTrack default_track;
  default_track.interpolation = Interpolation::CubicSpline;
  default_track.weight_count = 2;
  default_track.times = {0.0, 0.5, 1.0};
  default_track.values = {0.f, 0.f, 1.f, 0.5f, 0.f, 1.f};
  default_track.in_tangents = {0.f, 0.f, 0.1f, 0.2f, 0.f, 0.f};
  default_track.out_tangents = {0.3f, 0.f, 0.f, 0.f, 0.f, -0.1f};
  morph.weight_track = default_track;
  morph.recompute_flat_normals = true;
  morph.triangle_indices = {0, 1, 2};
  p0.morph = morph;
  skinned_mesh.parts.push_back(p0);
  ModelMeshPart p1 = triangle_part(full, 3.f);  // non-indexed, same palette as part 0
  p1.material = other;
  p1.skinned_material = palette;
  p1.mode = PrimitiveMode::TriangleStrip;
  skinned_mesh.parts.push_back(p1);
  model.meshes.push_back(skinned_mesh);

  ModelMesh prop;
  prop.name = "Prop";
  prop.node = 5;
  ModelMeshPart line = triangle_part(VertexLayout::interleaved({A::Position}), -1.f);
  line.mode = PrimitiveMode::Lines;
  line.indices = {0, 1, 1, 2};
  line.material = shared;
  prop.parts.push_back(line);
  model.meshes.push_back(prop);

  ModelMesh second;  // drawn by skin 1: its own skinned material (M3)
  second.name = "Second";
  second.node = 4;
  second.skin = 1;
  ModelMeshPart p2 = triangle_part(VertexLayout::interleaved({A::Position, A::Joints0, A::Weights0}), 5.f);
  for (std::size_t v = 0; v < 3; ++v) write_attribute(p2.vertex_bytes, p2.layout, v, A::Joints0, glm::u16vec4(0));
  p2.skinned_material = std::make_shared<SkinnedMaterial>();
  second.parts.push_back(p2);
  model.meshes.push_back(second);

  Skin skin;
  skin.name = "SkinSentinel";
  skin.data.bone_count = 2;
  skin.data.skeleton_hierarchy = {-1, 0};
  skin.data.bind_pose = {locals[2], locals[3]};
  const glm::mat4 w1 = locals[1];
  skin.data.inverse_bind_pose = {glm::inverse(w1 * locals[2]), glm::inverse(w1 * locals[2] * locals[3])};
  skin.data.skeleton_root_prefix = {glm::inverse(locals[4]) * w1, glm::mat4(1.f)};
  skin.data.skeleton_root_node_index = 2;
  skin.data.skeleton_root_name = "J0";
  AnimationClip walk;
  walk.name = "Walk";
  walk.duration = ticks_from_seconds(1.0);
  for (int j = 0; j < 2; ++j) {
    BoneTrack track{j, {}};
    for (int k = 0; k < 3; ++k) {
      Keyframe key;
      key.time = ticks_from_seconds(0.5 * k);
      key.translation = glm::vec3(0, 0.5f + 0.5f * float(j), 0.1f * float(k));
      key.rotation = glm::angleAxis(0.3f * float(k), glm::vec3(0, 0, 1));
      key.scale = glm::vec3(1.f + 0.1f * float(k));
      track.keys.push_back(key);
    }
    walk.tracks.push_back(track);
  }
  walk.tracks.push_back(BoneTrack{7, {}});  // an empty track on a bone outside the skeleton
  skin.data.animation_clips["Walk"] = walk;
  skin.meshes = {0};
  skin.scene_to_palette = {-1, -1, 0, 1, -1, -1};
  skin.palette_to_scene = {2, 3};
  skin.source_joints = {1, 0};
  skin.source_skin = kSkinSentinel;
  model.skins.push_back(skin);

  Skin one;
  one.name = "One";
  one.data.bone_count = 1;
  one.data.skeleton_hierarchy = {-1};
  one.data.bind_pose = {translate(0, 0, 1)};
  one.data.inverse_bind_pose = {translate(0, 0, -1)};
  one.meshes = {2};
  model.skins.push_back(one);

  ModelAnimation walk_anim;
  walk_anim.name = "Walk";
  walk_anim.duration = ticks_from_seconds(1.0);
  walk_anim.scene_clip.name = "Walk";
  walk_anim.scene_clip.duration = walk_anim.duration;
  walk_anim.scene_clip.target_space = ClipTargetSpace::SceneNode;
  Keyframe k0, k1;
  k1.time = ticks_from_seconds(1.0);
  k1.translation = glm::vec3(1, 2, 3);
  walk_anim.scene_clip.tracks.push_back(BoneTrack{5, {k0, k1}});
  MorphWeightTrack channel;
  channel.weight_count = 2;
  channel.times = {kChannelTimeSentinel, 0.75};
  channel.values = {0.f, 1.f, 1.f, 0.f};
  walk_anim.morph_channels.push_back(MorphWeightChannel{0, channel});
  model.animations.push_back(walk_anim);
  ModelAnimation idle;
  idle.name = "Idle";
  idle.scene_clip.target_space = ClipTargetSpace::SceneNode;
  model.animations.push_back(idle);

  model.diagnostics.push_back(Diagnostic{DiagnosticCode::SkinWeightsZero, 3, "the first of three"});
  model.source.scene = 0;
  model.source.node_to_bone = {1, 2, 3, 4, 5, -1};
  return model;
}

std::size_t after_string(const Bytes& b, std::string_view s) {
  std::vector<std::byte> pattern(4);
  const auto n = static_cast<std::uint32_t>(s.size());
  std::memcpy(pattern.data(), &n, 4);
  const auto* chars = reinterpret_cast<const std::byte*>(s.data());
  pattern.insert(pattern.end(), chars, chars + s.size());
  const auto it = std::search(b.begin(), b.end(), pattern.begin(), pattern.end());
  EXPECT_NE(it, b.end()) << "string '" << s << "' not found";
  return static_cast<std::size_t>(it - b.begin()) + pattern.size();
}

std::uint32_t tag_of(const char (&s)[5]) {
  std::uint32_t t;
  std::memcpy(&t, s, 4);
  return t;
}

std::vector<Section> split(const Bytes& b) {
  std::vector<Section> out;
  std::size_t pos = 24;
  while (pos + 16 <= b.size()) {
    const auto length = get<std::uint64_t>(b, pos + 8);
    Section s{get<std::uint32_t>(b, pos), get<std::uint32_t>(b, pos + 4), {}};
    s.payload.assign(b.begin() + static_cast<std::ptrdiff_t>(pos + 16),
                     b.begin() + static_cast<std::ptrdiff_t>(pos + 16 + length));
    out.push_back(std::move(s));
    pos += 16 + length;
  }
  return out;
}

Bytes join(const Bytes& original, const std::vector<Section>& sections) {
  Bytes b(original.begin(), original.begin() + 24);
  for (const Section& s : sections) {
    const std::size_t at = b.size();
    b.resize(at + 16);
    put(b, at, s.tag);
    put(b, at + 4, s.flags);
    put(b, at + 8, static_cast<std::uint64_t>(s.payload.size()));
    b.insert(b.end(), s.payload.begin(), s.payload.end());
  }
  put(b, 12, static_cast<std::uint32_t>(sections.size()));
  put(b, 16, static_cast<std::uint64_t>(b.size()));
  return b;
}

::testing::AssertionResult loads_or_refuses(const Bytes& bytes, bool* loaded) {
  Model model;
  try {
    model = read_native(bytes);
  } catch (const ImportError&) {
    if (loaded) *loaded = false;
    return ::testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw a non-ImportError: " << e.what();
  }
  if (loaded) *loaded = true;
  try {
    Animator animator(model);
    for (int a = -1; a < static_cast<int>(model.animations.size()); ++a) {
      animator.play(a);
      animator.update(ticks_from_seconds(0.3), false, true);
      animator.install_palettes();
      for (std::size_t m = 0; m < model.meshes.size(); ++m) {
        for (std::size_t p = 0; p < model.meshes[m].parts.size(); ++p) {
          std::vector<glm::vec3> positions(model.meshes[m].parts[p].vertex_count());
          std::vector<glm::vec3> normals(positions.size());
          animator.pose_part(m, p, positions, normals);
        }
      }
    }
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "a loaded model could not be played: " << e.what();
  }
  return ::testing::AssertionSuccess();
}

Model compressed_demo(bool segmented) {
  Model model = make_demo_character();
  ClipCompression options;
  options.segmented = segmented;
  compress_model_clips(model, options);
  return model;
}

}  // namespace marrow::test
