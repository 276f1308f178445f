#pragma once
// Private to the glTF mesh builder: a skinned primitive's influences (S1), every JOINTS_n /
// WEIGHTS_n set read, checked and repaired in one pass per vertex, straight into the rows of the
// interleaved vertices.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "accessor_floats.hpp"
#include "gltf_mesh_builder.hpp"
#include "gltf_primitive_attributes.hpp"
#include "marrow/core/diagnostic.hpp"
#include "marrow/io/gltf/detail/accessor_reader.hpp"
#include "marrow/io/gltf/detail/gltf_document.hpp"
#include "marrow/io/import_options.hpp"

namespace marrow::gltf {

// The shape of a skinned primitive's influence rows: every JOINTS_n/WEIGHTS_n set (S1), then
// ImportOptions::max_influences.
struct SkinShape {
  std::uint32_t sets = 0;
  std::uint32_t influences = 0;  // per vertex, as the layout records it
  std::size_t slots = 0;         // per row written: the influences rounded up to a multiple of 4
};

// Throws ImportError: a skinned primitive without JOINTS_0 or WEIGHTS_0, sets not numbered
// 0..n-1 or of different numbers (InvalidMesh), more than kMaxInfluences influences per vertex
// (LimitExceeded).
SkinShape skin_shape(const Primitive& prim, const PrimitiveWhere& where, const PartSkinning& skinning);

// Where SkinRowReader::read writes file vertex v: its row of shape.slots joints (uint16) at
// joints + v * stride and as many weights (float) at weights + v * stride.
struct SkinRowsOut {
  std::byte* joints;
  std::byte* weights;
  std::size_t stride;
};

// The joint indices of one JOINTS_n set: read where they lie when the buffer holds them as
// unsigned bytes or shorts (the common case), else decoded once.
class SetJoints {
 public:
  SetJoints(const GltfAsset& asset, std::uint32_t accessor, ImportBudget& budget) {
    if (const auto u16 = accessor_uint16s_in_place(asset, accessor)) {
      u16_ = u16->data();
    } else if (const auto u8 = accessor_uint8s_in_place(asset, accessor)) {
      u8_ = u8->data();
    } else {
      read_accessor_uints(asset, accessor, budget, decoded_);
    }
  }
  // Vertex v's four joints.
  void load(std::size_t v, std::uint32_t (&out)[4]) const noexcept {
    for (std::size_t c = 0; c < 4; ++c) {
      out[c] = u16_ != nullptr ? u16_[v * 4 + c] : u8_ != nullptr ? u8_[v * 4 + c] : decoded_[v * 4 + c];
    }
  }
  // f(pointer to every vertex's four joints) with the pointer's own element type: a loop over
  // many vertices chooses the representation once.
  template <class F>
  decltype(auto) visit(F&& f) const {
    if (u16_ != nullptr) return f(u16_);
    if (u8_ != nullptr) return f(u8_);
    return f(decoded_.data());
  }

 private:
  const std::uint16_t* u16_ = nullptr;
  const std::uint8_t* u8_ = nullptr;
  std::vector<std::uint32_t> decoded_;
};

// Every vertex's influences: joints through the palette map, negative weights repaired to 0,
// weights renormalised over all sets (as three.js does; all-zero weights ride on the first
// joint alone), then the largest max_influences kept. Read a range of vertices at a time (the
// caller writes vertices in cache-sized chunks), then report() once.
class SkinRowReader {
 public:
  // Reads every set's accessors (joints in place where they can be); throws ImportError for a
  // JOINTS_n that is not VEC4 of the primitive's count, or a WEIGHTS_n read_attribute_floats refuses.
  SkinRowReader(const GltfAsset& asset, const Primitive& prim, const PrimitiveWhere& where, std::uint64_t n,
                const PartSkinning& skinning, const SkinShape& shape, ImportBudget& budget);

  // File vertices [begin, end); throws ImportError(InvalidMesh) for a joint beyond the skin.
  void read(std::size_t begin, std::size_t end, const SkinRowsOut& out);

  // The repairs made, as diagnostics.
  void report(std::vector<Diagnostic>& diagnostics) const;

 private:
  struct Found {  // the first vertex with a bad joint, a negative weight or no weight at all
    std::size_t vertex = 0, slot = 0;
    float weight = 0.f;
    std::uint32_t joint = 0;
  };
  static std::string slot_name(std::string_view prefix, const Found& f);
  template <std::uint32_t kSets>
  void rows(std::size_t begin, std::size_t end, const SkinRowsOut& out) noexcept;
  template <class Joint>
  std::size_t plain_rows(const Joint* joints, std::size_t begin, std::size_t end, const SkinRowsOut& out) noexcept;

  PrimitiveWhere where_;
  const PartSkinning& skinning_;
  SkinShape shape_;
  std::vector<SetJoints> set_joints_;
  std::vector<AccessorFloats> set_weights_;
  std::size_t negative_ = 0, renormalised_ = 0, zero_ = 0, reduced_ = 0;
  Found bad_joint_{~std::size_t{0}}, first_negative_, first_zero_;
};

}  // namespace marrow::gltf
