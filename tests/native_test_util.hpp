#pragma once
// Helpers of the native-format tests (native_format_test.cpp, native_hostile_test.cpp,
// native_frame_bounds_test.cpp): exact comparison of two models (floats bitwise), a small model
// that uses every field of the format with sentinel values, and byte surgery on files (sections
// split and joined again with the framing right).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <limits>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_precision.hpp>

#include "gltf_test_util.hpp"
#include "marrow/runtime/animation_player.hpp"
#include "marrow/core/vertex_access.hpp"
#include "marrow/io/gltf/gltf_importer.hpp"
#include "marrow/io/file_bytes.hpp"
#include "marrow/io/native/native_format.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/compiled_animations.hpp"
#include "marrow/model/compress_model_clips.hpp"
#include "demo/demo_character.hpp"
#include "marrow/model/unit_scale.hpp"
#include "marrow/runtime/offline/compressed_clip_data.hpp"
#include "test_util.hpp"

namespace marrow::test {

// ---------------------------------------------------------------------------------------------
// Exact comparison (floats bitwise) of two models, sharing structure included.

template <class T>
bool same_bits(const T& a, const T& b) {
  static_assert(std::is_trivially_copyable_v<T>);
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  static_assert(std::is_trivially_copyable_v<T>);
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool same_keys(const std::vector<Keyframe>& a, const std::vector<Keyframe>& b);

void expect_same_clip(const AnimationClip& a, const AnimationClip& b);

void expect_same_compressed_clip(const RuntimeClip& a, const RuntimeClip& b);

void expect_same_track(const MorphWeightTrack& a, const MorphWeightTrack& b);

void expect_same_deltas(const std::vector<std::vector<glm::vec3>>& a, const std::vector<std::vector<glm::vec3>>& b);


void expect_same_model(const Model& a, const Model& b);

// Every skinned material carries the same palette in both models (the reader reinstalls the
// bind-pose palette, as the importer and make_demo_character do).
void expect_same_palettes(const Model& a, const Model& b);

// The largest absolute difference between two float arrays (0 when bitwise equal).
float max_difference(std::span<const float> a, std::span<const float> b);

template <class T>
std::span<const float> floats(std::span<const T> v) {
  return {reinterpret_cast<const float*>(v.data()), v.size_bytes() / sizeof(float)};
}

// Plays every animation of both models (and the loaded pose) through an Animator at several
// times and compares absolute bone transforms and every posed part (positions and normals).
void expect_same_poses(const Model& a, const Model& b, float tolerance = 0.f, std::size_t max_times = 6);

// ---------------------------------------------------------------------------------------------
// A small model that uses every field of the format, with sentinel values the hostile tests
// search for to find a field's offset (layout per docs/native-format.md).

inline constexpr int kPrimitiveSentinel = 0x7A002000;  // part 0 of mesh 0: source_primitive
inline constexpr int kNodeSentinel = 0x7A001000;       // bone i: source_node = sentinel + i
inline constexpr int kSkinSentinel = 0x7A005000;     // skin 0: source_skin
inline constexpr double kChannelTimeSentinel = 0.123456789012345;  // animation 0 channel 0: times[0]

ModelMeshPart triangle_part(const VertexLayout& layout, float x);

Model small_model();

// ---------------------------------------------------------------------------------------------
// Byte surgery on files.

using Bytes = std::vector<std::byte>;

template <class T>
void put(Bytes& b, std::size_t at, T v) {
  ASSERT_LE(at + sizeof(T), b.size());
  std::memcpy(b.data() + at, &v, sizeof(T));
}

template <class T>
T get(const Bytes& b, std::size_t at) {
  T v{};
  if (at + sizeof(T) <= b.size()) std::memcpy(&v, b.data() + at, sizeof(T));
  return v;
}

// The offset of the only occurrence of value's bytes (fails the test when not exactly one).
template <class T>
std::size_t find_unique(const Bytes& b, const T& value) {
  std::vector<std::size_t> hits;
  for (std::size_t i = 0; i + sizeof(T) <= b.size(); ++i) {
    if (std::memcmp(b.data() + i, &value, sizeof(T)) == 0) hits.push_back(i);
  }
  EXPECT_EQ(hits.size(), 1u) << "sentinel found " << hits.size() << " times";
  return hits.empty() ? 0 : hits.front();
}

// The offset just after the only length-prefixed string s.
std::size_t after_string(const Bytes& b, std::string_view s);

struct Section {
  std::uint32_t tag;
  std::uint32_t flags;
  Bytes payload;
};

std::uint32_t tag_of(const char (&s)[5]);

std::vector<Section> split(const Bytes& b);

// A well-framed file (header length and section count right) from sections.
Bytes join(const Bytes& original, const std::vector<Section>& sections);

// Either loads a model every consumer can use (an Animator plays and poses it) or throws
// ImportError; anything else (another exception, a crash under the sanitizers) fails.
::testing::AssertionResult loads_or_refuses(const Bytes& bytes, bool* loaded = nullptr);

// The demo character with its skin clips compressed (compress_model_clips).
Model compressed_demo(bool segmented = false);

}  // namespace marrow::test
