#include "marrow/runtime/skinning_data.hpp"

#include <stdexcept>
#include <string>

#include "marrow/core/finite.hpp"

namespace marrow {

namespace {

void check_size(const char* field, std::size_t size, int bone_count) {
  if (size != static_cast<std::size_t>(bone_count)) {
    throw std::invalid_argument(std::string("SkinningData: ") + field + " has " + std::to_string(size) +
                                " entries, bone_count is " + std::to_string(bone_count));
  }
}

void check_finite(const char* field, const std::vector<glm::mat4>& matrices) {
  for (std::size_t i = 0; i < matrices.size(); ++i) {
    if (!is_finite(matrices[i])) {
      throw std::invalid_argument(std::string("SkinningData: ") + field + "[" + std::to_string(i) +
                                  "] is not finite");
    }
  }
}

}  // namespace

void validate(const SkinningData& data) {
  if (data.bone_count < 0) {
    throw std::invalid_argument("SkinningData: bone_count " + std::to_string(data.bone_count) + " is negative");
  }
  check_size("skeleton_hierarchy", data.skeleton_hierarchy.size(), data.bone_count);
  check_size("bind_pose", data.bind_pose.size(), data.bone_count);
  check_size("inverse_bind_pose", data.inverse_bind_pose.size(), data.bone_count);
  for (int i = 0; i < data.bone_count; ++i) {
    const int parent = data.skeleton_hierarchy[static_cast<std::size_t>(i)];
    if (parent >= i) {
      throw std::invalid_argument("SkinningData: skeleton_hierarchy[" + std::to_string(i) + "] = " +
                                  std::to_string(parent) + " is not before bone " + std::to_string(i));
    }
  }
  check_finite("bind_pose", data.bind_pose);
  check_finite("inverse_bind_pose", data.inverse_bind_pose);
  check_finite("skeleton_root_prefix", data.skeleton_root_prefix);
}

}  // namespace marrow
