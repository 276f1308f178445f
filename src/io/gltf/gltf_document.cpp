#include "marrow/io/gltf/detail/gltf_document.hpp"

namespace marrow::gltf {

std::uint32_t component_size(ComponentType t) noexcept {
  switch (t) {
    case ComponentType::Byte:
    case ComponentType::UnsignedByte: return 1;
    case ComponentType::Short:
    case ComponentType::UnsignedShort: return 2;
    case ComponentType::UnsignedInt:
    case ComponentType::Float: return 4;
  }
  return 0;  // not a glTF component type (a hand-built document); callers refuse 0
}

std::uint32_t component_count(AccessorType t) noexcept {
  switch (t) {
    case AccessorType::Scalar: return 1;
    case AccessorType::Vec2: return 2;
    case AccessorType::Vec3: return 3;
    case AccessorType::Vec4: return 4;
    case AccessorType::Mat2: return 4;
    case AccessorType::Mat3: return 9;
    case AccessorType::Mat4: return 16;
  }
  return 0;
}

const char* accessor_type_name(AccessorType t) noexcept {
  switch (t) {
    case AccessorType::Scalar: return "SCALAR";
    case AccessorType::Vec2: return "VEC2";
    case AccessorType::Vec3: return "VEC3";
    case AccessorType::Vec4: return "VEC4";
    case AccessorType::Mat2: return "MAT2";
    case AccessorType::Mat3: return "MAT3";
    case AccessorType::Mat4: return "MAT4";
  }
  return "UNKNOWN";
}

std::uint32_t Primitive::find(const std::string& semantic) const noexcept {
  for (const Attribute& a : attributes) {
    if (a.semantic == semantic) return a.accessor;
  }
  return kNone;
}

}  // namespace marrow::gltf
