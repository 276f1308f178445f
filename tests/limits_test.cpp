// Resource limits: a small hostile file that declares huge sizes is refused with
// ImportError(LimitExceeded or a bounds code) before anything large is allocated. This binary
// replaces the global operator new to record the largest single allocation and the total, so
// the check is on memory, not on timing.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "marrow/core/import_error.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/io/native/native_format.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/graph_instance.hpp"
#include "marrow/model/motion_matcher.hpp"
#include "bandai_test_util.hpp"
#include "demo/demo_character.hpp"

namespace {

using namespace std::chrono_literals;

std::atomic<std::size_t> g_largest{0};
std::atomic<std::size_t> g_total{0};
std::atomic<bool> g_counting{false};

void* counted(std::size_t size) {
  if (g_counting) {
    g_total += size;
    std::size_t seen = g_largest.load();
    while (size > seen && !g_largest.compare_exchange_weak(seen, size)) {
    }
  }
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

void* operator new(std::size_t size) { return counted(size); }
void* operator new[](std::size_t size) { return counted(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace marrow {
namespace {

struct Allocation {
  std::size_t largest = 0, total = 0;
};

// Runs f with allocation counting; returns the ImportError code it threw.
template <class F>
ImportErrorCode refused(F&& f, Allocation& a, std::string* message = nullptr) {
  g_largest = 0;
  g_total = 0;
  g_counting = true;
  ImportErrorCode code = ImportErrorCode::IoError;
  bool threw = false;
  try {
    f();
  } catch (const ImportError& e) {
    code = e.code();
    threw = true;
    if (message) *message = e.what();
  }
  g_counting = false;
  a.largest = g_largest;
  a.total = g_total;
  EXPECT_TRUE(threw) << "accepted";
  return code;
}

std::span<const std::byte> bytes_of(const std::string& s) {
  return std::span<const std::byte>(reinterpret_cast<const std::byte*>(s.data()), s.size());
}

constexpr std::size_t kSmall = 1u << 20;  // nothing near the declared sizes may be allocated

TEST(Limits, AccessorOf10To12ElementsIsRefusedWithoutALargeAllocation) {
  // About 600 bytes: one triangle mesh whose POSITION accessor claims 10^12 elements.
  const std::string json = R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],
    "nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
    "accessors":[{"componentType":5126,"count":1000000000000,"type":"VEC3","min":[0,0,0],"max":[1,1,1]}],
    "buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}]})";
  ASSERT_LT(json.size(), 1024u);
  Allocation a;
  std::string message;
  EXPECT_EQ(refused([&] { import_gltf(bytes_of(json)); }, a, &message), ImportErrorCode::LimitExceeded);
  EXPECT_NE(message.find("max_accessor_elements"), std::string::npos) << message;
  EXPECT_LT(a.largest, kSmall);
  EXPECT_LT(a.total, 4 * kSmall);
}

TEST(Limits, BufferOfAPetabyteIsRefusedWithoutALargeAllocation) {
  const std::string json = R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":1000000000000000,"uri":"x.bin"}]})";
  Allocation a;
  std::string message;
  const auto code = refused([&] { import_gltf(bytes_of(json)); }, a, &message);
  EXPECT_TRUE(code == ImportErrorCode::LimitExceeded) << message;
  EXPECT_LT(a.largest, kSmall);
}

TEST(Limits, EveryLimitIsNamedWhenExceeded) {
  ImportOptions tight;
  tight.limits.max_nodes = 2;
  const std::string nodes = R"({"asset":{"version":"2.0"},"nodes":[{},{},{}]})";
  Allocation a;
  std::string message;
  EXPECT_EQ(refused([&] { import_gltf(bytes_of(nodes), tight); }, a, &message), ImportErrorCode::LimitExceeded);
  EXPECT_NE(message.find("max_nodes"), std::string::npos) << message;
  tight = {};
  tight.limits.max_file_bytes = 10;
  EXPECT_EQ(refused([&] { import_gltf(bytes_of(nodes), tight); }, a, &message), ImportErrorCode::LimitExceeded);
  EXPECT_NE(message.find("max_file_bytes"), std::string::npos) << message;
  tight = {};
  tight.limits.max_json_depth = 3;
  const std::string deep = R"({"asset":{"version":"2.0"},"extras":[[[1]]]})";  // four levels
  EXPECT_EQ(refused([&] { import_gltf(bytes_of(deep), tight); }, a, &message), ImportErrorCode::InvalidJson);
  EXPECT_NE(message.find("max_json_depth"), std::string::npos) << message;
  tight = {};
  tight.limits.max_animation_keys = 2;
  const std::string keys = R"({"asset":{"version":"2.0"},"nodes":[{}],"scenes":[{"nodes":[0]}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"SCALAR","min":[0],"max":[2]},
                 {"bufferView":0,"componentType":5126,"count":1,"type":"VEC3"}],
    "bufferViews":[{"buffer":0,"byteLength":12}],
    "animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],
                   "samplers":[{"input":0,"output":1}]}],
    "buffers":[{"byteLength":12,"uri":"data:application/octet-stream;base64,AAAAAAAAgD8AAABA"}]})";
  EXPECT_EQ(refused([&] { import_gltf(bytes_of(keys), tight); }, a, &message), ImportErrorCode::LimitExceeded);
  EXPECT_NE(message.find("max_animation_keys"), std::string::npos) << message;
}

TEST(Limits, DeepJsonIsRefusedWithoutRecursionOrLargeAllocation) {
  const std::string json = "{\"asset\":{\"version\":\"2.0\"},\"extras\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  Allocation a;
  EXPECT_EQ(refused([&] { import_gltf(bytes_of(json)); }, a), ImportErrorCode::InvalidJson);
  EXPECT_LT(a.largest, 8 * kSmall);  // the JSON parser's own buffers scale with the 200 KB input
}

TEST(Limits, NativeFileDeclaringHugeCountsIsRefusedWithoutALargeAllocation) {
  // A valid native file, then every 8-byte word overwritten with a huge count in turn: each
  // variant must be refused (or load) without allocating anything near that size.
  Model model;
  model.nodes.push_back(ModelNode{"root", -1, glm::mat4(1.f), -1});
  std::vector<std::byte> bytes = write_native(model);
  for (std::size_t at = 8; at + 8 <= bytes.size(); at += 4) {
    std::vector<std::byte> hostile = bytes;
    const std::uint64_t huge = 1ull << 40;
    std::memcpy(hostile.data() + at, &huge, 8);
    g_largest = 0;
    g_counting = true;
    try {
      (void)read_native(hostile);
    } catch (const ImportError&) {
    }
    g_counting = false;
    EXPECT_LT(g_largest.load(), kSmall) << "word at byte " << at;
  }
}

// B2-B7, R1, K1, K2: once set up, a layered frame allocates nothing: three layers (one masked,
// one additive), a cross-fade that completes and drops a clip, markers reported as events,
// root motion, IK chains and morph weights.
TEST(Limits, B2_B7_R1_K1_K2_ALayeredFrameAllocatesNothing) {
  Model model = make_demo_character();
  add_marker(model, "Wave", "splash", 500ms);
  add_marker(model, "Curl", "curl", 1s);
  Animator a(model);
  a.enable_root_motion({.joint = "Seg0", .yaw = true});
  a.play("Wave");
  a.set_layer(1, {.weight = 0.5f, .mask = "Seg4", .additive = false});
  a.play("Curl", {.rate = -1.5f, .loop = LoopMode::PingPong, .layer = 1});
  a.set_layer(2, {.weight = 0.7f, .mask = "", .additive = true});
  a.play("Curl", {.layer = 2});
  const std::size_t chain = a.add_two_bone_ik("Seg5", "Seg6", "Seg7");
  a.set_two_bone_ik(chain, {0.5f, 3.f, 0.2f});
  const std::size_t aim = a.add_aim_ik("Seg8");
  a.set_aim_ik(aim, {2.f, 4.f, 1.f});
  a.play("Curl", {.fade = 500ms, .sync_group = 1});  // the base cross-fades while the frames run
  for (int i = 0; i < 3; ++i) a.update(ticks_from_seconds(1 / 60.0));
  g_total = 0;
  g_counting = true;
  std::size_t events = 0;
  for (int i = 0; i < 200; ++i) {
    a.update(ticks_from_seconds(1 / 60.0));
    events += a.events().size();
  }
  g_counting = false;
  EXPECT_EQ(g_total.load(), 0u);
  EXPECT_GT(events, 0u);
  EXPECT_EQ(a.current_animation(0), model.find_animation("Curl"));
}

// AG6: a graph instance's frames allocate nothing: a synced 1-D blend under a state machine,
// a masked override layer and an additive one, cross-faded and inertialized transitions fired
// by triggers and exit times, markers reported, root motion and IK on top.
TEST(Limits, AG6_AGraphFrameAllocatesNothing) {
  Model model = make_demo_character();
  add_marker(model, "Wave", "splash", 500ms);
  add_marker(model, "Curl", "curl", 1s);
  GraphDescription g;
  g.parameters = {{"speed", GraphParameterType::Float, 0.f}, {"go", GraphParameterType::Trigger, 0.f},
                  {"lean", GraphParameterType::Float, 0.5f}};
  const auto clip = [](std::string name, std::string animation) {
    GraphNode n;
    n.name = std::move(name);
    n.clip.clip = std::move(animation);
    return n;
  };
  g.nodes = {clip("wave", "Wave"), clip("curl", "Curl")};
  GraphNode move;
  move.name = "move";
  move.kind = GraphNodeKind::Blend1d;
  move.blend = {.parameters = {"speed"}, .samples = {{"wave", {0.f, 0.f}}, {"curl", {1.f, 0.f}}}, .sync = {.enabled = true}};
  g.nodes.push_back(move);
  GraphNode layered;
  layered.name = "layered";
  layered.kind = GraphNodeKind::Layer;
  layered.layer = {.base = "move", .layers = {{.node = "curl", .weight_parameter = "lean", .mask_root = "Seg4"},
                                              {.node = "wave", .weight = 0.3f, .mode = GraphLayerMode::Additive}}};
  g.nodes.push_back(layered);
  GraphNode main;
  main.name = "main";
  main.kind = GraphNodeKind::StateMachine;
  main.state_machine = {.initial = "a", .states = {{"a", "move"}, {"b", "layered"}},
                        .transitions = {{.from = "a", .to = "b", .conditions = {{"go", GraphConditionOp::Trigger, 0.f}},
                                         .duration = 0.3f, .blend = GraphBlendMode::Inertialize},
                                        {.from = "b", .to = "a", .exit_time = 1.5f, .duration = 0.4f}}};
  g.nodes.push_back(main);
  g.root = "main";
  const auto graph = std::make_shared<const AnimationGraph>(g, model);
  Animator a(model);
  a.enable_root_motion({.joint = "Seg0", .yaw = true});
  const std::size_t chain = a.add_two_bone_ik("Seg5", "Seg6", "Seg7");
  a.set_two_bone_ik(chain, {0.5f, 3.f, 0.2f});
  GraphInstance instance(graph, a);
  g_total = 0;
  g_counting = true;
  std::size_t events = 0;
  int switches = 0;
  std::string_view state = instance.state();
  for (int i = 0; i < 600; ++i) {
    instance.set("speed", static_cast<float>(i % 100) / 100.f);
    if (i % 150 == 20) instance.fire("go");
    instance.update(ticks_from_seconds(1 / 60.0));
    events += a.events().size();
    switches += instance.state() != state ? 1 : 0;
    state = instance.state();
  }
  g_counting = false;
  EXPECT_EQ(g_total.load(), 0u);
  EXPECT_GT(events, 0u);
  EXPECT_GE(switches, 5);  // four jumps in, and back by exit time
}

// A motion-matching character's frames, searches and inertialized switches included, allocate
// nothing once the clips it plays have each played once: the same script run again from the
// same start (MM7: the same choices) is counted.
TEST(Limits, MM_AControllerFrameAllocatesNothing) {
  const std::vector<const Model*> models = test::bandai_locomotion(0.01f);
  if (models.empty()) GTEST_SKIP() << "shared assets not found at " << test::kBandaiFolder;
  const MotionDatabase db(models);
  const MotionClips clips(db, models);
  MotionMatcher m(clips, {.foot_lock = true});
  const auto run = [&] {
    std::size_t switches = 0;
    for (int i = 0; i < 600; ++i) {
      const float a = 0.02f * static_cast<float>(i);
      m.update(1.f / 60.f, {.velocity = glm::vec3(1.5f * std::sin(a), 0.f, 1.5f * std::cos(a)) * (i % 200 < 150 ? 1.f : 0.f)});
      switches += m.switched() ? 1 : 0;
    }
    return switches;
  };
  // One frame first: the Animator's scratch is made by its first update (animator.hpp). The
  // clips' root motion is baked with MotionClips, so no clip's first play allocates.
  m.reset(db.ranges()[0].first_row, glm::vec3(0.f), 0.f);
  m.update(1.f / 60.f, {});
  m.reset(db.ranges()[0].first_row, glm::vec3(0.f), 0.f);
  g_total = 0;
  g_counting = true;
  const std::size_t switches = run();
  g_counting = false;
  EXPECT_EQ(g_total.load(), 0u);
  EXPECT_GT(switches, 5u);
}

}  // namespace
}  // namespace marrow
