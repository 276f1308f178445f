#pragma once
// Loading meshes for the asset-level API (seed 003; T1, T2, T3, T9, T14). glTF goes through
// marrow's importer, .marrow through the native reader, every other format through Assimp.
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "marrow/io/import_options.hpp"
#include "marrow/model/model.hpp"
#include "marrow/asset/animation_table.hpp"
#include "marrow/asset/mesh.hpp"

namespace marrow::asset {

struct ReadConfig {
  bool load_skeletal_animation_data_if_present = true;   // false: every mesh loads static
  std::optional<int> sub_mesh_index;                     // load_mesh: only this sub-mesh
  std::optional<double> animation_ticks_per_second_override;  // formats that count in ticks
  ImportOptions import;                                  // limits, scene, curve accuracy
};

// A file's meshes plus the one table (skeleton + animations) their skinned meshes share.
struct ModelBundle {
  std::vector<std::shared_ptr<Mesh>> meshes;
  std::shared_ptr<AnimationTable> table;  // null when no mesh is skeletal

  Skeleton skeleton() const { return table ? table->skeleton() : Skeleton(); }
  Animations animations() const { return table ? table->animations() : Animations(); }
};

struct MeshGroup {
  std::vector<std::shared_ptr<Mesh>> meshes;
  std::vector<std::shared_ptr<AnimationTable>> animation_tables;  // [0]: the file's shared table
};

class AssetLoader {
 public:
  // Where warnings go (meshes loaded static, skipped data); the default writes them to stderr.
  using WarningSink = std::function<void(const std::string&)>;
  AssetLoader();
  explicit AssetLoader(WarningSink sink) : sink_(std::move(sink)) {}

  // T1: every sub-mesh merged into one mesh. Skeletal data is loaded for a single sub-mesh (or
  // the one config.sub_mesh_index selects); a file with several loads static, with a warning.
  // A skeleton of more than 255 bones loads static with a warning (T3). Throws ImportError for
  // a refused file, std::out_of_range for a sub_mesh_index beyond the file's sub-meshes.
  std::shared_ptr<Mesh> load_mesh(const std::filesystem::path& path, const ReadConfig& config = {});
  // Every sub-mesh as its own mesh (each with its own skeleton over the file's Model), plus the
  // shared table (T9). The meshes and the table view one Model: nothing is copied per mesh.
  MeshGroup load_mesh_group(const std::filesystem::path& path, const ReadConfig& config = {});
  ModelBundle load_bundled_asset(const std::filesystem::path& path, const ReadConfig& config = {});

  // The same from a Model already in memory (any importer); the meshes keep it (move it in to
  // keep it without a copy).
  std::shared_ptr<Mesh> mesh_from_model(Model model, const ReadConfig& config = {});
  ModelBundle bundle_from_model(Model model, const ReadConfig& config = {});

 private:
  Model read_model(const std::filesystem::path& path, const ReadConfig& config);
  void warn(const std::string& message) const;
  WarningSink sink_;
};

}  // namespace marrow::asset
