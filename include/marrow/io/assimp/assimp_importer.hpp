#pragma once
// Every non-glTF format Assimp reads (FBX, Collada, BVH, OBJ, X, ...) -> Model, with the same
// conventions as import_gltf (see docs/formats.md for the mapping and the quirks found):
//   - the aiNode tree flattens depth-first into bones under a synthetic root bone 0: the aiScene
//     root node is bone 1, bone b is the node with depth-first index b - 1 (ModelNode::source_node);
//   - each (node, aiMesh) pair is a ModelMesh with one part hung on its node's bone;
//   - a skinned mesh's joints are its bones' nodes plus every node on the parent chain between
//     two of them, ordered breadth-first; inverse binds are aiBone::mOffsetMatrix (inverse of the
//     rest world transform for the added in-between nodes); a root joint's prefix is
//     inverse(W_meshNode) * W_parent, so the palette is the glTF joint matrix and the skinned
//     vertex lands in world space at W_bone * offset * v (Assimp's convention). Meshes whose
//     nodes have the same world transform and whose common bones have the same offsets share
//     one Skin (Assimp splits one Collada controller or FBX skin per material);
//   - animations are keyed at the union of each node's position/rotation/scaling key times
//     (linear, slerp); channels on joints go to the skin's JointPalette clip, the others to the
//     animation's SceneNode clip (G9, G10); seconds = ticks / ticks_per_second (T2);
//   - more than max_bones joints: that mesh loads static with the diagnostic
//     "palette-limit-loaded-static" (T3); four influences per vertex, renormalised (T16).
// Refused files throw ImportError (ExternalImporter when Assimp refuses them, LimitExceeded for
// ImportLimits); accepted ones carry Model::diagnostics for what was not imported.
//
// Thread safety: each call uses its own Assimp::Importer; calls may run concurrently.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>

#include "marrow/io/import_options.hpp"
#include "marrow/model/model.hpp"

namespace marrow {

struct AssimpOptions {
  // limits, unit_scale and scene (only -1 or 0: Assimp gives one scene) apply; max_palette and
  // palette_policy are replaced by max_bones below with PalettePolicy::LoadStatic (seed 003),
  // except PalettePolicy::Split, which splits the parts of skins over max_palette joints (S4).
  // union_only and curve_tolerance do not apply: Assimp keys are linear.
  ImportOptions import;
  int max_bones = 255;  // more joints in a mesh's skeleton -> that mesh loads static, with a diagnostic (T3)
  std::optional<double> ticks_per_second;  // override; else the file's, else 25 when the format records none (T2)
  bool load_skeletal_data = true;          // false: every mesh loads static and animations are not loaded (T2)
  // Assimp invents a bone-visualisation mesh for files that hold a skeleton but no geometry
  // (Collada, BVH). Off by default: marrow imports what the file holds.
  bool skeleton_meshes = false;

  // Assimp's parsers are third-party code that can, on a hostile file, allocate without bound,
  // spin, or crash. By default (on POSIX) each import runs Assimp in the worker executable
  // marrow-assimp-worker, started with posix_spawn (never a fork of the calling process, so a
  // multithreaded engine is safe), limited to worker_memory_bytes of address space and
  // worker_cpu_seconds of CPU; the worker returns the model in marrow's native format, which
  // the caller's process reads with its own validating reader. A worker that dies or hits a
  // limit is an ImportError (ExternalImporter) instead of the end of the caller's process.
  // InProcess skips the worker (faster, trusted files only).
  enum class Isolation { ChildProcess, InProcess };
  Isolation isolation = Isolation::ChildProcess;
  std::uint64_t worker_memory_bytes = 4ull << 30;
  unsigned worker_cpu_seconds = 120;
  // The worker to start. Empty: $MARROW_ASSIMP_WORKER, else marrow-assimp-worker next to the
  // program (or the shared object marrow is linked into), in marrow's build tree, or in
  // <prefix>/libexec/marrow where `cmake --install` puts it; none found is an ImportError saying so.
  std::filesystem::path worker_executable;
};

// A file; files it references (textures, .mtl, .bin) are read by Assimp next to it. Throws
// ImportError: IoError (cannot be read), LimitExceeded (larger than max_file_bytes),
// ExternalImporter (Assimp refuses it), InvalidMesh / InvalidAnimation / InvalidDocument (data
// marrow cannot represent safely), IndexOutOfRange (a scene other than -1 or 0). Throws
// std::invalid_argument for options out of range (max_bones < 1, a ticks_per_second override
// that is not finite and positive).
Model import_assimp(const std::filesystem::path& path, const AssimpOptions& options = {});

// From memory; extension_hint ("fbx", ".dae", ...) tells Assimp the format. External
// references cannot be resolved.
Model import_assimp(std::span<const std::byte> bytes, std::string_view extension_hint,
                    const AssimpOptions& options = {});

}  // namespace marrow
