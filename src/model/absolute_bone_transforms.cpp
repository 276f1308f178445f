#include "marrow/model/absolute_bone_transforms.hpp"

#include <stdexcept>
#include <string>

namespace marrow {

namespace {

template <class LocalOf>
void compose(const Model& model, LocalOf local_of, std::span<glm::mat4> out, const char* who) {
  const std::size_t n = model.bones.size();
  for (std::size_t i = 0; i < n; ++i) {
    const int parent = model.bones[i].parent;
    if (parent < 0) {
      out[i] = local_of(i);
    } else if (static_cast<std::size_t>(parent) < i) {
      out[i] = out[static_cast<std::size_t>(parent)] * local_of(i);
    } else {
      throw std::invalid_argument(std::string(who) + ": bone " + std::to_string(i) + " has parent " +
                                  std::to_string(parent) + ", not before it");
    }
  }
}

void check_size(const char* who, std::size_t size, std::size_t bones) {
  if (size != bones) {
    throw std::invalid_argument(std::string(who) + ": " + std::to_string(size) + " entries for " +
                                std::to_string(bones) + " bones");
  }
}

}  // namespace

void compose_absolute_transforms(const Model& model, std::span<const glm::mat4> locals, std::span<glm::mat4> out) {
  check_size("compose_absolute_transforms (locals)", locals.size(), model.bones.size());
  check_size("compose_absolute_transforms (out)", out.size(), model.bones.size());
  compose(model, [&](std::size_t i) -> const glm::mat4& { return locals[i]; }, out, "compose_absolute_transforms");
}

void copy_absolute_bone_transforms(const Model& model, std::span<glm::mat4> out) {
  check_size("copy_absolute_bone_transforms", out.size(), model.bones.size());
  compose(model, [&](std::size_t i) -> const glm::mat4& { return model.bones[i].transform; }, out,
          "copy_absolute_bone_transforms");
}

}  // namespace marrow
