#include "marrow/model/absolute_bone_transforms.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "marrow/runtime/local_to_model_job.hpp"

namespace marrow {

namespace {

// The one local-to-model job over the scene nodes; a parent that does not precede its bone is
// refused (std::invalid_argument naming it) before anything is written.
void compose(const Model& model, std::span<const glm::mat4> locals, std::span<glm::mat4> out, const char* who) {
  std::vector<int> parents(model.nodes.size());
  for (std::size_t i = 0; i < parents.size(); ++i) parents[i] = model.nodes[i].parent;
  for (std::size_t i = 0; i < parents.size(); ++i) {
    if (parents[i] >= static_cast<int>(i)) {
      throw std::invalid_argument(std::string(who) + ": bone " + std::to_string(i) + " has parent " +
                                  std::to_string(parents[i]) + ", not before it");
    }
  }
  LocalToModelJob job;
  job.parents = parents;
  job.local_matrices = locals;
  job.models = out;
  job.run();
}

void check_size(const char* who, std::size_t size, std::size_t bones) {
  if (size != bones) {
    throw std::invalid_argument(std::string(who) + ": " + std::to_string(size) + " entries for " +
                                std::to_string(bones) + " bones");
  }
}

}  // namespace

void copy_absolute_bone_transforms(const Model& model, std::span<glm::mat4> out) {
  check_size("copy_absolute_bone_transforms", out.size(), model.nodes.size());
  std::vector<glm::mat4> locals(model.nodes.size());
  for (std::size_t i = 0; i < locals.size(); ++i) locals[i] = model.nodes[i].transform;
  compose(model, locals, out, "copy_absolute_bone_transforms");
}

void compose_node_transforms(const Model& model, std::span<const glm::mat4> locals, std::span<glm::mat4> out) {
  check_size("compose_node_transforms", locals.size(), model.nodes.size());
  check_size("compose_node_transforms", out.size(), model.nodes.size());
  compose(model, locals, out, "compose_node_transforms");
}

}  // namespace marrow
