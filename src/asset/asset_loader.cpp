#include "marrow/asset/asset_loader.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <span>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>

#include "marrow/core/vertex_access.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/runtime/skin_influences.hpp"
#include "mesh_assembly.hpp"

namespace marrow::asset {

namespace {

// The model bones a set of skins needs: their joints and every ancestor up to the file's root
// (T4: non-joint ancestors are part of the skeleton). Empty when a joint is outside the scene.
std::vector<int> skeleton_bones(const Model& model, const std::vector<int>& skins, bool& outside_scene) {
  std::vector<bool> keep(model.bones.size(), false);
  outside_scene = false;
  for (int s : skins) {
    for (int bone : model.skins[static_cast<std::size_t>(s)].palette_to_scene) {
      if (bone < 0) {
        outside_scene = true;
        continue;
      }
      for (int b = bone; b > 0 && !keep[static_cast<std::size_t>(b)]; b = model.bones[static_cast<std::size_t>(b)].parent) {
        keep[static_cast<std::size_t>(b)] = true;
      }
    }
  }
  std::vector<int> bones;
  int roots = 0;
  for (std::size_t b = 1; b < keep.size(); ++b) {
    if (!keep[b]) continue;
    bones.push_back(static_cast<int>(b));
    if (model.bones[b].parent == 0) ++roots;
  }
  // One root: several file roots hang under the synthetic root bone.
  if (roots > 1) bones.insert(bones.begin(), 0);
  return bones;
}

// A rig of the given model bones (parents first, as model bones are), with the animations of
// the skins' clips and the rigid clips restricted to those bones.
std::shared_ptr<SkeletalRig> rig_of(const Model& model, const std::vector<int>& bones, const std::vector<int>& skins,
                                    std::vector<int>& node_of_bone) {
  auto rig = std::make_shared<SkeletalRig>();
  node_of_bone.assign(model.bones.size(), -1);
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const ModelBone& bone = model.bones[static_cast<std::size_t>(bones[i])];
    node_of_bone[static_cast<std::size_t>(bones[i])] = static_cast<int>(i);
    RigNode node;
    node.name = bones[i] == 0 ? "root" : (bone.name.empty() ? "node_" + std::to_string(i) : bone.name);
    node.parent = bone.parent >= 0 ? node_of_bone[static_cast<std::size_t>(bone.parent)] : -1;
    node.default_local = bone.transform;
    rig->nodes.push_back(std::move(node));
  }
  rig->finish_hierarchy();
  for (const ModelAnimation& animation : model.animations) {
    RigAnimation out;
    out.name = animation.name;
    out.default_duration_seconds = static_cast<float>(seconds_from_ticks(animation.duration));
    std::set<int> animated;
    for (int s : skins) {
      const Skin& skin = model.skins[static_cast<std::size_t>(s)];
      const auto it = skin.data.animation_clips.find(animation.name);
      if (it == skin.data.animation_clips.end()) continue;
      for (const BoneTrack& track : it->second.tracks) {
        const int bone = track.bone_index >= 0 && track.bone_index < static_cast<int>(skin.palette_to_scene.size())
                             ? skin.palette_to_scene[static_cast<std::size_t>(track.bone_index)]
                             : -1;
        const int node = bone >= 0 ? node_of_bone[static_cast<std::size_t>(bone)] : -1;
        if (node < 0 || !animated.insert(node).second) continue;
        out.tracks.push_back(BoneTrack{node, track.keys});
      }
    }
    for (const BoneTrack& track : animation.scene_clip.tracks) {
      if (track.bone_index < 0 || static_cast<std::size_t>(track.bone_index) >= node_of_bone.size()) continue;
      const int node = node_of_bone[static_cast<std::size_t>(track.bone_index)];
      if (node < 0 || !animated.insert(node).second) continue;
      out.tracks.push_back(BoneTrack{node, track.keys});
    }
    out.key_times = animation_key_times(out);
    rig->animations.push_back(std::move(out));
  }
  return rig;
}

// palette_joints: a split part's map (S4) from its JOINTS to the skin's palette, else empty.
MeshVertexSkeletal vertex_of(std::span<const std::byte> bytes, const VertexLayout& l, std::size_t v,
                             std::span<const std::uint32_t> palette_joints = {}) {
  using A = VertexAttribute;
  MeshVertexSkeletal out;
  out.location = read_attribute<glm::vec3>(bytes, l, v, A::Position);
  if (l.has(A::Normal)) out.normal = read_attribute<glm::vec3>(bytes, l, v, A::Normal);
  if (l.has(A::Tangent)) {
    const glm::vec4 t = read_attribute<glm::vec4>(bytes, l, v, A::Tangent);
    out.tangent = glm::vec3(t);
    out.bitangent = glm::cross(out.normal, out.tangent) * (t.w < 0.f ? -1.f : 1.f);
  }
  if (l.has(A::TexCoord0)) out.texture_coords = read_attribute<glm::vec2>(bytes, l, v, A::TexCoord0);
  if (l.has(A::Joints0) && l.has(A::Weights0)) {
    // T16: four influences per vertex; a model with more (S1) gives its four largest,
    // renormalised (keep_largest_influences).
    std::array<std::uint16_t, kMaxInfluences> j{};
    std::array<float, kMaxInfluences> w{};
    const std::size_t n = std::min<std::size_t>(l.influences, kMaxInfluences);
    std::memcpy(j.data(), bytes.data() + v * l.stride + l.offset(A::Joints0), n * sizeof(std::uint16_t));
    std::memcpy(w.data(), bytes.data() + v * l.stride + l.offset(A::Weights0), n * sizeof(float));
    for (std::size_t c = 0; c < n && !palette_joints.empty(); ++c) j[c] = static_cast<std::uint16_t>(palette_joints[j[c]]);
    keep_largest_influences(std::span(j).first(n), std::span(w).first(n), 4);
    for (std::size_t c = 0; c < 4 && c < n; ++c) {
      out.bone_indices[c] = static_cast<std::uint8_t>(j[c]);
      out.bone_weights[c] = w[c];
    }
  }
  return out;
}

// Appends a part's triangles (triangle parts only) with vertex indices offset by `base`.
void append_triangles(const ModelMeshPart& part, std::uint32_t base, std::vector<VertexTriangle>& out) {
  if (part.mode != PrimitiveMode::Triangles) return;
  const auto n = static_cast<std::uint32_t>(part.vertex_count());
  if (part.indices.empty()) {
    for (std::uint32_t i = 0; i + 2 < n; i += 3) out.push_back(VertexTriangle{base + i, base + i + 1, base + i + 2});
    return;
  }
  for (std::size_t i = 0; i + 2 < part.indices.size(); i += 3) {
    out.push_back(VertexTriangle{base + part.indices[i], base + part.indices[i + 1], base + part.indices[i + 2]});
  }
}

}  // namespace

AssetLoader::AssetLoader() : sink_([](const std::string& m) { std::fprintf(stderr, "marrow: warning: %s\n", m.c_str()); }) {}

void AssetLoader::warn(const std::string& message) const {
  if (sink_) sink_(message);
}

Model AssetLoader::read_model(const std::filesystem::path& path, const ReadConfig& config) {
  ModelFileOptions options;
  options.import = config.import;
  options.ticks_per_second = config.animation_ticks_per_second_override;
  options.load_skeletal_data = config.load_skeletal_animation_data_if_present;
  Model model = load_model_file(path, options);
  for (const Diagnostic& d : model.diagnostics) warn(path.filename().string() + ": " + std::string(to_string(d.code)) + ": " + d.message);
  return model;
}

namespace {

// Builds one scene mesh from some of a model's meshes. Skeletal when `skin` >= 0 (the one
// sub-mesh's skin); otherwise static, posed at rest into model space.
struct MeshSource {
  std::vector<std::size_t> meshes;
  int skin = -1;
};

std::shared_ptr<Mesh> build_mesh(const Model& model, const MeshSource& source, const std::string& name,
                                  std::vector<int>* node_of_bone_out) {
  auto mesh = std::make_shared<Mesh>();
  MeshAssembly::name(*mesh) = name;
  auto& vertices = MeshAssembly::vertices(*mesh);
  auto& triangles = MeshAssembly::triangles(*mesh);
  if (source.skin >= 0) {
    bool outside = false;
    const std::vector<int> skins = {source.skin};
    const std::vector<int> bones = skeleton_bones(model, skins, outside);
    std::vector<int> node_of_bone;
    std::shared_ptr<SkeletalRig> rig = rig_of(model, bones, skins, node_of_bone);
    const Skin& skin = model.skins[static_cast<std::size_t>(source.skin)];
    for (std::size_t p = 0; p < skin.palette_to_scene.size(); ++p) {
      const int node = node_of_bone[static_cast<std::size_t>(skin.palette_to_scene[p])];
      rig->bone_nodes.push_back(node);
      rig->inverse_binds.push_back(skin.data.inverse_bind_pose[p]);
      rig->nodes[static_cast<std::size_t>(node)].bone = static_cast<int>(p);
    }
    for (std::size_t m : source.meshes) {
      for (const ModelMeshPart& part : model.meshes[m].parts) {
        const auto base = static_cast<std::uint32_t>(vertices.size());
        for (std::size_t v = 0; v < part.vertex_count(); ++v) vertices.push_back(vertex_of(part.vertex_bytes, part.layout, v, part.palette_joints));
        append_triangles(part, base, triangles);
      }
    }
    MeshAssembly::rig(*mesh) = std::move(rig);
    if (node_of_bone_out) *node_of_bone_out = std::move(node_of_bone);
  } else {
    // Static: every part posed at rest, in model space (skinned parts by their bind palette).
    Animator rest(model);
    std::vector<glm::vec3> positions, normals;
    for (std::size_t m : source.meshes) {
      for (std::size_t p = 0; p < model.meshes[m].parts.size(); ++p) {
        const ModelMeshPart& part = model.meshes[m].parts[p];
        const std::size_t n = part.vertex_count();
        positions.resize(n);
        normals.resize(part.layout.has(VertexAttribute::Normal) ? n : 0);
        rest.pose_part(m, p, positions, normals);
        const auto base = static_cast<std::uint32_t>(vertices.size());
        for (std::size_t v = 0; v < n; ++v) {
          MeshVertexSkeletal vertex = vertex_of(part.vertex_bytes, part.layout, v);
          vertex.location = positions[v];
          if (!normals.empty()) vertex.normal = normals[v];
          vertex.bone_indices = {0, 0, 0, 0};
          vertex.bone_weights = {1, 0, 0, 0};
          vertices.push_back(vertex);
        }
        append_triangles(part, base, triangles);
      }
    }
  }
  MeshAssembly::finish(*mesh);
  MeshAssembly::compute_bounds(*mesh, true, std::nullopt, 0.f);
  return mesh;
}

// The skin a sub-mesh can be loaded skeletal with, or -1 (with the reason warned).
int skeletal_skin(const Model& model, std::size_t mesh, const ReadConfig& config,
                  const std::function<void(const std::string&)>& warn) {
  const int skin = model.meshes[mesh].skin;
  if (skin < 0 || !config.load_skeletal_animation_data_if_present) return -1;
  const Skin& s = model.skins[static_cast<std::size_t>(skin)];
  if (s.data.bone_count > kMaxSkeletalBones) {
    warn("mesh " + std::to_string(mesh) + " has " + std::to_string(s.data.bone_count) + " bones, more than " +
         std::to_string(kMaxSkeletalBones) + ": loaded as a static mesh");
    return -1;
  }
  bool outside = false;
  skeleton_bones(model, {skin}, outside);
  if (outside) {
    warn("mesh " + std::to_string(mesh) + ": a joint lies outside the scene: loaded as a static mesh");
    return -1;
  }
  return skin;
}

}  // namespace

std::shared_ptr<Mesh> AssetLoader::mesh_from_model(const Model& model, const ReadConfig& config) {
  MeshSource source;
  if (config.sub_mesh_index) {
    if (*config.sub_mesh_index < 0 || static_cast<std::size_t>(*config.sub_mesh_index) >= model.meshes.size()) {
      throw std::out_of_range("AssetLoader: sub_mesh_index " + std::to_string(*config.sub_mesh_index) + " of " +
                              std::to_string(model.meshes.size()) + " sub-meshes");
    }
    source.meshes = {static_cast<std::size_t>(*config.sub_mesh_index)};
  } else {
    for (std::size_t m = 0; m < model.meshes.size(); ++m) source.meshes.push_back(m);
  }
  const auto warn_fn = [this](const std::string& m) { warn(m); };
  if (source.meshes.size() == 1) {
    source.skin = skeletal_skin(model, source.meshes[0], config, warn_fn);
  } else if (config.load_skeletal_animation_data_if_present &&
             std::any_of(model.meshes.begin(), model.meshes.end(), [](const ModelMesh& m) { return m.skin >= 0; })) {
    warn("load_mesh: " + std::to_string(source.meshes.size()) +
         " sub-meshes merged into one static mesh; select one with ReadConfig::sub_mesh_index, or use "
         "load_mesh_group / load_bundled_asset, to keep skeletal data");
  }
  const std::string name = source.meshes.size() == 1 ? model.meshes[source.meshes[0]].name : std::string();
  return build_mesh(model, source, name, nullptr);
}

ModelBundle AssetLoader::bundle_from_model(const Model& model, const ReadConfig& config) {
  ModelBundle bundle;
  const auto warn_fn = [this](const std::string& m) { warn(m); };
  std::vector<int> skins;          // skins of the skeletal meshes
  std::vector<int> mesh_skin;      // per bundle mesh
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const int skin = skeletal_skin(model, m, config, warn_fn);
    mesh_skin.push_back(skin);
    if (skin >= 0 && std::find(skins.begin(), skins.end(), skin) == skins.end()) skins.push_back(skin);
    bundle.meshes.push_back(build_mesh(model, MeshSource{{m}, skin}, model.meshes[m].name, nullptr));
  }
  if (skins.empty()) return bundle;
  // T9: one skeleton for every skeletal mesh, and the animations over it.
  bool outside = false;
  const std::vector<int> bones = skeleton_bones(model, skins, outside);
  std::vector<int> node_of_bone;
  bundle.table = std::make_shared<AnimationTable>(rig_of(model, bones, skins, node_of_bone));
  for (std::size_t m = 0; m < bundle.meshes.size(); ++m) {
    if (mesh_skin[m] < 0) continue;
    std::vector<int> bone_nodes;
    for (int bone : model.skins[static_cast<std::size_t>(mesh_skin[m])].palette_to_scene) {
      bone_nodes.push_back(node_of_bone[static_cast<std::size_t>(bone)]);
    }
    bundle.table->add_member(*bundle.meshes[m], std::move(bone_nodes));
  }
  return bundle;
}

std::shared_ptr<Mesh> AssetLoader::load_mesh(const std::filesystem::path& path, const ReadConfig& config) {
  return mesh_from_model(read_model(path, config), config);
}

ModelBundle AssetLoader::load_bundled_asset(const std::filesystem::path& path, const ReadConfig& config) {
  return bundle_from_model(read_model(path, config), config);
}

MeshGroup AssetLoader::load_mesh_group(const std::filesystem::path& path, const ReadConfig& config) {
  ModelBundle bundle = load_bundled_asset(path, config);
  MeshGroup group;
  group.meshes = std::move(bundle.meshes);
  if (bundle.table) group.animation_tables.push_back(std::move(bundle.table));
  return group;
}

}  // namespace marrow::asset
