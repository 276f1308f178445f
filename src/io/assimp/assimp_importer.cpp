#include "marrow/io/assimp/assimp_importer.hpp"

#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <assimp/Importer.hpp>
#include <cmath>
#include <exception>
#include <map>
#include <stdexcept>
#include <string>

#include "assimp_clips.hpp"
#include "assimp_isolation.hpp"
#include "assimp_mesh.hpp"
#include "assimp_scene.hpp"
#include "assimp_skin.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/file_bytes.hpp"
#include "marrow/io/finish_import.hpp"

namespace marrow {

namespace {

// Post-processing, chosen so the aiScene keeps the file's node tree and keys:
//   Triangulate + SortByPType   one primitive kind per aiMesh (a part has one mode);
//   JoinIdenticalVertices       indexed meshes (most readers emit one vertex per corner);
//   GenSmoothNormals            only acts on meshes without normals;
//   FlipUVs                     glTF's texture origin (top left); Assimp's is bottom left;
//   ValidateDataStructure       Assimp refuses inconsistent scenes (indices, weights) itself.
// Not used: LimitBoneWeights (marrow keeps every bone weight, S1, and reduces them itself when
// ImportOptions::max_influences asks: its ties and diagnostics are marrow's), PreTransformVertices
// and OptimizeGraph (they remove nodes: non-joint ancestors and
// animated nodes), OptimizeMeshes (merges meshes across nodes), FindInvalidData (drops keys),
// MakeLeftHanded (glTF is right-handed like Assimp), GlobalScale (ImportOptions::unit_scale).
constexpr unsigned kPostProcess = aiProcess_Triangulate | aiProcess_SortByPType | aiProcess_JoinIdenticalVertices |
                                  aiProcess_GenSmoothNormals | aiProcess_FlipUVs | aiProcess_ValidateDataStructure;

void configure(Assimp::Importer& importer, const AssimpOptions& options) {
  importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, !options.skeleton_meshes);
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, 0);  // keep point and line meshes
}

void check_options(const AssimpOptions& options) {
  if (options.max_bones < 1) {
    throw std::invalid_argument("AssimpOptions::max_bones must be positive, not " + std::to_string(options.max_bones));
  }
  if (options.ticks_per_second && !(std::isfinite(*options.ticks_per_second) && *options.ticks_per_second > 0.0)) {
    throw std::invalid_argument("AssimpOptions::ticks_per_second must be finite and positive, not " +
                                std::to_string(*options.ticks_per_second));
  }
  check_import_options(options.import);
  if (options.import.scene < -1 || options.import.scene > 0) {
    throw ImportError(ImportErrorCode::IndexOutOfRange,
                      "scene " + std::to_string(options.import.scene) + " requested; Assimp gives one scene (0)");
  }
}

// What the scene holds that marrow does not import.
void note_skipped(const aiScene& scene, std::vector<Diagnostic>& diagnostics) {
  if (scene.mNumCameras > 0) {
    add_diagnostic(diagnostics, DiagnosticCode::CamerasNotImported, std::to_string(scene.mNumCameras) + " cameras",
                   static_cast<int>(scene.mNumCameras));
  }
  if (scene.mNumLights > 0) {
    add_diagnostic(diagnostics, DiagnosticCode::LightsNotImported, std::to_string(scene.mNumLights) + " lights",
                   static_cast<int>(scene.mNumLights));
  }
  if (scene.mNumTextures > 0) {
    add_diagnostic(diagnostics, DiagnosticCode::TexturesNotImported, std::to_string(scene.mNumTextures) + " embedded textures",
                   static_cast<int>(scene.mNumTextures));
  }
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
    if (scene.mMeshes[m] != nullptr && scene.mMeshes[m]->mNumAnimMeshes > 0) {
      add_diagnostic(diagnostics, DiagnosticCode::MorphTargetsNotImported,
                     "mesh " + std::to_string(m) + " ('" + scene.mMeshes[m]->mName.C_Str() + "') has " +
                         std::to_string(scene.mMeshes[m]->mNumAnimMeshes) + " morph targets (aiAnimMesh)");
    }
  }
}

Model build_model(const aiScene& scene, const AssimpOptions& options) {
  Model model;
  std::vector<Diagnostic>& diagnostics = model.diagnostics;
  if (scene.mNumMeshes > 0 && scene.mMeshes == nullptr) {
    throw ImportError(ImportErrorCode::ExternalImporter, "assimp: the scene lists meshes but holds none");
  }
  const assimp::NodeTable nodes = assimp::build_node_table(scene, options.import.limits);

  // Bones: synthetic root 0, then node i as bone i + 1 (depth-first, parents first).
  model.nodes.resize(nodes.nodes.size() + 1);
  model.nodes[0] = ModelNode{"<root>", -1, glm::mat4(1.f), -1};
  model.source.scene = 0;
  model.source.node_to_bone.resize(nodes.nodes.size());
  for (std::size_t i = 0; i < nodes.nodes.size(); ++i) {
    model.nodes[i + 1] = ModelNode{nodes.names[i], nodes.parent[i] + 1, nodes.local[i], static_cast<int>(i)};
    model.source.node_to_bone[i] = static_cast<int>(i + 1);
  }

  // Every (node, mesh) pair, in node order.
  std::vector<assimp::MeshInstance> instances;
  std::vector<bool> referenced(scene.mNumMeshes, false);
  for (std::size_t i = 0; i < nodes.nodes.size(); ++i) {
    const aiNode& node = *nodes.nodes[i];
    for (unsigned k = 0; k < node.mNumMeshes && node.mMeshes != nullptr; ++k) {
      const unsigned mesh = node.mMeshes[k];
      if (mesh >= scene.mNumMeshes || scene.mMeshes[mesh] == nullptr) {
        throw ImportError(ImportErrorCode::IndexOutOfRange, "node '" + nodes.names[i] + "' names mesh " +
                                                                std::to_string(mesh) + " of " +
                                                                std::to_string(scene.mNumMeshes));
      }
      referenced[mesh] = true;
      instances.push_back({static_cast<int>(i), mesh});
    }
  }
  const auto unreferenced = static_cast<int>(std::count(referenced.begin(), referenced.end(), false));
  if (unreferenced > 0) {
    add_diagnostic(diagnostics, DiagnosticCode::MeshWithoutNode, std::to_string(unreferenced) + " meshes hang on no node",
                   unreferenced);
  }

  // Skins (T2: only when skeletal data is wanted; T3: too many joints load static).
  assimp::BuiltSkins skins;
  if (options.load_skeletal_data) {
    skins = assimp::build_skins(scene, nodes, instances, options.max_bones, diagnostics);
  } else {
    skins.instances.resize(instances.size());
    int skinned = 0;
    for (const assimp::MeshInstance& instance : instances) {
      skinned += scene.mMeshes[instance.mesh]->mNumBones > 0 ? 1 : 0;
    }
    if (skinned > 0 || scene.mNumAnimations > 0) {
      add_diagnostic(diagnostics, DiagnosticCode::SkeletalDataNotLoaded,
                     std::to_string(skinned) + " skinned meshes load static and " +
                         std::to_string(scene.mNumAnimations) +
                         " animations are skipped (AssimpOptions::load_skeletal_data is false)");
    }
  }

  // Meshes: one part each; skinned parts share one SkinnedMaterial per (skin, material) (M3).
  const std::vector<std::shared_ptr<Material>> materials = assimp::make_materials(scene);
  std::map<std::pair<int, std::size_t>, std::shared_ptr<SkinnedMaterial>> palettes;
  ImportBudget budget(options.import.limits);  // the one account of this import (bytes, keys)
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const aiMesh& source = *scene.mMeshes[instances[i].mesh];
    const assimp::SkinAssignment& skin = skins.instances[i];
    ModelMesh mesh;
    mesh.name =
        source.mName.length > 0 ? source.mName.C_Str() : nodes.names[static_cast<std::size_t>(instances[i].node)];
    mesh.node = instances[i].node + 1;
    mesh.skin = skin.skin;
    mesh.source_mesh = static_cast<int>(instances[i].mesh);
    ModelMeshPart part = assimp::build_part(source, instances[i].mesh, skin.skin >= 0 ? &skin.bone_to_palette : nullptr,
                                            options.import, budget, diagnostics);
    const std::size_t slot = source.mMaterialIndex < scene.mNumMaterials ? source.mMaterialIndex : materials.size() - 1;
    part.material = materials[slot];
    if (skin.skin >= 0) {
      std::shared_ptr<SkinnedMaterial>& palette = palettes[{skin.skin, slot}];
      if (!palette) palette = std::make_shared<SkinnedMaterial>(options.max_bones);
      part.skinned_material = palette;
      skins.skins[static_cast<std::size_t>(skin.skin)].meshes.push_back(static_cast<int>(model.meshes.size()));
    }
    mesh.parts.push_back(std::move(part));
    model.meshes.push_back(std::move(mesh));
  }
  model.skins = std::move(skins.skins);

  if (options.load_skeletal_data) assimp::extract_animations(scene, nodes, options, budget, model, diagnostics);
  note_skipped(scene, diagnostics);

  // Whatever Assimp handed over, the model must be safe to animate and draw; checked before
  // finishing, whose palettes and bounds read the joints.
  try {
    validate(model);
  } catch (const std::invalid_argument& e) {
    throw ImportError(ImportErrorCode::InvalidDocument, std::string("the imported scene is inconsistent: ") + e.what());
  }
  // S4: the worker finishes too (the options travel to it), so its model comes back split.
  finish_import(model, options.import);  // G18, compression, S4, M2, S5, G17
  return model;
}

// Runs Assimp (which reports failure as a null scene, and is not meant to throw, but a hostile
// file may still make it throw) and builds the model; every ImportError names `where`.
template <class Read>
Model import_in_process(const std::string& where, const AssimpOptions& options, Read read) {
  Assimp::Importer importer;
  configure(importer, options);
  const aiScene* scene = nullptr;
  try {
    scene = read(importer);
  } catch (const std::exception& e) {
    throw ImportError(ImportErrorCode::ExternalImporter, where + ": assimp: " + e.what());
  }
  if (scene == nullptr) {
    const std::string error = importer.GetErrorString();
    // Assimp knows neither the extension nor the content: not a format marrow reads at all.
    const bool unknown = error.starts_with("No suitable reader found");
    throw ImportError(unknown ? ImportErrorCode::UnsupportedFormat : ImportErrorCode::ExternalImporter,
                      where + ": " + (unknown ? "not glTF, native or a format Assimp reads (" + error + ")" : "assimp: " + error));
  }
  try {
    return build_model(*scene, options);
  } catch (const ImportError& e) {
    throw ImportError(e.code(), where + ": " + e.detail());
  }
}

// import_in_process, in the limited worker process unless the options ask otherwise.
template <class Read>
Model import_with(detail::WorkerRequest request, const AssimpOptions& options, Read read) {
  check_options(options);
  if (options.isolation == AssimpOptions::Isolation::ChildProcess && detail::can_isolate()) {
    request.limits = {options.worker_memory_bytes, options.worker_cpu_seconds};
    request.options = options;
    // The native copy coming back is bounded by the total budget, not by the source file's size.
    ImportLimits read_limits = options.import.limits;
    read_limits.max_file_bytes = std::max(read_limits.max_file_bytes, read_limits.max_total_bytes);
    return detail::import_in_worker(detail::find_assimp_worker(options.worker_executable), request, read_limits);
  }
  return import_in_process(request.where, options, read);
}

}  // namespace

Model import_assimp(const std::filesystem::path& path, const AssimpOptions& options) {
  const std::string where = path.filename().string();
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw ImportError(ImportErrorCode::IoError, where + ": " + ec.message());
  check_file_size(size, options.import.limits, where);
  // Assimp reads the file itself, so the files it references resolve next to it.
  detail::WorkerRequest request;
  request.where = where;
  request.path = std::filesystem::absolute(path, ec).string();
  if (ec) throw ImportError(ImportErrorCode::IoError, where + ": " + ec.message());
  return import_with(std::move(request), options,
                     [&](Assimp::Importer& importer) { return importer.ReadFile(path.string(), kPostProcess); });
}

Model import_assimp(std::span<const std::byte> bytes, std::string_view extension_hint, const AssimpOptions& options) {
  while (!extension_hint.empty() && extension_hint.front() == '.') extension_hint.remove_prefix(1);
  const std::string hint(extension_hint);
  const std::string where = "<memory>." + hint;
  check_file_size(bytes.size(), options.import.limits, where);
  if (bytes.empty()) throw ImportError(ImportErrorCode::ExternalImporter, where + ": assimp: the buffer is empty");
  detail::WorkerRequest request;
  request.where = where;
  request.from_memory = true;
  request.extension_hint = hint;
  request.bytes = bytes;
  return import_with(std::move(request), options, [&](Assimp::Importer& importer) {
    return importer.ReadFileFromMemory(bytes.data(), bytes.size(), kPostProcess, hint.c_str());
  });
}

}  // namespace marrow
