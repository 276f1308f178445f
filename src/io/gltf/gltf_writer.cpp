#include "marrow/io/gltf/gltf_writer.hpp"
#include "marrow/model/live_retarget.hpp"
#include "marrow/io/gltf/gltf_meshopt_compress.hpp"

#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "marrow/core/trs.hpp"
#include "marrow/core/vertex_access.hpp"
#include "marrow/io/gltf/gltf_builder.hpp"

namespace marrow {

namespace {

using gltf::AccessorType;
using gltf::kNone;

class ModelWriter {
 public:
  explicit ModelWriter(const Model& model) : model_(model) {}

  gltf::GltfAsset write() {
    validate(model_);
    write_nodes();
    write_materials();
    write_meshes();
    write_skins();
    for (const ModelAnimation& anim : model_.animations) write_animation(anim);
    return builder_.finish();
  }

 private:
  gltf::Document& doc() { return builder_.document(); }

  void write_nodes() {
    first_bone_ = model_.nodes.empty() || model_.nodes[0].transform != glm::mat4(1.f) ? 0 : 1;
    bone_node_.assign(model_.nodes.size(), kNone);
    gltf::Scene scene;
    for (std::size_t b = first_bone_; b < model_.nodes.size(); ++b) {
      const ModelNode& bone = model_.nodes[b];
      gltf::Node node;
      node.name = bone.name;
      set_transform(node, bone.transform);
      bone_node_[b] = static_cast<std::uint32_t>(doc().nodes.size());
      doc().nodes.push_back(node);
      if (bone.parent < static_cast<int>(first_bone_)) {
        scene.nodes.push_back(bone_node_[b]);
      } else {
        doc().nodes[bone_node_[static_cast<std::size_t>(bone.parent)]].children.push_back(bone_node_[b]);
      }
    }
    doc().scenes.push_back(scene);
    doc().scene = 0;
  }

  // TRS when the matrix is one (animated nodes must use TRS), else the matrix.
  static void set_transform(gltf::Node& node, const glm::mat4& m) {
    const Trs trs = decompose_trs(m);
    const glm::mat4 back = compose_trs(trs);
    float error = 0.f;
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) error = std::max(error, std::fabs(back[c][r] - m[c][r]));
    }
    if (error <= 1e-6f * std::max(1.f, std::fabs(m[3][0]) + std::fabs(m[3][1]) + std::fabs(m[3][2]))) {
      node.translation = {trs.translation.x, trs.translation.y, trs.translation.z};
      node.rotation = {trs.rotation.x, trs.rotation.y, trs.rotation.z, trs.rotation.w};
      node.scale = {trs.scale.x, trs.scale.y, trs.scale.z};
      return;
    }
    node.has_matrix = true;
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) node.matrix[static_cast<std::size_t>(c * 4 + r)] = m[c][r];
    }
  }

  void write_materials() {
    for (const ModelMesh& mesh : model_.meshes) {
      for (const ModelMeshPart& part : mesh.parts) {
        if (!part.material || material_index_.count(part.material.get()) != 0) continue;
        gltf::Material m;
        m.name = part.material->name;
        const glm::vec4 c = part.material->base_color;
        m.base_color_factor = {c.r, c.g, c.b, c.a};
        m.double_sided = part.material->double_sided;
        material_index_[part.material.get()] = static_cast<std::uint32_t>(doc().materials.size());
        doc().materials.push_back(m);
      }
    }
  }

  template <class T>
  std::vector<float> gather(std::span<const std::byte> bytes, const VertexLayout& layout, VertexAttribute a,
                            std::size_t components) {
    const std::size_t n = bytes.size() / layout.stride;
    std::vector<float> out(n * components);
    for (std::size_t v = 0; v < n; ++v) {
      const T value = read_attribute<T>(bytes, layout, v, a);
      for (std::size_t c = 0; c < components; ++c) out[v * components + c] = value[static_cast<int>(c)];
    }
    return out;
  }

  static std::vector<float> flatten(const std::vector<glm::vec3>& v) {
    std::vector<float> out;
    out.reserve(v.size() * 3);
    for (const glm::vec3& x : v) out.insert(out.end(), {x.x, x.y, x.z});
    return out;
  }

  static constexpr std::uint32_t kArrayBuffer = 34962, kElementArrayBuffer = 34963;

  void set_target(std::uint32_t accessor, std::uint32_t target) {
    doc().buffer_views[doc().accessors[accessor].buffer_view].target = target;
  }

  gltf::Primitive write_part(const ModelMeshPart& part) {
    using A = VertexAttribute;
    gltf::Primitive prim;
    const VertexLayout& l = part.layout;
    // The zero-weight base: initial weights go to mesh.weights and are re-applied on import.
    const std::span<const std::byte> bytes =
        part.morph ? std::span<const std::byte>(part.morph->base_vertex_bytes) : std::span<const std::byte>(part.vertex_bytes);
    const bool flat = part.morph && part.morph->recompute_flat_normals;
    prim.attributes.push_back({"POSITION", builder_.add_floats(gather<glm::vec3>(bytes, l, A::Position, 3), AccessorType::Vec3)});
    if (l.has(A::Normal) && !flat) {
      prim.attributes.push_back({"NORMAL", builder_.add_floats(gather<glm::vec3>(bytes, l, A::Normal, 3), AccessorType::Vec3)});
    }
    if (l.has(A::Tangent) && !flat) {
      prim.attributes.push_back({"TANGENT", builder_.add_floats(gather<glm::vec4>(bytes, l, A::Tangent, 4), AccessorType::Vec4)});
    }
    if (l.has(A::Color0)) {
      prim.attributes.push_back({"COLOR_0", builder_.add_floats(gather<glm::vec4>(bytes, l, A::Color0, 4), AccessorType::Vec4)});
    }
    if (part.skinned_material && l.has(A::Joints0) && l.has(A::Weights0)) {
      // Every influence (S1): set k holds influences 4k..4k+3 as JOINTS_k / WEIGHTS_k; slots
      // past the layout's influence count are written as zero.
      const std::size_t n = bytes.size() / l.stride;
      for (std::uint32_t set = 0; set < l.influence_sets(); ++set) {
        std::vector<std::uint16_t> joints(n * 4, 0);
        std::vector<float> weights(n * 4, 0.f);
        for (std::size_t v = 0; v < n; ++v) {
          const std::byte* row = bytes.data() + v * l.stride;
          for (std::uint32_t c = 0; c < 4 && 4 * set + c < l.influences; ++c) {
            std::memcpy(&joints[v * 4 + c], row + l.offset(A::Joints0) + 2 * (4 * set + c), 2);
            std::memcpy(&weights[v * 4 + c], row + l.offset(A::Weights0) + 4 * (4 * set + c), 4);
            // A split part (S4) indexes its sub-palette; the file indexes the skin's joints.
            if (!part.palette_joints.empty()) joints[v * 4 + c] = static_cast<std::uint16_t>(part.palette_joints[joints[v * 4 + c]]);
          }
        }
        prim.attributes.push_back({"JOINTS_" + std::to_string(set), builder_.add_uint16(joints, AccessorType::Vec4)});
        prim.attributes.push_back({"WEIGHTS_" + std::to_string(set), builder_.add_floats(weights, AccessorType::Vec4)});
      }
    }
    if (!part.indices.empty()) prim.indices = builder_.add_uint32(part.indices, AccessorType::Scalar);
    // The bufferViews say what they hold (validators ask for it; GPU loaders upload by it).
    for (const gltf::Attribute& a : prim.attributes) set_target(a.accessor, kArrayBuffer);
    if (prim.indices != kNone) set_target(prim.indices, kElementArrayBuffer);
    prim.mode = static_cast<std::uint32_t>(part.mode);
    if (part.material) prim.material = material_index_.at(part.material.get());
    if (part.morph) {
      const MorphTargetData& m = *part.morph;
      for (std::size_t t = 0; t < m.target_count(); ++t) {
        std::vector<gltf::Attribute> target;
        const std::size_t n = m.vertex_count();
        const std::vector<glm::vec3> zeros(n, glm::vec3(0.f));
        const auto& position = m.position_deltas[t].empty() ? zeros : m.position_deltas[t];
        target.push_back({"POSITION", builder_.add_floats(flatten(position), AccessorType::Vec3)});
        if (!flat && t < m.normal_deltas.size() && !m.normal_deltas[t].empty()) {
          target.push_back({"NORMAL", builder_.add_floats(flatten(m.normal_deltas[t]), AccessorType::Vec3)});
        }
        if (!flat && t < m.tangent_deltas.size() && !m.tangent_deltas[t].empty()) {
          target.push_back({"TANGENT", builder_.add_floats(flatten(m.tangent_deltas[t]), AccessorType::Vec3)});
        }
        for (const gltf::Attribute& a : target) set_target(a.accessor, kArrayBuffer);
        prim.targets.push_back(std::move(target));
      }
    }
    return prim;
  }

  void write_meshes() {
    mesh_node_.assign(model_.meshes.size(), kNone);
    for (std::size_t m = 0; m < model_.meshes.size(); ++m) {
      const ModelMesh& mesh = model_.meshes[m];
      gltf::Mesh out;
      out.name = mesh.name;
      for (const ModelMeshPart& part : mesh.parts) out.primitives.push_back(write_part(part));
      if (!mesh.morph_weights.empty()) out.weights = mesh.morph_weights;
      const auto mesh_index = static_cast<std::uint32_t>(doc().meshes.size());
      doc().meshes.push_back(std::move(out));
      const auto bone = static_cast<std::size_t>(mesh.node);
      std::uint32_t node = bone < first_bone_ ? kNone : bone_node_[bone];
      if (node == kNone || doc().nodes[node].mesh != kNone) {
        // A second mesh on one node (or one on the dropped root) gets an identity child node.
        gltf::Node extra;
        extra.name = mesh.name;
        const auto extra_index = static_cast<std::uint32_t>(doc().nodes.size());
        doc().nodes.push_back(extra);
        if (node == kNone) {
          doc().scenes[0].nodes.push_back(extra_index);
        } else {
          doc().nodes[node].children.push_back(extra_index);
        }
        node = extra_index;
      }
      doc().nodes[node].mesh = mesh_index;
      mesh_node_[m] = node;
    }
  }

  std::uint32_t node_of_joint(const Skin& skin, std::size_t palette) const {
    const int bone = skin.palette_to_scene.empty() ? -1 : skin.palette_to_scene[palette];
    if (bone < static_cast<int>(first_bone_)) {
      throw std::invalid_argument("model_to_gltf: skin '" + skin.name + "' joint " + std::to_string(palette) +
                                  " has no scene node to write");
    }
    return bone_node_[static_cast<std::size_t>(bone)];
  }

  // The deepest node that is every joint or an ancestor of it (glTF's skin.skeleton), kNone when
  // the joints hang under different scene roots. The first joint is not enough: a skin may have
  // several root joints (a hand's wrist and its fingers' metacarpals side by side).
  std::uint32_t common_root(const std::vector<std::uint32_t>& joints) {
    std::vector<std::uint32_t> parent(doc().nodes.size(), kNone);
    for (std::uint32_t n = 0; n < doc().nodes.size(); ++n) {
      for (std::uint32_t c : doc().nodes[n].children) parent[c] = n;
    }
    const auto holds = [&](std::uint32_t root, std::uint32_t node) {
      for (; node != kNone; node = parent[node]) {
        if (node == root) return true;
      }
      return false;
    };
    std::uint32_t root = joints[0];
    for (std::uint32_t j : joints) {
      while (root != kNone && !holds(root, j)) root = parent[root];
    }
    return root;
  }

  void write_skins() {
    for (const Skin& skin : model_.skins) {
      gltf::Skin out;
      out.name = skin.name;
      std::vector<float> ibm;
      for (std::size_t p = 0; p < static_cast<std::size_t>(skin.data.bone_count); ++p) {
        out.joints.push_back(node_of_joint(skin, p));
        const glm::mat4& m = skin.data.inverse_bind_pose[p];
        for (int c = 0; c < 4; ++c) {
          for (int r = 0; r < 4; ++r) ibm.push_back(m[c][r]);
        }
      }
      if (!out.joints.empty()) {
        out.inverse_bind_matrices = builder_.add_floats(ibm, AccessorType::Mat4);
        out.skeleton = common_root(out.joints);
      }
      const auto skin_index = static_cast<std::uint32_t>(doc().skins.size());
      doc().skins.push_back(std::move(out));
      for (int m : skin.meshes) doc().nodes[mesh_node_[static_cast<std::size_t>(m)]].skin = skin_index;
    }
  }

  // `end`: the clip's duration. glTF has none (a reader takes the last key time), so a track that
  // ends before it holds its last key there: the same pose (a clip holds its last key past it),
  // and the clip keeps its length, which looping depends on.
  void write_track(gltf::Animation& anim, std::uint32_t node, const BoneTrack& track, Ticks end) {
    if (track.keys.empty()) return;
    std::vector<float> times, t, r, s;
    const auto add = [&](Ticks time, const Keyframe& k) {
      times.push_back(static_cast<float>(seconds_from_ticks(time)));
      t.insert(t.end(), {k.translation.x, k.translation.y, k.translation.z});
      r.insert(r.end(), {k.rotation.x, k.rotation.y, k.rotation.z, k.rotation.w});
      s.insert(s.end(), {k.scale.x, k.scale.y, k.scale.z});
    };
    for (const Keyframe& k : track.keys) add(k.time, k);
    if (track.keys.back().time < end && static_cast<float>(seconds_from_ticks(end)) > times.back()) add(end, track.keys.back());
    const std::uint32_t input = builder_.add_floats(times, AccessorType::Scalar);
    const std::pair<const char*, std::pair<std::vector<float>*, AccessorType>> outputs[] = {
        {"translation", {&t, AccessorType::Vec3}}, {"rotation", {&r, AccessorType::Vec4}}, {"scale", {&s, AccessorType::Vec3}}};
    for (const auto& [path, data] : outputs) {
      gltf::AnimationSampler sampler{input, builder_.add_floats(*data.first, data.second), gltf::SamplerInterpolation::Linear};
      anim.channels.push_back(gltf::AnimationChannel{static_cast<std::uint32_t>(anim.samplers.size()), node, path});
      anim.samplers.push_back(sampler);
    }
  }

  void write_weights(gltf::Animation& anim, std::uint32_t node, const MorphWeightTrack& track) {
    if (track.empty()) return;
    std::vector<float> times(track.times.begin(), track.times.end());
    gltf::AnimationSampler sampler;
    sampler.input = builder_.add_floats(times, AccessorType::Scalar);
    const bool cubic = track.interpolation == Interpolation::CubicSpline && !track.in_tangents.empty();
    sampler.interpolation = track.interpolation == Interpolation::Step ? gltf::SamplerInterpolation::Step
                            : cubic                                     ? gltf::SamplerInterpolation::CubicSpline
                                                                        : gltf::SamplerInterpolation::Linear;
    std::vector<float> out;
    const std::size_t n = track.weight_count;
    for (std::size_t k = 0; k < track.times.size(); ++k) {
      if (cubic) out.insert(out.end(), track.in_tangents.begin() + static_cast<long>(k * n), track.in_tangents.begin() + static_cast<long>((k + 1) * n));
      out.insert(out.end(), track.values.begin() + static_cast<long>(k * n), track.values.begin() + static_cast<long>((k + 1) * n));
      if (cubic) out.insert(out.end(), track.out_tangents.begin() + static_cast<long>(k * n), track.out_tangents.begin() + static_cast<long>((k + 1) * n));
    }
    sampler.output = builder_.add_floats(out, AccessorType::Scalar);
    anim.channels.push_back(gltf::AnimationChannel{static_cast<std::uint32_t>(anim.samplers.size()), node, "weights"});
    anim.samplers.push_back(sampler);
  }

  void write_animation(const ModelAnimation& source) {
    gltf::Animation anim;
    anim.name = source.name;
    std::set<std::uint32_t> written;  // a joint shared by two skins is written once
    for (const Skin& skin : model_.skins) {
      const auto it = skin.data.animation_clips.find(source.name);
      if (it == skin.data.animation_clips.end()) continue;
      for (const BoneTrack& track : it->second.tracks) {
        if (track.bone_index < 0 || track.bone_index >= skin.data.bone_count) continue;
        const std::uint32_t node = node_of_joint(skin, static_cast<std::size_t>(track.bone_index));
        if (written.insert(node).second) write_track(anim, node, track, source.duration);
      }
    }
    for (const BoneTrack& track : source.scene_clip.tracks) {
      if (track.bone_index < static_cast<int>(first_bone_) || static_cast<std::size_t>(track.bone_index) >= model_.nodes.size()) continue;
      const std::uint32_t node = bone_node_[static_cast<std::size_t>(track.bone_index)];
      if (written.insert(node).second) write_track(anim, node, track, source.duration);
    }
    for (const MorphWeightChannel& channel : source.morph_channels) {
      write_weights(anim, mesh_node_[static_cast<std::size_t>(channel.mesh)], channel.track);
    }
    doc().animations.push_back(std::move(anim));
  }

  const Model& model_;
  gltf::GltfBuilder builder_;
  std::size_t first_bone_ = 1;
  std::vector<std::uint32_t> bone_node_;
  std::vector<std::uint32_t> mesh_node_;
  std::map<const Material*, std::uint32_t> material_index_;
};

}  // namespace

gltf::GltfAsset model_to_gltf(const Model& model) {
  require_no_live_animations(model, "glTF writer");
  return ModelWriter(model).write();
}

void write_gltf(const Model& model, const std::filesystem::path& path, const GltfWriteOptions& options) {
  const std::string ext = path.extension().string();
  if (ext != ".glb" && ext != ".gltf") {
    throw std::invalid_argument("write_gltf: " + path.string() + " is neither .glb nor .gltf");
  }
  const gltf::GltfAsset asset = options.meshopt ? gltf::compress_meshopt(model_to_gltf(model)) : model_to_gltf(model);
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("write_gltf: cannot open " + path.string());
  if (ext == ".glb") {
    const std::vector<std::byte> bytes = gltf::write_glb_asset(asset);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  } else {
    const std::string json = gltf::write_gltf_embedded(asset);
    out.write(json.data(), static_cast<std::streamsize>(json.size()));
  }
  if (!out) throw std::runtime_error("write_gltf: writing " + path.string() + " failed");
}

}  // namespace marrow
