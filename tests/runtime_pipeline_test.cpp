// The pipeline of docs/runtime.md, written as a user would, on CesiumMan: its palette equals the
// AnimationPlayer's (the seed facade over the same jobs) frame after frame (X4).
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "marrow/io/model_file.hpp"
#include "marrow/runtime/animation_player.hpp"
#include "marrow/runtime/local_to_model_job.hpp"
#include "marrow/runtime/sampling_job.hpp"
#include "marrow/runtime/skin_palette_job.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

TEST(RuntimePipeline, X4_TheDocumentedPipelineEqualsThePlayer) {
  const std::filesystem::path file = std::filesystem::path(MARROW_SHARED_ASSETS) / "gltf/CesiumMan/cesium_man.gltf";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "shared assets not found at " << file;
  const Model model = load_model_file(file);
  const SkinningData& skin = model.skins[0].data;
  const AnimationClip& authored = skin.animation_clips.begin()->second;
  const RuntimeClip walk = compile_clip(authored, skin);

  const std::size_t joints = walk.joint_count();
  SamplingContext context(joints);
  std::vector<TrsBlock> pose(pose_block_count(joints));
  std::vector<glm::mat4> models(joints), palette(joints);
  Ticks time{};

  AnimationPlayer player(skin);
  player.start_clip(authored);
  for (int frame = 0; frame < 240; ++frame) {
    time = playback_time(time + ticks_from_seconds(1 / 60.0), walk.duration(), /*loop=*/true);
    ASSERT_TRUE((SamplingJob{.clip = &walk, .time = time, .context = &context, .output = pose}.run()));
    ASSERT_TRUE((LocalToModelJob{.parents = skin.skeleton_hierarchy, .local_pose = pose,
                                 .root_prefix = skin.skeleton_root_prefix, .models = models}
                     .run()));
    ASSERT_TRUE((SkinPaletteJob{.models = models, .inverse_binds = skin.inverse_bind_pose, .palette = palette}.run()));

    player.update(ticks_from_seconds(1 / 60.0), /*relative=*/true);
    ASSERT_EQ(player.current_time(), time);
    for (std::size_t j = 0; j < joints; ++j) {
      ASSERT_TRUE(test::near(palette[j], player.skin_transforms()[j], 1e-5f)) << "frame " << frame << " joint " << j;
      ASSERT_TRUE(test::near(models[j], player.world_transforms()[j], 1e-5f)) << "frame " << frame << " joint " << j;
    }
  }
}

}  // namespace
}  // namespace marrow
