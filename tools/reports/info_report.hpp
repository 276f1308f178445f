#pragma once
// What marrow imported from a file, gathered once for every front end: `marrow info` prints it
// (text or, with --json, the schema of ../shared/tools/oracle) and the Python module returns it
// as a dict (Model.info()). Bones and meshes are in marrow's order (bone index == scene-node
// index of the Model, mesh i == Model::meshes[i]); the source_* fields carry the file's indices.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "marrow/core/diagnostic.hpp"
#include "marrow/model/model.hpp"

namespace marrow {

struct InfoReport {
  struct Bone {
    std::size_t bone = 0;
    int node = -1;            // file node, -1 for the synthetic root
    std::string name;
    int parent_bone = -1;
    bool joint = false;       // some skin's palette holds it
  };
  struct Mesh {
    int mesh = -1;            // file mesh
    std::string name;
    int node = -1;            // file node it hangs on, -1 for the synthetic root
    int skin = -1;            // index into Model::skins
    std::size_t parts = 0;
    std::size_t vertices = 0;       // over every part
    std::size_t triangles = 0;      // over every part (strips and fans counted as triangles)
    std::vector<std::string> materials;  // distinct, in part order ("" for a part without one)
    std::size_t morph_targets = 0;  // of the last part that has any
    std::vector<float> initial_weights;
  };
  struct Skin {
    int index = -1;           // file skin
    std::string name;
    int joint_count = 0;
    std::vector<int> palette_to_node;          // file node per palette entry
    std::vector<int> palette_to_source_joint;  // ordinal in the file's joint list
    std::vector<int> palette_to_bone;
    std::vector<int> bone_to_palette;
    std::vector<int> parents;                  // palette order, parents first
    std::vector<int> meshes;
    int skeleton_root_node = -1;
  };
  struct SkeletalClip {
    std::size_t skin = 0;     // index into Model::skins; target space JointPalette
    std::size_t tracks = 0, keys = 0;
    std::size_t compressed_bytes = 0;  // the compressed clip's memory when stored compressed, else 0
  };
  struct Clip {
    std::string name;
    double duration = 0.0;    // seconds
    std::vector<SkeletalClip> skeletal;  // skins that have a clip of this name
    std::size_t rigid_tracks = 0, rigid_keys = 0;  // target space SceneNode
    std::size_t morph_channels = 0;
  };

  // The rig's humanoid map (RT1): the file's (VRM) or found from the names; none when a required
  // bone is missing (`missing` says which, with the candidates seen).
  struct Humanoid {
    bool found = false;
    bool from_file = false;
    std::vector<std::pair<std::string, std::size_t>> bones;  // VRM bone name, model bone
    std::vector<std::string> notes;
    std::string missing;
  };

  int scene = -1;
  Humanoid humanoid;
  std::vector<Bone> bones;
  std::vector<Mesh> meshes;
  std::vector<Skin> skins;
  std::vector<Clip> clips;
  std::vector<Diagnostic> diagnostics;
};

InfoReport make_info_report(const Model& model);

}  // namespace marrow
