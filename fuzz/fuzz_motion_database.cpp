// The native reader's motion database (section MMDB): the input is an MMDB payload, appended to
// a valid file of the built-in character's skeleton and clips (meshes left out, so runs stay
// fast), then read. A database the reader accepts is searched: the accelerated search must
// return brute force's cost, and its row whenever the least cost is unique (MM1), for queries
// taken from its own rows and from the input's bytes. Seeds: with MARROW_FUZZ_SEED_DIR set, the
// target first writes there the payloads of made-up databases over the character's clips at
// 60 and 30 Hz (demo_motion_database.hpp; scripts/fuzz-run does this).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "demo/demo_character.hpp"
#include "demo/demo_motion_database.hpp"
#include "fuzz_options.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/native/native_format.hpp"
#include "marrow/model/motion_database.hpp"

namespace {

using Bytes = std::vector<std::byte>;

constexpr std::size_t kHeader = 24, kSectionHeader = 16;
constexpr std::uint32_t kTag = 0x42444D4Du;  // "MMDB"

marrow::Model base_model() {
  marrow::Model model = marrow::make_demo_character();
  model.meshes.clear();
  for (marrow::Skin& skin : model.skins) skin.meshes.clear();
  for (marrow::ModelAnimation& a : model.animations) a.morph_channels.clear();
  return model;
}

const Bytes& base_file() {
  static const Bytes file = marrow::write_native(base_model());
  return file;
}

// The base file with one more section, MMDB (not required), holding payload.
Bytes with_payload(std::span<const std::byte> payload) {
  Bytes out = base_file();
  const std::uint32_t flags = 0;
  const std::uint64_t length = payload.size();
  const std::size_t at = out.size();
  out.resize(at + kSectionHeader);
  std::memcpy(out.data() + at, &kTag, 4);
  std::memcpy(out.data() + at + 4, &flags, 4);
  std::memcpy(out.data() + at + 8, &length, 8);
  out.insert(out.end(), payload.begin(), payload.end());
  std::uint32_t sections;
  std::memcpy(&sections, out.data() + 12, 4);
  ++sections;
  std::memcpy(out.data() + 12, &sections, 4);
  const std::uint64_t file_length = out.size();
  std::memcpy(out.data() + 16, &file_length, 8);
  return out;
}

// The MMDB payload the writer makes for the character with a made-up database at `rate`.
Bytes seed_payload(double rate) {
  marrow::Model model = base_model();
  model.motion_database = std::make_shared<const marrow::MotionDatabase>(marrow::demo_motion_database_data(model, rate));
  const Bytes file = marrow::write_native(model);
  for (std::size_t pos = kHeader; pos < file.size();) {
    std::uint32_t tag;
    std::uint64_t length;
    std::memcpy(&tag, file.data() + pos, 4);
    std::memcpy(&length, file.data() + pos + 8, 8);
    if (tag == kTag) return Bytes(file.begin() + static_cast<std::ptrdiff_t>(pos + kSectionHeader), file.begin() + static_cast<std::ptrdiff_t>(pos + kSectionHeader + length));
    pos += kSectionHeader + length;
  }
  std::abort();  // the writer always writes the section of a model with a database
}

void expect_exact(const marrow::MotionDatabase& db, std::span<const float> query, const marrow::MotionExclusion& exclude) {
  const marrow::MotionMatch fast = db.search(query, exclude), brute = db.brute_force(query, exclude);
  const bool same_cost = fast.cost == brute.cost || (std::isnan(fast.cost) && std::isnan(brute.cost));
  if (!same_cost) std::abort();
  // The same row unless another row ties at that cost (both searches give ties to the lowest row).
  if (fast.row != brute.row && std::isfinite(brute.cost)) std::abort();
}

// Rows of the database as queries, one perturbed by the input's bytes, with and without exclusions.
void search_work_out(const marrow::MotionDatabase& db, const std::uint8_t* data, std::size_t size) {
  std::array<float, marrow::kMotionFeatures> q{};
  const std::size_t step = std::max<std::size_t>(db.size() / 16, 1);
  for (std::size_t row = 0; row < db.size(); row += step) {
    std::copy_n(db.row(row).data(), marrow::kMotionFeatures, q.begin());
    expect_exact(db, q, {});
    expect_exact(db, q, {row, 20, 10});
    for (std::size_t c = 0; c < marrow::kMotionFeatures && c < size; ++c) q[c] += static_cast<float>(data[c]) / 64.f - 2.f;
    expect_exact(db, q, {row, 5, 0});
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("MARROW_FUZZ_SEED_DIR")) {
    for (const double rate : {60.0, 30.0}) {
      const Bytes payload = seed_payload(rate);
      std::ofstream out(std::string(dir) + "/demo_mmdb_" + std::to_string(static_cast<int>(rate)), std::ios::binary);
      out.write(reinterpret_cast<const char*>(payload.data()), static_cast<std::streamsize>(payload.size()));
    }
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  marrow::fuzz::use_simd_choice_of(size);
  const Bytes file = with_payload({reinterpret_cast<const std::byte*>(data), size});
  marrow::Model model;
  try {
    model = marrow::read_native(file, marrow::fuzz::options().limits);
  } catch (const marrow::ImportError&) {
    return 0;
  }
  if (!model.motion_database) std::abort();  // an accepted MMDB section is the model's database
  search_work_out(*model.motion_database, data, size);
  return 0;
}
