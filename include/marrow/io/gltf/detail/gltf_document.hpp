#pragma once
// A typed glTF 2.0 document: what parse_gltf_json produces after validating every property and
// cross-reference, and what serialize_gltf_json writes. It mirrors the JSON closely (indices are
// the file's own) and holds no buffer bytes; see GltfAsset for a document with its buffers.
//
// Optional indices use kNone. Every index held here is checked against its array when parsed,
// so importer code may index with it directly. Every struct compares member-wise (==), which is
// how round trips are checked.
#include <array>
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace marrow::gltf {

inline constexpr std::uint32_t kNone = 0xffffffffu;

enum class ComponentType : std::uint32_t {
  Byte = 5120,
  UnsignedByte = 5121,
  Short = 5122,
  UnsignedShort = 5123,
  UnsignedInt = 5125,
  Float = 5126,
};

enum class AccessorType : std::uint8_t { Scalar, Vec2, Vec3, Vec4, Mat2, Mat3, Mat4 };

std::uint32_t component_size(ComponentType t) noexcept;        // bytes: 1, 2, 4
std::uint32_t component_count(AccessorType t) noexcept;        // 1, 2, 3, 4, 4, 9, 16
const char* accessor_type_name(AccessorType t) noexcept;       // "SCALAR", "VEC3", ...

struct Asset {
  std::string version = "2.0";
  std::string min_version;
  std::string generator;

  friend bool operator==(const Asset&, const Asset&) = default;
};

struct Buffer {
  std::string uri;                 // empty: the GLB binary chunk (buffer 0 only) or none
  std::uint64_t byte_length = 0;
  std::string name;
  // EXT_meshopt_compression "fallback": the buffer has no bytes of its own (no uri allowed); only
  // the meshopt-compressed views that decode into its range are read.
  bool meshopt_fallback = false;

  friend bool operator==(const Buffer&, const Buffer&) = default;
};

// EXT_meshopt_compression on a bufferView: its bytes are decoded from a range of another buffer.
enum class MeshoptMode : std::uint8_t { Attributes, Triangles, Indices };
enum class MeshoptFilter : std::uint8_t { None, Octahedral, Quaternion, Exponential };

struct MeshoptCompression {
  std::uint32_t buffer = 0;        // the compressed bytes: buffer, byteOffset, byteLength
  std::uint64_t byte_offset = 0;
  std::uint64_t byte_length = 0;
  std::uint32_t byte_stride = 0;   // bytes per decoded element
  std::uint64_t count = 0;         // decoded elements (count * byte_stride == the view's byteLength)
  MeshoptMode mode = MeshoptMode::Attributes;
  MeshoptFilter filter = MeshoptFilter::None;

  friend bool operator==(const MeshoptCompression&, const MeshoptCompression&) = default;
};

struct BufferView {
  std::uint32_t buffer = 0;
  std::uint64_t byte_offset = 0;
  std::uint64_t byte_length = 0;
  std::uint32_t byte_stride = 0;   // 0 = tightly packed (property absent)
  std::uint32_t target = 0;        // 0 = absent; 34962 ARRAY_BUFFER, 34963 ELEMENT_ARRAY_BUFFER
  std::string name;
  std::optional<MeshoptCompression> meshopt;

  friend bool operator==(const BufferView&, const BufferView&) = default;
};

struct SparseAccessor {
  std::uint64_t count = 0;
  std::uint32_t indices_buffer_view = 0;
  std::uint64_t indices_byte_offset = 0;
  ComponentType indices_component_type = ComponentType::UnsignedInt;  // UnsignedByte/Short/Int only
  std::uint32_t values_buffer_view = 0;
  std::uint64_t values_byte_offset = 0;

  friend bool operator==(const SparseAccessor&, const SparseAccessor&) = default;
};

struct Accessor {
  std::uint32_t buffer_view = kNone;  // kNone: all zeros (then sparse values, if any)
  std::uint64_t byte_offset = 0;
  ComponentType component_type = ComponentType::Float;
  bool normalized = false;
  std::uint64_t count = 0;
  AccessorType type = AccessorType::Scalar;
  std::vector<double> min, max;       // empty when absent
  std::optional<SparseAccessor> sparse;
  std::string name;

  friend bool operator==(const Accessor&, const Accessor&) = default;
};

struct Node {
  std::string name;
  std::vector<std::uint32_t> children;
  std::uint32_t mesh = kNone;
  std::uint32_t skin = kNone;
  std::uint32_t camera = kNone;
  bool has_matrix = false;            // matrix given (then translation/rotation/scale are defaults)
  std::array<float, 16> matrix{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};  // column-major
  std::array<float, 3> translation{0, 0, 0};
  std::array<float, 4> rotation{0, 0, 0, 1};  // x, y, z, w
  std::array<float, 3> scale{1, 1, 1};
  std::vector<float> weights;         // morph weights; empty when absent

  friend bool operator==(const Node&, const Node&) = default;
};

// One attribute semantic of a primitive or morph target, e.g. {"POSITION", 3}.
struct Attribute {
  std::string semantic;
  std::uint32_t accessor = 0;

  friend bool operator==(const Attribute&, const Attribute&) = default;
};

// KHR_draco_mesh_compression on a primitive: its indices and the named attributes are decoded
// from a Draco bitstream; the accessors keep their count, type and componentType.
struct DracoAttribute {
  std::string semantic;
  std::uint32_t id = 0;  // the Draco attribute's unique id

  friend bool operator==(const DracoAttribute&, const DracoAttribute&) = default;
};

struct DracoCompression {
  std::uint32_t buffer_view = 0;
  std::vector<DracoAttribute> attributes;

  friend bool operator==(const DracoCompression&, const DracoCompression&) = default;
};

struct Primitive {
  std::vector<Attribute> attributes;
  std::uint32_t indices = kNone;
  std::uint32_t material = kNone;
  std::uint32_t mode = 4;             // 0 points .. 6 triangle fan; 4 triangles
  std::vector<std::vector<Attribute>> targets;  // morph targets: POSITION/NORMAL/TANGENT deltas
  std::optional<DracoCompression> draco;

  // The accessor of a semantic, or kNone.
  std::uint32_t find(const std::string& semantic) const noexcept;

  friend bool operator==(const Primitive&, const Primitive&) = default;
};

struct Mesh {
  std::string name;
  std::vector<Primitive> primitives;
  std::vector<float> weights;         // default morph weights; empty when absent
  std::vector<std::string> target_names;  // extras.targetNames, when present

  friend bool operator==(const Mesh&, const Mesh&) = default;
};

struct Skin {
  std::string name;
  std::uint32_t inverse_bind_matrices = kNone;  // kNone: identity matrices
  std::uint32_t skeleton = kNone;
  std::vector<std::uint32_t> joints;

  friend bool operator==(const Skin&, const Skin&) = default;
};

enum class SamplerInterpolation : std::uint8_t { Linear, Step, CubicSpline };

struct AnimationSampler {
  std::uint32_t input = 0;   // accessor of key times (float scalar)
  std::uint32_t output = 0;  // accessor of values (3 per key for CubicSpline: in-tangent, value, out-tangent)
  SamplerInterpolation interpolation = SamplerInterpolation::Linear;

  friend bool operator==(const AnimationSampler&, const AnimationSampler&) = default;
};

// A KHR_animation_pointer channel (path "pointer") whose pointer names what a standard channel
// animates is read as that channel: "/nodes/i/translation|rotation|scale|weights" as node i and
// that path, "/meshes/i/weights" as path "weights" of mesh i (its default weights). Any other
// pointer keeps path "pointer" and the pointer text, for the importer to count.
struct AnimationChannel {
  std::uint32_t sampler = 0;
  std::uint32_t node = kNone;  // kNone: no target node (ignored, as the spec allows)
  std::string path;            // "translation", "rotation", "scale", "weights", or another path
  std::uint32_t mesh = kNone;  // "/meshes/i/weights" pointers: the mesh whose weights move
  std::string pointer{};       // KHR_animation_pointer's pointer when it is none of the above

  friend bool operator==(const AnimationChannel&, const AnimationChannel&) = default;
};

struct Animation {
  std::string name;
  std::vector<AnimationChannel> channels;
  std::vector<AnimationSampler> samplers;

  friend bool operator==(const Animation&, const Animation&) = default;
};

struct Scene {
  std::string name;
  std::vector<std::uint32_t> nodes;

  friend bool operator==(const Scene&, const Scene&) = default;
};

struct Material {
  std::string name;
  std::array<float, 4> base_color_factor{1, 1, 1, 1};
  bool double_sided = false;
  std::string alpha_mode = "OPAQUE";

  friend bool operator==(const Material&, const Material&) = default;
};

struct Image {
  std::string name;
  std::string uri;
  std::uint32_t buffer_view = kNone;
  std::string mime_type;

  friend bool operator==(const Image&, const Image&) = default;
};

// One entry of VRM's humanoid bone map, as the file gives it: the bone's name (VRM 1.0's, or
// 0.x's when version is 0) and its node. The importer reads the names (humanoid_bone_named) and
// places the nodes in the model (ModelSource::node_to_bone).
struct VrmHumanBone {
  std::string bone;
  std::uint32_t node = 0;

  friend bool operator==(const VrmHumanBone&, const VrmHumanBone&) = default;
};

// VRM's humanoid map: extensions.VRMC_vrm.humanoid.humanBones (VRM 1.0: an object
// {"hips": {"node": 3}, ...}), or, in a file without it, extensions.VRM.humanoid.humanBones
// (VRM 0.x: an array [{"bone": "hips", "node": 3}, ...]). Entries the reader could not use (a
// wrong type, a node out of range) are left out with a vrm-humanoid-entry-ignored diagnostic;
// the order is the file's.
struct VrmHumanoid {
  int version = 1;  // 1 (VRMC_vrm) or 0 (VRM 0.x)
  std::vector<VrmHumanBone> bones;

  friend bool operator==(const VrmHumanoid&, const VrmHumanoid&) = default;
};

struct Document {
  Asset asset;
  std::uint32_t scene = kNone;  // the default scene, kNone when absent
  std::vector<Scene> scenes;
  std::vector<Node> nodes;
  std::vector<Mesh> meshes;
  std::vector<Material> materials;
  std::vector<Skin> skins;
  std::vector<Animation> animations;
  std::vector<Accessor> accessors;
  std::vector<BufferView> buffer_views;
  std::vector<Buffer> buffers;
  std::vector<Image> images;
  std::uint32_t texture_count = 0;  // textures are not read; kept so material references validate
  std::uint32_t camera_count = 0;   // cameras are not read; kept so node.camera indices validate
  std::vector<std::string> extensions_used;
  std::vector<std::string> extensions_required;
  std::optional<VrmHumanoid> vrm_humanoid;  // VRM's humanoid map, when the file has one

  friend bool operator==(const Document&, const Document&) = default;
};

// A document with the bytes of each of its buffers (same order as Document::buffers).
struct GltfAsset {
  Document document;
  std::vector<std::vector<std::byte>> buffers;
  // When set, buffer 0 is these bytes (a GLB BIN chunk read in place, not copied) and buffers[0]
  // is left empty. They belong to the caller and must outlive the asset; only importer paths
  // that keep the asset inside one call use this.
  std::span<const std::byte> borrowed_bin{};
  bool has_borrowed_bin = false;

  // The bytes of buffer i (i < buffers.size()).
  std::span<const std::byte> buffer(std::size_t i) const noexcept {
    return i == 0 && has_borrowed_bin ? borrowed_bin : std::span<const std::byte>(buffers[i]);
  }

  friend bool operator==(const GltfAsset& a, const GltfAsset& b) {
    return a.document == b.document && a.buffers == b.buffers && a.has_borrowed_bin == b.has_borrowed_bin &&
           std::equal(a.borrowed_bin.begin(), a.borrowed_bin.end(), b.borrowed_bin.begin(), b.borrowed_bin.end());
  }
};

}  // namespace marrow::gltf
