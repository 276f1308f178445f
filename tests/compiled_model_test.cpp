// A model compiled once for its instances (compiled_model.hpp): instances sharing it keep their
// own poses, and compiled animations of another model are refused.
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "demo/demo_character.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/compiled_model.hpp"

namespace marrow {
namespace {

bool same_bits(std::span<const glm::mat4> a, std::span<const glm::mat4> b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0;
}

// Instances of one compiled model hold their own state: one posed alone and one posed while a
// third plays another clip, interleaved, end bit for bit the same.
TEST(CompiledModel, InstancesSharingACompiledModelKeepTheirOwnPoses) {
  const Model model = make_demo_character();
  const auto compiled = compile_model(model);
  Animator alone(compiled), shared(compiled), other(compiled);
  alone.play(0);
  shared.play(0);
  other.play(1);
  for (int i = 0; i < 30; ++i) {
    alone.update(ticks_from_seconds(1 / 60.0));
    other.update(ticks_from_seconds(1 / 30.0));
    shared.update(ticks_from_seconds(1 / 60.0));
  }
  EXPECT_TRUE(same_bits(alone.absolute_bone_transforms(), shared.absolute_bone_transforms()));
  EXPECT_TRUE(same_bits(alone.player(0).skin_transforms(), shared.player(0).skin_transforms()));
  EXPECT_TRUE(same_bits(alone.player(0).bone_transforms(), shared.player(0).bone_transforms()));
  EXPECT_TRUE(same_bits(alone.player(0).world_transforms(), shared.player(0).world_transforms()));
  EXPECT_FALSE(same_bits(shared.player(0).skin_transforms(), other.player(0).skin_transforms()));
  EXPECT_EQ(shared.compiled(), compiled);
}

TEST(CompiledModel, CompiledAnimationsOfAnotherModelAreRefused) {
  const Model model = make_demo_character();
  Model fewer = model;
  fewer.animations.pop_back();
  for (auto& skin : fewer.skins) skin.data.animation_clips.erase(model.animations.back().name);
  const auto animations = compile_animations(fewer);
  try {
    compile_model(model, animations);
    FAIL() << "accepted another model's animations";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("compile_model: the compiled animations are of another model"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace marrow
