#include "marrow/io/gltf/gltf_importer.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "gltf_clips.hpp"
#include "gltf_draco.hpp"
#include "gltf_mesh_builder.hpp"
#include "gltf_meshopt.hpp"
#include "gltf_scene_graph.hpp"
#include "gltf_skeleton.hpp"
#include "gltf_vrm_humanoid.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/file_bytes.hpp"
#include "marrow/io/file_signature.hpp"
#include "marrow/io/finish_import.hpp"
#include "marrow/io/gltf/detail/gltf_buffers.hpp"

namespace marrow {

namespace {

using gltf::kNone;

std::vector<std::shared_ptr<Material>> make_materials(const gltf::Document& doc) {
  std::vector<std::shared_ptr<Material>> out;
  for (std::size_t i = 0; i < doc.materials.size(); ++i) {
    const gltf::Material& m = doc.materials[i];
    out.push_back(std::make_shared<Material>(Material{
        m.name, glm::vec4(m.base_color_factor[0], m.base_color_factor[1], m.base_color_factor[2], m.base_color_factor[3]),
        m.double_sided, static_cast<int>(i)}));
  }
  out.push_back(std::make_shared<Material>(Material{"default", glm::vec4(1.f), false, -1}));  // for kNone
  return out;
}

// The mesh nodes of the scene that use each skin, grouped by their world transform: the root
// prefix cancels the mesh node's transform, so each distinct one needs its own palette. The
// transforms are compared once, here; afterwards a mesh node finds its group by its index.
struct SkinGroup {
  std::uint32_t skin;
  glm::mat4 mesh_world;
};

struct SkinGroups {
  std::vector<SkinGroup> groups;
  std::vector<int> node_group;  // by glTF node: its group, -1 for a node without a skinned mesh
};

SkinGroups skin_groups(const gltf::Document& doc, const gltf::SceneGraph& graph) {
  SkinGroups out;
  out.node_group.assign(doc.nodes.size(), -1);
  for (std::uint32_t s = 0; s < doc.skins.size(); ++s) {
    const std::size_t first = out.groups.size();
    for (std::size_t bone = 1; bone < graph.bone_to_node.size(); ++bone) {
      const std::uint32_t node = graph.bone_to_node[bone];
      if (doc.nodes[node].skin != s || doc.nodes[node].mesh == kNone) continue;
      std::size_t g = first;
      while (g < out.groups.size() && !(out.groups[g].mesh_world == graph.world[node])) ++g;
      if (g == out.groups.size()) out.groups.push_back(SkinGroup{s, graph.world[node]});
      out.node_group[node] = static_cast<int>(g);
    }
    if (out.groups.size() == first) out.groups.push_back(SkinGroup{s, glm::mat4(1.f)});  // M5: unused skins are kept
  }
  return out;
}

std::vector<float> initial_weights(const gltf::Document& doc, std::uint32_t node, std::uint32_t mesh,
                                   std::vector<Diagnostic>& diagnostics) {
  const std::size_t targets = gltf::morph_target_count(doc, mesh);
  const std::vector<float>& given = !doc.nodes[node].weights.empty() ? doc.nodes[node].weights : doc.meshes[mesh].weights;
  std::vector<float> weights(targets, 0.f);
  if (!given.empty() && given.size() != targets) {
    add_diagnostic(diagnostics, DiagnosticCode::MorphWeightCountMismatch,
                   "node " + std::to_string(node) + " / mesh " + std::to_string(mesh) + ": " +
                       std::to_string(given.size()) + " weights for " + std::to_string(targets) + " targets");
  }
  for (std::size_t i = 0; i < targets && i < given.size(); ++i) weights[i] = given[i];
  return weights;
}

}  // namespace

Model import_gltf(const gltf::GltfAsset& asset, const ImportOptions& options) {
  check_import_options(options);
  const gltf::Document& doc = asset.document;
  Model model;
  std::vector<Diagnostic>& diagnostics = model.diagnostics;
  const gltf::SceneGraph graph = gltf::build_scene_graph(doc, options.scene);
  // Everything this import allocates counts against max_total_bytes (ImportBudget).
  ImportBudget budget(options.limits);

  // G1: bones.
  model.nodes.resize(graph.bone_to_node.size());
  model.nodes[0] = ModelNode{"<root>", -1, glm::mat4(1.f), -1};
  for (std::size_t b = 1; b < model.nodes.size(); ++b) {
    const std::uint32_t node = graph.bone_to_node[b];
    model.nodes[b] = ModelNode{doc.nodes[node].name, graph.bone_parent[b], graph.local[node], static_cast<int>(node)};
  }
  model.source.scene = graph.scene;
  model.source.node_to_bone = graph.node_to_bone;
  model.humanoid = gltf::vrm_humanoid_map(doc, model, diagnostics);  // RT1: VRM's own map

  // G2-G4, G8: skins, one per (file skin, mesh-node transform).
  std::vector<gltf::BuiltSkin> built;
  const SkinGroups grouped = skin_groups(doc, graph);
  const std::vector<SkinGroup>& groups = grouped.groups;
  std::vector<bool> static_skin(doc.skins.size(), false);
  for (const SkinGroup& group : groups) {
    if (doc.skins[group.skin].joints.size() > static_cast<std::size_t>(options.max_palette) &&
        options.palette_policy == PalettePolicy::LoadStatic) {
      if (!static_skin[group.skin]) {
        add_diagnostic(diagnostics, DiagnosticCode::PaletteLimitLoadedStatic,
                       "skin " + std::to_string(group.skin) + " has " + std::to_string(doc.skins[group.skin].joints.size()) +
                           " joints, more than " + std::to_string(options.max_palette) + ": its meshes load unskinned");
      }
      static_skin[group.skin] = true;
      continue;
    }
    built.push_back(gltf::build_skin(asset, graph, group.skin, group.mesh_world, options));
  }
  // Built skins are in group order, skipping the ones loaded static.
  std::vector<int> group_to_built(groups.size(), -1);
  for (std::size_t g = 0, b = 0; g < groups.size(); ++g) {
    if (!static_skin[groups[g].skin]) group_to_built[g] = static_cast<int>(b++);
  }

  // Meshes, in scene order; skinned parts share one SkinnedMaterial per (skin, material).
  const std::vector<std::shared_ptr<Material>> materials = make_materials(doc);
  std::map<std::pair<int, std::size_t>, std::shared_ptr<SkinnedMaterial>> palettes;
  const int palette_size = std::max(options.max_palette, 1);
  for (std::size_t b = 1; b < graph.bone_to_node.size(); ++b) {
    const std::uint32_t node = graph.bone_to_node[b];
    const std::uint32_t mesh_index = doc.nodes[node].mesh;
    if (mesh_index == kNone) continue;
    const gltf::Mesh& source = doc.meshes[mesh_index];
    ModelMesh mesh;
    mesh.name = source.name;
    mesh.node = static_cast<int>(b);
    mesh.source_mesh = static_cast<int>(mesh_index);
    mesh.morph_weights = initial_weights(doc, node, mesh_index, diagnostics);
    const std::uint32_t file_skin = doc.nodes[node].skin;
    const int group = grouped.node_group[node];
    mesh.skin = file_skin == kNone || group < 0 ? -1 : group_to_built[static_cast<std::size_t>(group)];
    gltf::PartSkinning skinning;
    skinning.max_influences = options.max_influences;
    if (mesh.skin >= 0) {
      skinning.source_to_palette = &built[static_cast<std::size_t>(mesh.skin)].source_to_palette;
      skinning.skin = file_skin;
    }
    for (std::uint32_t p = 0; p < source.primitives.size(); ++p) {
      gltf::PartRequest request{mesh_index, p, mesh.skin >= 0 ? &skinning : nullptr, &mesh.morph_weights};
      ModelMeshPart part = gltf::build_part(asset, request, budget, diagnostics);
      const std::uint32_t material = source.primitives[p].material;
      const std::size_t material_slot = material == kNone ? materials.size() - 1 : material;
      part.material = materials[material_slot];
      if (mesh.skin >= 0) {
        std::shared_ptr<SkinnedMaterial>& palette = palettes[{mesh.skin, material_slot}];
        if (!palette) palette = std::make_shared<SkinnedMaterial>(palette_size);
        part.skinned_material = palette;
      }
      mesh.parts.push_back(std::move(part));
    }
    if (mesh.skin >= 0) built[static_cast<std::size_t>(mesh.skin)].skin.meshes.push_back(static_cast<int>(model.meshes.size()));
    model.meshes.push_back(std::move(mesh));
  }
  for (gltf::BuiltSkin& b : built) model.skins.push_back(std::move(b.skin));

  gltf::extract_animations(asset, graph, options, budget, model, diagnostics);

  finish_import(model, options);  // G18, compression, S4, M2, S5, G17
  return model;
}

namespace {

gltf::GltfAsset load_asset(std::span<const std::byte> bytes, const ImportOptions& options,
                           const std::filesystem::path* base_dir, bool borrow, std::vector<Diagnostic>& diagnostics) {
  check_file_size(bytes.size(), options.limits, "");
  // Name what the bytes are before a JSON parser reports them as broken JSON.
  const Container container = detect_container(bytes);
  if (container.kind == ContainerKind::Empty) throw ImportError(ImportErrorCode::EmptyFile, "empty file");
  if (container.kind != ContainerKind::Glb && container.kind != ContainerKind::GltfJson && !container.name.empty()) {
    throw ImportError(ImportErrorCode::UnsupportedFormat, "not a glTF file (" + std::string(container.name) + " signature)");
  }
  gltf::BufferSources sources;
  sources.base_dir = base_dir;
  sources.borrow_glb_bin = borrow;
  gltf::GltfAsset asset = gltf::read_gltf_asset(bytes, sources, options.limits, diagnostics);
  if (borrow && sources.has_glb_bin && !asset.document.buffers.empty() && asset.document.buffers[0].uri.empty() &&
      !asset.document.buffers[0].meshopt_fallback) {
    asset.borrowed_bin = sources.glb_bin.first(static_cast<std::size_t>(asset.document.buffers[0].byte_length));
    asset.has_borrowed_bin = true;
  }
  // Compressed geometry becomes plain buffers here, so everything after reads accessors as usual.
  // The buffers and what is decoded from them share one budget.
  ImportBudget budget(options.limits);
  std::uint64_t loaded = 0;
  for (const gltf::Buffer& b : asset.document.buffers) loaded += b.meshopt_fallback ? 0 : b.byte_length;
  budget.charge(loaded, "buffers");
  gltf::decode_meshopt_views(asset, budget);
  gltf::decode_draco_primitives(asset, budget);
  return asset;
}

}  // namespace

gltf::GltfAsset load_gltf_asset(std::span<const std::byte> bytes, const ImportOptions& options,
                                const std::filesystem::path* base_dir, std::vector<Diagnostic>& diagnostics) {
  check_import_options(options);
  return load_asset(bytes, options, base_dir, false, diagnostics);
}

Model import_gltf(std::span<const std::byte> bytes, const ImportOptions& options, const std::filesystem::path* base_dir) {
  check_import_options(options);
  std::vector<Diagnostic> diagnostics;
  // The asset lives only inside this call, so the GLB's binary chunk is read in place.
  const gltf::GltfAsset asset = load_asset(bytes, options, base_dir, true, diagnostics);
  Model model = import_gltf(asset, options);
  // One entry per code (add_diagnostic): the reader and the importer may both report one (VRM's
  // humanoid map: entries of the wrong shape, then entries naming no bone of the scene).
  for (const Diagnostic& d : model.diagnostics) add_diagnostic(diagnostics, d.code, d.message, d.count);
  model.diagnostics = std::move(diagnostics);
  return model;
}

Model import_gltf(const std::filesystem::path& path, const ImportOptions& options) {
  check_import_options(options);
  // Mapped, not copied: the bytes live only for this call and the Model keeps none of them.
  const FileBytes bytes = read_file(path, options.limits);
  const std::filesystem::path base_dir = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  try {
    return import_gltf(bytes.bytes(), options, &base_dir);
  } catch (const ImportError& e) {
    throw ImportError(e.code(), path.filename().string() + ": " + e.detail());
  }
}

}  // namespace marrow
