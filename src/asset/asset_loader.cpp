#include "marrow/asset/asset_loader.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "marrow/io/model_file.hpp"
#include "mesh_assembly.hpp"

namespace marrow::asset {

namespace {

// The model nodes a set of skins needs: their joints and every ancestor up to the file's root
// (T4: non-joint ancestors are part of the skeleton). The skins' joints are all in the scene
// (skeletal_skin).
std::vector<int> skin_skeleton_nodes(const Model& model, const std::vector<int>& skins) {
  std::vector<bool> keep(model.nodes.size(), false);
  for (int s : skins) {
    for (int bone : model.skins[static_cast<std::size_t>(s)].palette_to_scene) {
      for (int b = bone; b > 0 && !keep[static_cast<std::size_t>(b)]; b = model.nodes[static_cast<std::size_t>(b)].parent) {
        keep[static_cast<std::size_t>(b)] = true;
      }
    }
  }
  std::vector<int> bones;
  int roots = 0;
  for (std::size_t b = 1; b < keep.size(); ++b) {
    if (!keep[b]) continue;
    bones.push_back(static_cast<int>(b));
    if (model.nodes[b].parent == 0) ++roots;
  }
  // One root: several file roots hang under the synthetic root bone.
  if (roots > 1) bones.insert(bones.begin(), 0);
  return bones;
}

// The skeleton of a skin over the shared model: its nodes (skin_skeleton_nodes), each node the bone
// of its palette entry (loaded meshes' bones are their skin's palette entries), or -1.
std::shared_ptr<SkeletonNodes> skeleton_of(const std::shared_ptr<SharedModel>& shared, const std::vector<int>& skins,
                                           int skin) {
  auto nodes = std::make_shared<SkeletonNodes>();
  nodes->shared = shared;
  nodes->model_nodes = skin_skeleton_nodes(shared->model, skins);
  nodes->node_bones.assign(nodes->model_nodes.size(), -1);
  if (skin >= 0) {
    const Skin& s = shared->model.skins[static_cast<std::size_t>(skin)];
    for (std::size_t i = 0; i < nodes->model_nodes.size(); ++i) {
      nodes->node_bones[i] = s.scene_to_palette[static_cast<std::size_t>(nodes->model_nodes[i])];
    }
  }
  return nodes;
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

// One mesh viewing some of the shared model's meshes: skeletal when `skin` >= 0 (the one
// sub-mesh's skin, its bones the skin's palette entries), otherwise static (posed at rest).
std::shared_ptr<Mesh> build_mesh(const std::shared_ptr<SharedModel>& shared, std::vector<int> meshes, int skin,
                                 const std::string& name) {
  std::shared_ptr<Mesh> mesh;
  if (skin >= 0) {
    std::vector<int> bone_joints(shared->model.skins[static_cast<std::size_t>(skin)].palette_to_scene.size());
    for (std::size_t p = 0; p < bone_joints.size(); ++p) bone_joints[p] = static_cast<int>(p);
    mesh = MeshAssembly::view(name, shared, std::move(meshes), skin, skeleton_of(shared, {skin}, skin), std::move(bone_joints));
  } else {
    mesh = MeshAssembly::view(name, shared, std::move(meshes));
  }
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
  if (std::any_of(s.palette_to_scene.begin(), s.palette_to_scene.end(), [](int node) { return node < 0; })) {
    warn("mesh " + std::to_string(mesh) + ": a joint lies outside the scene: loaded as a static mesh");
    return -1;
  }
  return skin;
}

}  // namespace

std::shared_ptr<Mesh> AssetLoader::mesh_from_model(Model model, const ReadConfig& config) {
  std::vector<int> meshes;
  if (config.sub_mesh_index) {
    if (*config.sub_mesh_index < 0 || static_cast<std::size_t>(*config.sub_mesh_index) >= model.meshes.size()) {
      throw std::out_of_range("AssetLoader: sub_mesh_index " + std::to_string(*config.sub_mesh_index) + " of " +
                              std::to_string(model.meshes.size()) + " sub-meshes");
    }
    meshes = {*config.sub_mesh_index};
  } else {
    for (std::size_t m = 0; m < model.meshes.size(); ++m) meshes.push_back(static_cast<int>(m));
  }
  const auto warn_fn = [this](const std::string& m) { warn(m); };
  int skin = -1;
  if (meshes.size() == 1) {
    skin = skeletal_skin(model, static_cast<std::size_t>(meshes[0]), config, warn_fn);
  } else if (config.load_skeletal_animation_data_if_present &&
             std::any_of(model.meshes.begin(), model.meshes.end(), [](const ModelMesh& m) { return m.skin >= 0; })) {
    warn("load_mesh: " + std::to_string(meshes.size()) +
         " sub-meshes merged into one static mesh; select one with ReadConfig::sub_mesh_index, or use "
         "load_mesh_group / load_bundled_asset, to keep skeletal data");
  }
  const std::string name = meshes.size() == 1 ? model.meshes[static_cast<std::size_t>(meshes[0])].name : std::string();
  return build_mesh(std::make_shared<SharedModel>(std::move(model)), std::move(meshes), skin, name);
}

ModelBundle AssetLoader::bundle_from_model(Model model, const ReadConfig& config) {
  ModelBundle bundle;
  const auto warn_fn = [this](const std::string& m) { warn(m); };
  std::vector<int> skins;          // skins of the skeletal meshes
  std::vector<int> mesh_skin;      // per bundle mesh
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const int skin = skeletal_skin(model, m, config, warn_fn);
    mesh_skin.push_back(skin);
    if (skin >= 0 && std::find(skins.begin(), skins.end(), skin) == skins.end()) skins.push_back(skin);
  }
  const auto shared = std::make_shared<SharedModel>(std::move(model));
  for (std::size_t m = 0; m < shared->model.meshes.size(); ++m) {
    bundle.meshes.push_back(build_mesh(shared, {static_cast<int>(m)}, mesh_skin[m], shared->model.meshes[m].name));
  }
  if (skins.empty()) return bundle;
  // T9: one skeleton for every skeletal mesh, and the animations over it: views of the same Model.
  bundle.table = std::make_shared<AnimationTable>(skeleton_of(shared, skins, -1));
  for (std::size_t m = 0; m < bundle.meshes.size(); ++m) {
    if (mesh_skin[m] >= 0) bundle.table->add_member(*bundle.meshes[m]);
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
