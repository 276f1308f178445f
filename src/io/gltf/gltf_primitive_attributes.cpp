#include "gltf_primitive_attributes.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "marrow/core/finite.hpp"
#include "marrow/core/import_error.hpp"

namespace marrow::gltf {

std::string PrimitiveWhere::operator()() const {
  return "mesh " + std::to_string(mesh) + " primitive " + std::to_string(primitive);
}

void fail_primitive(const PrimitiveWhere& where, const std::string& message) {
  throw ImportError(ImportErrorCode::InvalidMesh, where() + ": " + message);
}

AccessorFloats read_attribute_floats(const GltfAsset& asset, const PrimitiveWhere& where, const char* semantic,
                                      std::uint32_t accessor, std::initializer_list<AccessorType> types,
                                      std::uint64_t count, ImportBudget& budget) {
  const Accessor& a = asset.document.accessors[accessor];
  bool type_ok = false;
  for (AccessorType t : types) type_ok = type_ok || a.type == t;
  if (!type_ok) {
    fail_primitive(where, std::string(semantic) + " accessor " + std::to_string(accessor) + " is " + accessor_type_name(a.type) +
                              ", expected " + accessor_type_name(*types.begin()));
  }
  if (a.count != count) {
    fail_primitive(where, std::string(semantic) + " has " + std::to_string(a.count) + " elements, POSITION has " +
                              std::to_string(count));
  }
  AccessorFloats out = read_accessor_floats(asset, accessor, budget);
  // glTF forbids NaN and infinities in accessor data; one would poison every pose and bound.
  if (!all_finite(out.values())) {
    const auto bad = std::find_if(out.values().begin(), out.values().end(), [](float v) { return !std::isfinite(v); }) -
                     out.values().begin();
    fail_primitive(where, std::string(semantic) + " accessor " + std::to_string(accessor) + ": vertex " +
                              std::to_string(static_cast<std::size_t>(bad) / component_count(a.type)) +
                              " has a value that is not finite");
  }
  return out;
}

}  // namespace marrow::gltf
