#pragma once
// Private to the glTF importer: what reading a primitive's attributes shares (the mesh builder,
// the skin rows): which primitive a message names, and a float attribute checked as read.
#include <cstdint>
#include <initializer_list>
#include <string>

#include "accessor_floats.hpp"
#include "marrow/io/gltf/detail/gltf_document.hpp"
#include "marrow/io/import_options.hpp"

namespace marrow::gltf {

// "mesh 2 primitive 0", the prefix of every message about a primitive.
struct PrimitiveWhere {
  std::uint32_t mesh, primitive;
  std::string operator()() const;
};

// Throws ImportError(InvalidMesh) with the primitive named before the message.
[[noreturn]] void fail_primitive(const PrimitiveWhere& where, const std::string& message);

// A float attribute (normalized integers decoded) whose type is one of `types` and whose count
// is `count`, every value finite; in place when the buffer already holds its floats. `semantic`
// names it in messages.
AccessorFloats read_attribute_floats(const GltfAsset& asset, const PrimitiveWhere& where, const char* semantic,
                                     std::uint32_t accessor, std::initializer_list<AccessorType> types,
                                     std::uint64_t count, ImportBudget& budget);

}  // namespace marrow::gltf
