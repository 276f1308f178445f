// Animation graphs (AG1-AG8): blend spaces, state machines, cross-fades and inertialized
// transitions, sync by phase and by markers, events, checking (model/graph_instance.hpp,
// model/animation_graph.hpp). The Fox of the shared assets (Survey 3.42 s, Walk 0.71 s,
// Run 1.16 s) is the character.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <utility>

#include <glm/gtc/matrix_access.hpp>

#include "marrow/io/model_file.hpp"
#include "marrow/model/animation_graph.hpp"
#include "marrow/model/animation_marker.hpp"
#include "marrow/model/graph_instance.hpp"
#include "marrow/runtime/inertialization_job.hpp"
#include "shared_assets.hpp"

namespace marrow {
namespace {

using namespace std::chrono_literals;
constexpr Ticks kFrame = Ticks{166'667};  // 1/60 s

const Model* graph_fox() {
  static const Model* model = [] {
    const auto file = test::kAssets / "gltf" / "Fox" / "Fox.gltf";
    return std::filesystem::exists(file) ? new Model(load_model_file(file)) : nullptr;
  }();
  return model;
}

#define NEED_FOX()                                                        \
  const Model* model_ptr = graph_fox();                                         \
  if (model_ptr == nullptr) GTEST_SKIP() << "shared assets not found at " << test::kAssets; \
  [[maybe_unused]] const Model& model = *model_ptr

GraphNode clip_node(std::string name, std::string clip_name, float rate = 1.f) {
  GraphNode n;
  n.name = std::move(name);
  n.kind = GraphNodeKind::Clip;
  n.clip.clip = std::move(clip_name);
  n.clip.rate = rate;
  return n;
}

GraphNode blend1d_node(std::string name, std::string parameter, std::vector<GraphBlendSample> samples, bool sync) {
  GraphNode n;
  n.name = std::move(name);
  n.kind = GraphNodeKind::Blend1d;
  n.blend.parameters = {std::move(parameter)};
  n.blend.samples = std::move(samples);
  n.blend.sync.enabled = sync;
  return n;
}

// The example graph on the Fox: idle/walk/run on speed, a 2-D steer, a jump trigger.
GraphDescription fox_graph(GraphBlendMode jump_blend = GraphBlendMode::Inertialize, bool sync = true) {
  GraphDescription g;
  g.parameters = {{"speed", GraphParameterType::Float, 0.f}, {"turn", GraphParameterType::Float, 0.f},
                  {"jump", GraphParameterType::Trigger, 0.f}};
  g.nodes.push_back(clip_node("idle", "Survey"));
  g.nodes.push_back(clip_node("walk", "Walk"));
  g.nodes.push_back(clip_node("run", "Run"));
  g.nodes.push_back(blend1d_node("move", "speed", {{"idle", {0.f, 0.f}}, {"walk", {1.5f, 0.f}}, {"run", {4.f, 0.f}}}, sync));
  GraphNode steer;
  steer.name = "steer";
  steer.kind = GraphNodeKind::Blend2d;
  steer.blend.parameters = {"turn", "speed"};
  steer.blend.samples = {{"idle", {0.f, 0.f}}, {"walk", {0.f, 1.5f}}, {"run", {1.f, 4.f}}, {"walk", {-1.f, 4.f}}};
  g.nodes.push_back(steer);
  GraphNode main;
  main.name = "main";
  main.kind = GraphNodeKind::StateMachine;
  main.state_machine.initial = "ground";
  main.state_machine.states = {{"ground", "move"}, {"steering", "steer"}, {"leap", "run"}};
  main.state_machine.transitions = {
      {.from = "ground", .to = "leap", .conditions = {{"jump", GraphConditionOp::Trigger, 0.f}}, .duration = 0.1f, .blend = jump_blend},
      {.from = "leap", .to = "ground", .exit_time = 0.9f, .duration = 0.2f},
      {.from = "*", .to = "steering", .conditions = {{"turn", GraphConditionOp::Greater, 0.5f}}, .duration = 0.2f}};
  g.nodes.push_back(main);
  g.root = "main";
  return g;
}

std::map<std::string, float> graph_clip_weights(const GraphInstance& instance) {
  std::map<std::string, float> out;
  for (const GraphInstance::ClipWeight& w : instance.clip_weights())
    out[instance.graph().model().animations[static_cast<std::size_t>(w.animation)].name] += w.weight;
  return out;
}

float graph_pose_difference(std::span<const glm::mat4> a, std::span<const glm::mat4> b) {
  float d = 0.f;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) d = std::max(d, std::abs(a[i][c][r] - b[i][c][r]));
  return d;
}

struct GraphCharacter {
  explicit GraphCharacter(const Model& model, const GraphDescription& description)
      : graph(std::make_shared<const AnimationGraph>(description, model)), animator(model), instance(graph, animator) {}
  std::shared_ptr<const AnimationGraph> graph;
  Animator animator;
  GraphInstance instance;
};

// Sets the steer's two parameters to p and updates; the space's own weights at p.
std::vector<float> steer_to(GraphCharacter& c, const BlendSpace2d& space, const glm::vec2& p) {
  c.instance.set("turn", p.x);
  c.instance.set("speed", p.y);
  c.instance.update(kFrame);
  std::vector<float> expected(4);
  EXPECT_TRUE(space.weights(p, expected));
  return expected;
}

// --- AG1, AG2: blend spaces ---------------------------------------------------------------------

TEST(Graph, AG1_Blend1dWeightsAreLinearBetweenNeighboursAndClampedAtTheEnds) {
  NEED_FOX();
  GraphCharacter c(model, fox_graph());
  const struct {
    float speed, survey, walk, run;
  } cases[] = {{-2.f, 1.f, 0.f, 0.f}, {0.f, 1.f, 0.f, 0.f}, {0.75f, 0.5f, 0.5f, 0.f}, {1.5f, 0.f, 1.f, 0.f},
               {2.5f, 0.f, 0.6f, 0.4f}, {4.f, 0.f, 0.f, 1.f}, {9.f, 0.f, 0.f, 1.f}};
  for (const auto& k : cases) {
    c.instance.set("speed", k.speed);
    c.instance.update(kFrame);
    std::map<std::string, float> w = graph_clip_weights(c.instance);
    SCOPED_TRACE(k.speed);
    EXPECT_NEAR(w["Survey"], k.survey, 1e-6f);
    EXPECT_NEAR(w["Walk"], k.walk, 1e-6f);
    EXPECT_NEAR(w["Run"], k.run, 1e-6f);
  }
}

TEST(Graph, AG1_TheGraphPoseIsTheBlendOfItsClipsAtTheirWeights) {
  NEED_FOX();
  // Unsynced, so each clip keeps its own clock: the same pose as two layers played by hand.
  GraphCharacter c(model, fox_graph(GraphBlendMode::Inertialize, false));
  c.instance.set("speed", 2.5f);
  Animator by_hand(model);
  by_hand.play("Walk", {.layer = 0});
  by_hand.play("Run", {.layer = 1});
  by_hand.set_layer_weight(0, 0.6f);
  by_hand.set_layer_weight(1, 0.4f);
  for (int frame = 0; frame < 50; ++frame) {
    c.instance.update(kFrame);
    by_hand.update(kFrame);
  }
  EXPECT_LT(graph_pose_difference(c.animator.absolute_bone_transforms(), by_hand.absolute_bone_transforms()), 1e-4f);
}

TEST(Graph, AG2_Blend2dWeightsAreTheBlendSpacesAtRandomPointsOnSamplesOnTheHullAndOutside) {
  NEED_FOX();
  GraphDescription g = fox_graph();
  g.root = "steer";
  GraphCharacter c(model, g);
  const std::vector<glm::vec2> samples = {{0.f, 0.f}, {0.f, 1.5f}, {1.f, 4.f}, {-1.f, 4.f}};
  const BlendSpace2d space(samples);
  std::mt19937 rng(28);
  std::uniform_real_distribution<float> u(-2.f, 6.f);
  std::vector<glm::vec2> points = samples;
  points.push_back({0.5f, 4.f});   // on the hull
  points.push_back({3.f, -1.f});   // outside
  for (int i = 0; i < 200; ++i) points.push_back({u(rng) * 0.5f, u(rng)});
  for (const glm::vec2& p : points) {
    const std::vector<float> expected = steer_to(c, space, p);
    std::span<const GraphInstance::ClipWeight> w = c.instance.clip_weights();
    ASSERT_EQ(w.size(), 4u);  // one slot per sample: walk is played in two places
    float sum = 0.f;
    for (std::size_t s = 0; s < 4; ++s) {
      EXPECT_NEAR(w[s].weight, expected[s], 1e-6f) << p.x << ", " << p.y << " sample " << s;
      sum += w[s].weight;
    }
    EXPECT_NEAR(sum, 1.f, 1e-5f);
  }
}

// The instance keeps a blend's shares while its parameters are unchanged: a change of either
// parameter alone, and a return to an earlier point, still give the space's weights.
TEST(Graph, AG2_WeightsFollowEachParameterAloneAndReturnWithIt) {
  NEED_FOX();
  GraphDescription g = fox_graph();
  g.root = "steer";
  GraphCharacter c(model, g);
  const BlendSpace2d space(std::vector<glm::vec2>{{0.f, 0.f}, {0.f, 1.5f}, {1.f, 4.f}, {-1.f, 4.f}});
  const std::vector<glm::vec2> path = {{0.2f, 2.f}, {0.2f, 2.f}, {-0.4f, 2.f}, {-0.4f, 3.5f}, {0.2f, 3.5f}, {0.2f, 2.f}, {0.f, 0.f}};
  for (const glm::vec2& p : path) {
    const std::vector<float> expected = steer_to(c, space, p);
    for (std::size_t s = 0; s < 4; ++s) EXPECT_EQ(c.instance.clip_weights()[s].weight, expected[s]) << p.x << ", " << p.y << " sample " << s;
  }
}

// --- AG3: state machines --------------------------------------------------------------------------

TEST(Graph, AG3_ATriggerSwitchesAtOnceAndIsConsumed) {
  NEED_FOX();
  GraphCharacter c(model, fox_graph(GraphBlendMode::Crossfade));
  EXPECT_EQ(c.instance.state(), "ground");
  c.instance.update(kFrame);
  c.instance.fire("jump");
  EXPECT_EQ(c.instance.get("jump"), 1.f);
  c.instance.update(kFrame);
  EXPECT_EQ(c.instance.state(), "leap");  // from the transition's first update
  EXPECT_EQ(c.instance.get("jump"), 0.f);  // consumed
  // Cross-fade (B4): the destination weighs u = elapsed / 0.1 s, the source 1 - u.
  std::map<std::string, float> w = graph_clip_weights(c.instance);
  EXPECT_NEAR(w["Run"], 1.f / 6.f, 1e-3f);
  EXPECT_NEAR(w["Survey"], 5.f / 6.f, 1e-3f);
  for (int i = 0; i < 6; ++i) c.instance.update(kFrame);
  w = graph_clip_weights(c.instance);
  EXPECT_EQ(w["Run"], 1.f);
  EXPECT_EQ(w["Survey"], 0.f);
}

TEST(Graph, AG3_AnExitTimeReturnsOnceTheSourcesNormalizedTimeHasPassed) {
  NEED_FOX();
  GraphCharacter c(model, fox_graph(GraphBlendMode::Crossfade));
  c.instance.fire("jump");
  c.instance.update(kFrame);
  ASSERT_EQ(c.instance.state(), "leap");
  // Run is 1.158 s: the exit at 0.9 is 1.043 s into it; the state entered with this update's
  // step (one frame played).
  const double run = seconds_from_ticks(model.animations[static_cast<std::size_t>(model.find_animation("Run"))].duration);
  int frames = 1;
  while (c.instance.state() == "leap" && frames < 200) {
    c.instance.update(kFrame);
    ++frames;
  }
  // The transition fires on the first update that starts at or after 0.9 of Run: after
  // ceil(0.9 * run * 60) frames in leap, counting the one that entered it.
  const int expected = static_cast<int>(std::ceil(0.9 * run * 60.0 - 1e-9)) + 1;
  EXPECT_EQ(frames, expected);
  EXPECT_EQ(c.instance.state(), "ground");
}

TEST(Graph, AG3_TransitionsAreTriedInOrderAndAnyStateLeavesEveryState) {
  NEED_FOX();
  GraphCharacter c(model, fox_graph(GraphBlendMode::Crossfade));
  // Both jump (ground -> leap, first in the list) and turn (* -> steering) hold: the first wins.
  c.instance.fire("jump");
  c.instance.set("turn", 1.f);
  c.instance.update(kFrame);
  EXPECT_EQ(c.instance.state(), "leap");
  // The next update: the any-state transition leaves leap too.
  c.instance.update(kFrame);
  EXPECT_EQ(c.instance.state(), "steering");
  // It does not re-enter steering while it is the current state (no trigger asks for it).
  const Ticks before = c.instance.clip_time(4);
  c.instance.update(kFrame);
  EXPECT_EQ(c.instance.state(), "steering");
  EXPECT_GT(c.instance.clip_time(4), before);
}

TEST(Graph, AG3_RunsAreDeterministicIncludingTriggersAndExitTimes) {
  NEED_FOX();
  const auto run = [&] {
    GraphCharacter c(model, fox_graph());
    std::vector<glm::mat4> poses;
    for (int frame = 0; frame < 240; ++frame) {
      c.instance.set("speed", static_cast<float>(frame) / 40.f);
      if (frame == 100 || frame == 170) c.instance.fire("jump");
      c.instance.set("turn", frame > 200 ? 1.f : 0.f);
      c.instance.update(kFrame);
      for (const glm::mat4& m : c.animator.absolute_bone_transforms()) poses.push_back(m);
    }
    return poses;
  };
  const std::vector<glm::mat4> a = run(), b = run();
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::mat4)), 0);
}

TEST(Graph, AG3_EnteringAStateStartsItsNodesAtTheirStartTimes) {
  NEED_FOX();
  GraphDescription g = fox_graph(GraphBlendMode::Crossfade);
  g.nodes[2].clip.start = 0.5f;  // run starts half a second in
  GraphCharacter c(model, g);
  for (int i = 0; i < 30; ++i) c.instance.update(kFrame);
  c.instance.fire("jump");
  c.instance.update(kFrame);
  // Slot 3 is the leap state's run (slots: move's idle, walk, run, then leap's run... in place order).
  const std::span<const std::uint32_t> slots = c.graph->slot_places();
  std::size_t leap_slot = slots.size();
  for (std::size_t s = 0; s < slots.size(); ++s) {
    const GraphPlace& p = c.graph->places()[slots[s]];
    if (c.graph->places()[static_cast<std::size_t>(p.parent)].kind == GraphNodeKind::StateMachine && p.animation == model.find_animation("Run"))
      leap_slot = s;
  }
  ASSERT_LT(leap_slot, slots.size());
  EXPECT_EQ(c.instance.clip_time(leap_slot), ticks_from_seconds(0.5) + kFrame);
}

// --- AG4: inertialized transitions -----------------------------------------------------------------

TEST(Graph, AG4_AnInertializedTransitionPlaysTheDestinationAloneAndIsContinuous) {
  NEED_FOX();
  GraphCharacter c(model, fox_graph(GraphBlendMode::Inertialize));
  c.instance.set("speed", 1.5f);  // walking
  for (int i = 0; i < 20; ++i) c.instance.update(kFrame);
  const std::vector<glm::mat4> last(c.animator.absolute_bone_transforms().begin(), c.animator.absolute_bone_transforms().end());
  // The switch, stepped by half a millisecond: the pose is where the walk was (continuous),
  // while the run's own pose is far away.
  c.instance.fire("jump");
  c.instance.update(ticks_from_seconds(0.0005));
  EXPECT_EQ(c.instance.state(), "leap");
  std::map<std::string, float> w = graph_clip_weights(c.instance);
  EXPECT_EQ(w["Run"], 1.f);  // one source sampled
  EXPECT_EQ(w["Walk"], 0.f);
  const float step = graph_pose_difference(c.animator.absolute_bone_transforms(), last);
  GraphDescription at_once = fox_graph();
  at_once.nodes[5].state_machine.transitions[0].duration = 0.f;  // the run alone from the switch
  GraphCharacter run_only(model, at_once);
  run_only.instance.fire("jump");
  run_only.instance.update(ticks_from_seconds(0.0005));
  const float pop = graph_pose_difference(run_only.animator.absolute_bone_transforms(), last);
  EXPECT_LT(step, 0.01f * pop) << step << " vs " << pop;
  // The offset decays over the duration (0.1 s) and is gone at its end: the run alone.
  float previous = pop;
  for (int i = 1; i <= 6; ++i) {
    c.instance.update(kFrame);
    run_only.instance.update(kFrame);
    const float offset = graph_pose_difference(c.animator.absolute_bone_transforms(), run_only.animator.absolute_bone_transforms());
    EXPECT_LE(offset, previous + 1e-3f) << i;
    previous = offset;
  }
  EXPECT_LT(previous, 1e-3f);
  EXPECT_FALSE(c.animator.inertializing());
}

TEST(Graph, AG4_SteppingTwiceEqualsSteppingTheSumOnce) {
  NEED_FOX();
  GraphCharacter a(model, fox_graph()), b(model, fox_graph());
  for (GraphCharacter* c : {&a, &b}) {
    c->instance.set("speed", 2.f);
    for (int i = 0; i < 17; ++i) c->instance.update(kFrame);
    c->instance.fire("jump");
  }
  const Ticks dt = ticks_from_seconds(0.02);
  for (int i = 0; i < 3; ++i) {
    a.instance.update(dt);
    a.instance.update(dt);
    b.instance.update(dt + dt);
    EXPECT_LT(graph_pose_difference(a.animator.absolute_bone_transforms(), b.animator.absolute_bone_transforms()), 1e-5f) << i;
  }
}

TEST(Graph, AG4_PlayInertializesTooAndEndsOnTheNewClipAlone) {
  NEED_FOX();
  Animator a(model), run(model);
  a.enable_inertialization();
  a.play("Walk");
  for (int i = 0; i < 20; ++i) a.update(kFrame);
  const std::vector<glm::mat4> last(a.absolute_bone_transforms().begin(), a.absolute_bone_transforms().end());
  a.play("Run", {.fade = 200ms, .transition = Transition::Inertialize});
  EXPECT_TRUE(a.inertializing());
  EXPECT_LT(graph_pose_difference(a.absolute_bone_transforms(), last), 1e-3f);  // the pose shown is the walk's
  run.play("Run");
  EXPECT_GT(graph_pose_difference(run.absolute_bone_transforms(), last), 1.f);
  for (int i = 0; i < 12; ++i) {
    a.update(kFrame);
    run.update(kFrame);
  }
  EXPECT_FALSE(a.inertializing());
  EXPECT_LT(graph_pose_difference(a.absolute_bone_transforms(), run.absolute_bone_transforms()), 1e-4f);
}

// The switch starts from the last two poses shown: A(-dt) and A(0) (the pose and its velocity),
// whichever buffers held them. One clip at full weight records its sampled pose by trading
// buffers with its action, so a record a pass stale would show here as a frame's motion.
TEST(Graph, AG4_TheSwitchStartsFromTheLastTwoPosesShown) {
  NEED_FOX();
  Animator a(model), run(model), run_start(model);
  a.enable_inertialization();
  a.play("Walk");
  const auto locals = [](const Animator& animator) {
    const std::span<const glm::mat4> m = animator.bone_transforms();
    std::vector<TrsBlock> pose(pose_block_count(m.size()));
    for (std::size_t j = 0; j < m.size(); ++j) set_pose_joint(pose, j, decompose_trs(m[j]));
    return pose;
  };
  std::vector<TrsBlock> older, previous, current;
  for (int i = 0; i < 20; ++i) {
    a.update(kFrame);
    older = std::exchange(previous, std::exchange(current, locals(a)));
  }
  const Ticks fade = ticks_from_seconds(0.2);
  a.play("Run", {.fade = fade, .transition = Transition::Inertialize});
  run.play("Run");
  run_start.play("Run");
  for (int i = 0; i < 3; ++i) a.update(kFrame), run.update(kFrame);
  // The jobs on the same poses (each joint is its own quintic: the nodes' order serves).
  const std::size_t joints = a.bone_transforms().size();
  const float dt = static_cast<float>(seconds_from_ticks(kFrame));
  const auto difference = [&](const std::vector<TrsBlock>& before) {
    InertializationState state(joints);
    std::vector<TrsBlock> output(pose_block_count(joints));
    EXPECT_TRUE((InertializationSetupJob{.previous = before, .current = current, .next = locals(run_start), .dt = dt,
                                         .duration = static_cast<float>(seconds_from_ticks(fade)), .state = &state}
                     .run()));
    EXPECT_TRUE((InertializationJob{.state = &state, .pose = locals(run), .elapsed = 3.f * dt, .output = output}.run()));
    float worst = 0.f;
    for (std::size_t j = 0; j < joints; ++j) {
      const glm::mat4 expected = compose_trs(pose_joint(output, j));
      for (int c = 0; c < 4; ++c) worst = std::max(worst, glm::length(a.bone_transforms()[j][c] - expected[c]));
    }
    return worst;
  };
  const float worst = difference(previous), stale = difference(older);
  std::printf("[ measured ] largest difference %.3g; from a record a pass stale %.3g\n", static_cast<double>(worst),
              static_cast<double>(stale));
  EXPECT_LT(worst, 1e-4f);  // float round trips of T/R/S (the Fox is about 100 units long)
  EXPECT_GT(stale, 10.f * worst);
}

// --- AG5: sync ------------------------------------------------------------------------------------

TEST(Graph, AG5_SyncedMembersShareOnePhaseWithTheCycleBlendedByWeight) {
  NEED_FOX();
  GraphCharacter c(model, fox_graph());
  c.instance.set("speed", 2.5f);  // walk 0.6, run 0.4
  const double walk = seconds_from_ticks(model.animations[1].duration), run = seconds_from_ticks(model.animations[2].duration);
  const double cycle = 0.6 * walk + 0.4 * run;
  for (int i = 0; i < 37; ++i) c.instance.update(kFrame);
  const double phase = std::fmod(37.0 / 60.0 / cycle, 1.0);
  EXPECT_NEAR(seconds_from_ticks(c.instance.clip_time(1)) / walk, phase, 1e-5);
  EXPECT_NEAR(seconds_from_ticks(c.instance.clip_time(2)) / run, phase, 1e-5);
}

TEST(Graph, AG5_MarkerSyncPutsEveryMemberAtTheSameFractionBetweenItsMarkers) {
  NEED_FOX();
  Model marked = *graph_fox();
  // Foot-downs at different places in each clip: Walk at 0.1 and 0.45 s, Run at 0.2 and 0.9 s.
  add_marker(marked, "Walk", "left", ticks_from_seconds(0.1));
  add_marker(marked, "Walk", "right", ticks_from_seconds(0.45));
  add_marker(marked, "Run", "right", ticks_from_seconds(0.2));
  add_marker(marked, "Run", "left", ticks_from_seconds(0.9));
  GraphDescription g;
  g.parameters = {{"speed", GraphParameterType::Float, 2.75f}};
  g.nodes = {clip_node("walk", "Walk"), clip_node("run", "Run"), blend1d_node("move", "speed", {{"walk", {1.5f, 0.f}}, {"run", {4.f, 0.f}}}, true)};
  g.nodes[2].blend.sync.markers = {"left", "right"};
  g.root = "move";
  GraphCharacter c(marked, g);
  const auto fraction = [&](std::size_t slot, double left, double right, double duration) {
    double t = seconds_from_ticks(c.instance.clip_time(slot));
    if (t < left) t += duration;
    const double right_u = right < left ? right + duration : right;
    return t < right_u ? (t - left) / (right_u - left) : 1.0 + (t - right_u) / (left + duration - right_u);
  };
  const double walk = seconds_from_ticks(marked.animations[1].duration), run = seconds_from_ticks(marked.animations[2].duration);
  for (int i = 0; i < 90; ++i) {
    c.instance.update(kFrame);
    const double fw = fraction(0, 0.1, 0.45, walk), fr = fraction(1, 0.9, 0.2, run);
    EXPECT_NEAR(fw, fr, 1e-4) << "frame " << i;
  }
  // Missing markers are refused, naming the node and the field.
  Model unmarked = *graph_fox();
  try {
    AnimationGraph bad(g, unmarked);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("graph node \"move\", field \"sync.markers\""), std::string::npos) << e.what();
  }
}

// --- AG7: events ----------------------------------------------------------------------------------

TEST(Graph, AG7_EveryWeightedClipsMarkersAreReportedOnceInOrder) {
  NEED_FOX();
  Model marked = *graph_fox();
  add_marker(marked, "Walk", "walk_step", ticks_from_seconds(0.3));
  add_marker(marked, "Run", "run_step", ticks_from_seconds(0.5));
  add_marker(marked, "Survey", "look", ticks_from_seconds(1.0));
  GraphCharacter c(marked, fox_graph());
  c.instance.set("speed", 2.5f);  // walk and run weighted; survey at 0
  std::map<std::string, int> seen;
  const double seconds = 6.0;
  for (int i = 0; i < static_cast<int>(seconds * 60); ++i) {
    c.instance.update(kFrame);
    for (const AnimationEvent& e : c.animator.events()) {
      ++seen[std::string(e.name)];
      EXPECT_GT(e.weight, 0.f);
    }
  }
  const double cycle = 0.6 * seconds_from_ticks(marked.animations[1].duration) + 0.4 * seconds_from_ticks(marked.animations[2].duration);
  const int cycles = static_cast<int>(seconds / cycle);
  EXPECT_NEAR(seen["walk_step"], cycles, 1);
  EXPECT_LE(std::abs(seen["walk_step"] - seen["run_step"]), 1);  // in phase: once per cycle each
  EXPECT_NEAR(seen["run_step"], cycles, 1);
  EXPECT_EQ(seen.count("look"), 0u);  // weight 0: not reported
}

// --- Layers -----------------------------------------------------------------------------------------

TEST(Graph, B2_AnOverrideLayerWithAMaskReplacesItsSubtreeAndLeavesTheRest) {
  NEED_FOX();
  GraphDescription g;
  g.nodes = {clip_node("walk", "Walk"), clip_node("survey", "Survey")};
  GraphNode layer;
  layer.name = "upper";
  layer.kind = GraphNodeKind::Layer;
  layer.layer.base = "walk";
  layer.layer.layers = {{.node = "survey", .weight = 1.f, .mask_root = "b_Neck_04"}};
  g.nodes.push_back(layer);
  g.root = "upper";
  GraphCharacter c(model, g);
  Animator walk(model), survey(model);
  walk.play("Walk");
  survey.play("Survey");
  for (int i = 0; i < 20; ++i) {
    c.instance.update(kFrame);
    walk.update(kFrame);
    survey.update(kFrame);
  }
  const int neck = model.find_node("b_Neck_04");
  ASSERT_GE(neck, 0);
  for (std::size_t n = 0; n < model.nodes.size(); ++n) {
    const bool masked = static_cast<int>(n) == neck || model.descends_from(static_cast<int>(n), neck);
    const glm::mat4& expected = (masked ? survey : walk).bone_transforms()[n];
    EXPECT_LT(graph_pose_difference(std::span(&c.animator.bone_transforms()[n], 1), std::span(&expected, 1)), 1e-5f) << model.nodes[n].name;
  }
}

// --- AG8: checking ----------------------------------------------------------------------------------

TEST(Graph, AG8_WhatAFieldNamesMustExistAndNodesMakeNoCycle) {
  NEED_FOX();
  const auto refused = [&](const GraphDescription& g, const std::string& expected) {
    try {
      AnimationGraph graph(g, model);
      ADD_FAILURE() << "accepted; expected " << expected;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  GraphDescription g = fox_graph();
  g.nodes[0].clip.clip = "Sleep";
  refused(g, "graph node \"idle\", field \"clip\": the model has no animation named \"Sleep\"");
  g = fox_graph();
  g.nodes[3].blend.samples[1].node = "jog";
  refused(g, "graph node \"move\", field \"samples[1].node\": no node is named \"jog\"");
  g = fox_graph();
  g.nodes[3].blend.parameters = {"pace"};
  refused(g, "graph node \"move\", field \"parameter\": no parameter is named \"pace\"");
  g = fox_graph();
  g.nodes[3].blend.samples[2].at.x = 1.f;
  refused(g, "graph node \"move\", field \"samples[2].at\": positions must increase strictly");
  g = fox_graph();
  g.nodes[4].blend.samples = {{"idle", {0.f, 0.f}}, {"walk", {1.f, 1.f}}, {"run", {2.f, 2.f}}};
  refused(g, "graph node \"steer\", field \"samples\"");
  g = fox_graph();
  g.nodes[5].state_machine.transitions[0].conditions[0].parameter = "speed";
  refused(g, "graph node \"main\", field \"transitions[0].conditions[0]\": parameter \"speed\" is a float, not a trigger");
  g = fox_graph();
  g.nodes[5].state_machine.states[2].second = "main";  // leap plays the machine itself
  refused(g, "the nodes make a cycle: \"main\" -> \"main\"");
  g = fox_graph();
  g.nodes[5].state_machine.initial = "flying";
  refused(g, "graph node \"main\", field \"initial\": no state is named \"flying\"");
  g = fox_graph();
  g.root = "nowhere";
  refused(g, "graph field \"root\": no node is named \"nowhere\"");
  // A small graph naming one node from many places would unfold exponentially: refused.
  GraphDescription wide;
  wide.parameters = {{"x", GraphParameterType::Float, 0.f}};
  wide.nodes.push_back(clip_node("n0", "Walk"));
  for (int i = 1; i < 20; ++i) {
    const std::string below = "n" + std::to_string(i - 1);
    wide.nodes.push_back(blend1d_node("n" + std::to_string(i), "x", {{below, {0.f, 0.f}}, {below, {1.f, 0.f}}}, false));
  }
  wide.root = "n19";
  refused(wide, "places");
}

}  // namespace
}  // namespace marrow
