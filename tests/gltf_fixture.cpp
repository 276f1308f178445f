#include "gltf_fixture.hpp"

#include <algorithm>
#include <string>

#include "marrow/core/trs.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/model/animator.hpp"

namespace marrow::test {

using gltf::AccessorType;

std::uint32_t Fixture::node(const std::string& name, glm::vec3 t, glm::quat r, glm::vec3 s) {
  gltf::Node n;
  n.name = name;
  n.translation = {t.x, t.y, t.z};
  n.rotation = {r.x, r.y, r.z, r.w};
  n.scale = {s.x, s.y, s.z};
  doc().nodes.push_back(n);
  return static_cast<std::uint32_t>(doc().nodes.size() - 1);
}

void Fixture::child(std::uint32_t parent, std::uint32_t c) { doc().nodes[parent].children.push_back(c); }

std::uint32_t Fixture::scene(const std::vector<std::uint32_t>& roots) {
  doc().scenes.push_back(gltf::Scene{"", roots});
  if (doc().scene == gltf::kNone) doc().scene = 0;
  return static_cast<std::uint32_t>(doc().scenes.size() - 1);
}

namespace {

std::vector<float> flat3(const std::vector<glm::vec3>& v) {
  std::vector<float> out;
  for (const glm::vec3& x : v) out.insert(out.end(), {x.x, x.y, x.z});
  return out;
}

}  // namespace

std::uint32_t Fixture::mesh(const MeshData& data) {
  gltf::Primitive prim;
  prim.mode = data.mode;
  prim.material = data.material;
  prim.attributes.push_back({"POSITION", builder_.add_floats(flat3(data.positions), AccessorType::Vec3)});
  if (!data.normals.empty()) prim.attributes.push_back({"NORMAL", builder_.add_floats(flat3(data.normals), AccessorType::Vec3)});
  if (!data.joints.empty()) {
    std::vector<std::uint16_t> j;
    for (const glm::u16vec4& x : data.joints) j.insert(j.end(), {x.x, x.y, x.z, x.w});
    prim.attributes.push_back({"JOINTS_0", builder_.add_uint16(j, AccessorType::Vec4)});
    std::vector<float> w;
    for (const glm::vec4& x : data.weights) w.insert(w.end(), {x.x, x.y, x.z, x.w});
    prim.attributes.push_back({"WEIGHTS_0", builder_.add_floats(w, AccessorType::Vec4)});
  }
  for (std::size_t set = 0; set < data.more_joints.size(); ++set) {
    std::vector<std::uint16_t> j;
    for (const glm::u16vec4& x : data.more_joints[set]) j.insert(j.end(), {x.x, x.y, x.z, x.w});
    prim.attributes.push_back({"JOINTS_" + std::to_string(set + 1), builder_.add_uint16(j, AccessorType::Vec4)});
  }
  for (std::size_t set = 0; set < data.more_weights.size(); ++set) {
    std::vector<float> w;
    for (const glm::vec4& x : data.more_weights[set]) w.insert(w.end(), {x.x, x.y, x.z, x.w});
    prim.attributes.push_back({"WEIGHTS_" + std::to_string(set + 1), builder_.add_floats(w, AccessorType::Vec4)});
  }
  if (!data.indices.empty()) prim.indices = builder_.add_uint32(data.indices, AccessorType::Scalar);
  for (std::size_t t = 0; t < data.position_targets.size(); ++t) {
    std::vector<gltf::Attribute> target{{"POSITION", builder_.add_floats(flat3(data.position_targets[t]), AccessorType::Vec3)}};
    if (t < data.normal_targets.size() && !data.normal_targets[t].empty()) {
      target.push_back({"NORMAL", builder_.add_floats(flat3(data.normal_targets[t]), AccessorType::Vec3)});
    }
    prim.targets.push_back(target);
  }
  gltf::Mesh m;
  m.primitives.push_back(prim);
  m.weights = data.weights_default;
  doc().meshes.push_back(m);
  return static_cast<std::uint32_t>(doc().meshes.size() - 1);
}

std::uint32_t Fixture::skin(const std::vector<std::uint32_t>& joints, const std::vector<glm::mat4>& inverse_binds,
                            std::uint32_t skeleton) {
  gltf::Skin s;
  s.joints = joints;
  s.skeleton = skeleton;
  if (!inverse_binds.empty()) {
    std::vector<float> m;
    for (const glm::mat4& x : inverse_binds) {
      for (int c = 0; c < 4; ++c) {
        for (int r = 0; r < 4; ++r) m.push_back(x[c][r]);
      }
    }
    s.inverse_bind_matrices = builder_.add_floats(m, AccessorType::Mat4);
  }
  doc().skins.push_back(s);
  return static_cast<std::uint32_t>(doc().skins.size() - 1);
}

std::uint32_t Fixture::animation(const std::string& name) {
  doc().animations.push_back(gltf::Animation{name, {}, {}});
  return static_cast<std::uint32_t>(doc().animations.size() - 1);
}

void Fixture::channel(std::uint32_t animation, std::uint32_t node, const std::string& path,
                      gltf::SamplerInterpolation interpolation, const std::vector<float>& times,
                      const std::vector<float>& values) {
  gltf::Animation& a = doc().animations[animation];
  const AccessorType type = path == "rotation" ? AccessorType::Vec4 : path == "weights" ? AccessorType::Scalar : AccessorType::Vec3;
  gltf::AnimationSampler sampler{builder_.add_floats(times, AccessorType::Scalar), builder_.add_floats(values, type),
                                 interpolation};
  a.channels.push_back(gltf::AnimationChannel{static_cast<std::uint32_t>(a.samplers.size()), node, path});
  a.samplers.push_back(sampler);
}

gltf::GltfAsset Fixture::asset() {
  gltf::GltfBuilder copy = builder_;
  return copy.finish();
}

std::vector<std::byte> Fixture::glb() { return gltf::write_glb_asset(asset()); }

Model Fixture::import(const ImportOptions& options) {
  const std::vector<std::byte> bytes = glb();
  return import_gltf(std::span<const std::byte>(bytes), options);
}

glm::mat4 node_world(const gltf::Document& doc, std::uint32_t node) {
  const auto local = [&](std::uint32_t n) {
    const gltf::Node& x = doc.nodes[n];
    return compose_trs(glm::vec3(x.translation[0], x.translation[1], x.translation[2]),
                       glm::quat(x.rotation[3], x.rotation[0], x.rotation[1], x.rotation[2]),
                       glm::vec3(x.scale[0], x.scale[1], x.scale[2]));
  };
  glm::mat4 world = local(node);
  for (bool found = true; found;) {
    found = false;
    for (std::uint32_t p = 0; p < doc.nodes.size(); ++p) {
      const auto& c = doc.nodes[p].children;
      if (std::find(c.begin(), c.end(), node) != c.end()) {
        world = local(p) * world;
        node = p;
        found = true;
        break;
      }
    }
  }
  return world;
}

std::vector<glm::vec3> posed_positions(const Model& model, std::size_t mesh, int clip, double seconds) {
  Animator animator(model);
  animator.play(clip);
  if (clip >= 0) animator.update(ticks_from_seconds(seconds), false, false);
  std::vector<glm::vec3> all, part;
  for (std::size_t p = 0; p < model.meshes[mesh].parts.size(); ++p) {
    part.resize(model.meshes[mesh].parts[p].vertex_count());
    animator.pose_part(mesh, p, part);
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

Fixture joint_chain(int count, const MeshData& mesh) {
  Fixture f;
  std::vector<std::uint32_t> joints;
  for (int i = 0; i < count; ++i) {
    joints.push_back(f.node("J" + std::to_string(i), {0, i == 0 ? 0.f : 0.1f, 0}));
    if (i > 0) f.child(joints[static_cast<std::size_t>(i - 1)], joints.back());
  }
  const auto body = f.node("Body");
  f.scene({joints[0], body});
  f.doc().nodes[body].mesh = f.mesh(mesh);
  f.doc().nodes[body].skin = f.skin(joints, {});
  return f;
}

}  // namespace marrow::test
