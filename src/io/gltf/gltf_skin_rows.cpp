#include "gltf_skin_rows.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <span>

#include "marrow/core/import_error.hpp"
#include "marrow/core/vertex_layout.hpp"
#include "marrow/io/gltf/detail/accessor_reader.hpp"
#include "marrow/runtime/offline/skin_influences.hpp"

namespace marrow::gltf {

namespace {

// "JOINTS_12" -> 12 for the prefix "JOINTS_"; -1 for other names (or no digits, or a leading 0
// other than "0" itself, which glTF's set numbering does not use).
long set_number(std::string_view semantic, std::string_view prefix) {
  if (semantic.substr(0, prefix.size()) != prefix) return -1;
  const std::string_view digits = semantic.substr(prefix.size());
  if (digits.empty() || digits.size() > 6 || (digits.size() > 1 && digits[0] == '0')) return -1;
  long value = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

// How many sets of a semantic the primitive has, numbered 0..count-1 (refused otherwise).
std::uint32_t set_count(const Primitive& prim, const PrimitiveWhere& where, std::string_view prefix) {
  std::vector<long> numbers;
  for (const Attribute& a : prim.attributes) {
    if (const long k = set_number(a.semantic, prefix); k >= 0) numbers.push_back(k);
  }
  std::sort(numbers.begin(), numbers.end());
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    if (numbers[i] != static_cast<long>(i)) {
      fail_primitive(where, std::string(prefix) + std::to_string(numbers[i]) + " without " + std::string(prefix) +
                                std::to_string(i) + " (sets are numbered 0, 1, 2, ... without gaps)");
    }
  }
  return static_cast<std::uint32_t>(numbers.size());
}

std::string set_name(std::string_view prefix, std::uint32_t set) { return std::string(prefix) + std::to_string(set); }

// "WEIGHTS_0" for one set, "WEIGHTS_0..WEIGHTS_2" for three.
std::string set_range(std::string_view prefix, std::uint32_t sets) {
  return sets <= 1 ? set_name(prefix, 0) : set_name(prefix, 0) + ".." + set_name(prefix, sets - 1);
}

}  // namespace

SkinShape skin_shape(const Primitive& prim, const PrimitiveWhere& where, const PartSkinning& skinning) {
  if (prim.find("JOINTS_0") == kNone || prim.find("WEIGHTS_0") == kNone) {
    fail_primitive(where, "is skinned but lacks JOINTS_0 or WEIGHTS_0");
  }
  const std::uint32_t sets = set_count(prim, where, "JOINTS_");
  const std::uint32_t weight_sets = set_count(prim, where, "WEIGHTS_");
  if (weight_sets != sets) {
    fail_primitive(where, std::to_string(sets) + " JOINTS sets (" + set_range("JOINTS_", sets) + ") but " +
                              std::to_string(weight_sets) + " WEIGHTS " + (weight_sets == 1 ? "set (" : "sets (") +
                              set_range("WEIGHTS_", weight_sets) + "): each joint index needs its weight");
  }
  if (std::uint64_t{sets} * 4 > kMaxInfluences) {
    throw ImportError(ImportErrorCode::LimitExceeded,
                      where() + ": " + std::to_string(sets) + " JOINTS sets: " + std::to_string(std::uint64_t{sets} * 4) +
                          " influences per vertex exceed marrow's " + std::to_string(kMaxInfluences));
  }
  SkinShape shape{sets, sets * 4, std::size_t{sets} * 4};
  if (const std::uint32_t keep = skinning.max_influences; keep > 0 && keep < shape.influences) {
    shape.influences = keep;
    shape.slots = (std::size_t{keep} + 3) / 4 * 4;
  }
  return shape;
}

SkinRowReader::SkinRowReader(const GltfAsset& asset, const Primitive& prim, const PrimitiveWhere& where, std::uint64_t n,
                             const PartSkinning& skinning, const SkinShape& shape, ImportBudget& budget)
    : where_(where), skinning_(skinning), shape_(shape) {
  const Document& doc = asset.document;
  for (std::uint32_t set = 0; set < shape.sets; ++set) {
    const std::string joints_name = set_name("JOINTS_", set), weights_name = set_name("WEIGHTS_", set);
    const std::uint32_t ja = prim.find(joints_name), wa = prim.find(weights_name);
    const Accessor& jacc = doc.accessors[ja];
    if (jacc.type != AccessorType::Vec4 || jacc.count != n) {
      fail_primitive(where, joints_name + " accessor " + std::to_string(ja) + " must be VEC4 with " + std::to_string(n) +
                                " elements");
    }
    set_joints_.emplace_back(asset, ja, budget);
    set_weights_.push_back(read_attribute_floats(asset, where, weights_name.c_str(), wa, {AccessorType::Vec4}, n, budget));
  }
}

// Two passes over each vertex's few source values: the first checks the joints, repairs and
// sums the weights, the second writes the row straight to its place. One set (4 influences),
// by far the most common, is compiled with its count known; the loop keeps to plain numbers
// (messages are written afterwards) and builds no row on the stack, whose scalar stores a
// vector load could not forward.
template <std::uint32_t kSets>
void SkinRowReader::rows(std::size_t begin, std::size_t end, const SkinRowsOut& out) noexcept {
  const std::uint32_t sets = kSets != 0 ? kSets : shape_.sets;
  const std::size_t slots = std::size_t{sets} * 4;
  const bool reduce = shape_.influences < slots;
  const int* map = skinning_.source_to_palette->data();
  const std::size_t map_size = skinning_.source_to_palette->size();
  std::size_t negative = negative_, renormalised = renormalised_, zero = zero_, reduced = reduced_;
  Found bad_joint = bad_joint_, first_negative = first_negative_, first_zero = first_zero_;
  for (std::size_t v = begin; v < end; ++v) {
    float sum = 0.f;
    for (std::uint32_t set = 0; set < sets && bad_joint.vertex != v; ++set) {
      std::uint32_t joints[4];
      set_joints_[set].load(v, joints);
      const float* weights = &set_weights_[set].values()[v * 4];
      for (std::size_t c = 0; c < 4; ++c) {
        if (joints[c] >= map_size) {
          bad_joint = {v, 4 * set + c, 0.f, joints[c]};
          break;
        }
        if (weights[c] < 0.f && negative++ == 0) first_negative = {v, 4 * set + c, weights[c]};
        sum += weights[c] < 0.f ? 0.f : weights[c];  // glTF weights are >= 0: repaired to 0 (exporters round to -1e-9)
      }
    }
    if (bad_joint.vertex == v) break;
    if (sum > 0.f) {
      if (weights_need_renormalising(sum)) ++renormalised;
    } else if (zero++ == 0) {
      first_zero.vertex = v;
    }
    std::byte* joints_out = out.joints + v * out.stride;
    std::byte* weights_out = out.weights + v * out.stride;
    std::array<std::uint16_t, kMaxInfluences> j;  // only when reducing
    std::array<float, kMaxInfluences> w;
    for (std::uint32_t set = 0; set < sets; ++set) {
      std::uint32_t joints[4];
      set_joints_[set].load(v, joints);
      const float* weights = &set_weights_[set].values()[v * 4];
      for (std::size_t c = 0; c < 4; ++c) {
        const std::size_t i = 4 * set + c;
        const std::uint16_t joint = static_cast<std::uint16_t>(map[joints[c]]);
        // Renormalised over all sets; weights that sum to 0 ride on the first joint alone.
        const float weight = sum > 0.f ? (weights[c] < 0.f ? 0.f : weights[c]) / sum : (i == 0 ? 1.f : 0.f);
        if (reduce) {
          j[i] = joint;
          w[i] = weight;
        } else {
          std::memcpy(joints_out + i * sizeof joint, &joint, sizeof joint);
          std::memcpy(weights_out + i * sizeof weight, &weight, sizeof weight);
        }
      }
    }
    if (!reduce) continue;
    if (keep_largest_influences(std::span(j.data(), slots), std::span(w.data(), slots), shape_.influences)) ++reduced;
    std::memcpy(joints_out, j.data(), shape_.slots * sizeof(std::uint16_t));
    std::memcpy(weights_out, w.data(), shape_.slots * sizeof(float));
  }
  negative_ = negative;
  renormalised_ = renormalised;
  zero_ = zero;
  reduced_ = reduced;
  bad_joint_ = bad_joint;
  first_negative_ = first_negative;
  first_zero_ = first_zero;
}

// The vertices of a single set from `begin` on while nothing in them needs a repair or a
// message (nearly every vertex of every file): every joint inside the skin, no weight negative,
// the sum above 0. rows() would make the same bits, in a loop whose every step carries its
// checks and messages; this one keeps to a few registers. Returns the first vertex it did not
// write.
template <class Joint>
std::size_t SkinRowReader::plain_rows(const Joint* joints, std::size_t begin, std::size_t end,
                                      const SkinRowsOut& out) noexcept {
  const float* weights = set_weights_[0].values().data();
  const int* map = skinning_.source_to_palette->data();
  const std::size_t map_size = skinning_.source_to_palette->size();
  // Locals, not out's fields: the row stores could alias them and make the loop reload them.
  std::byte* joints_row = out.joints + begin * out.stride;
  std::byte* weights_row = out.weights + begin * out.stride;
  const std::size_t stride = out.stride;
  std::size_t renormalised = 0, v = begin;
  for (; v < end; ++v, joints_row += stride, weights_row += stride) {
    const Joint* j = joints + 4 * v;
    float w[4];
    std::memcpy(w, weights + 4 * v, sizeof w);
    bool plain = true;
    for (std::size_t c = 0; c < 4; ++c) plain &= (j[c] < map_size) & !(w[c] < 0.f);
    // rows() sums from 0: the same bits once the sum is above 0 (only a zero's sign could differ).
    const float sum = ((w[0] + w[1]) + w[2]) + w[3];
    if (!(plain && sum > 0.f)) break;
    renormalised += weights_need_renormalising(sum) ? 1 : 0;
    for (std::size_t c = 0; c < 4; ++c) {
      const auto joint = static_cast<std::uint16_t>(map[j[c]]);
      std::memcpy(joints_row + c * sizeof joint, &joint, sizeof joint);
    }
    float q[4];
    for (std::size_t c = 0; c < 4; ++c) q[c] = w[c] / sum;
    std::memcpy(weights_row, q, sizeof q);
  }
  renormalised_ += renormalised;
  return v;
}

void SkinRowReader::read(std::size_t begin, std::size_t end, const SkinRowsOut& out) {
  if (shape_.sets == 1 && shape_.influences == 4) {
    // Plain vertices in their own loop; each other one through rows(), which stops at a bad joint.
    std::size_t v = begin;
    while (v < end && bad_joint_.vertex >= end) {
      v = set_joints_[0].visit([&](const auto* joints) { return plain_rows(joints, v, end, out); });
      if (v < end) rows<1>(v, v + 1, out), ++v;
    }
  } else if (shape_.sets == 1) {
    rows<1>(begin, end, out);
  } else {
    rows<0>(begin, end, out);
  }
  if (bad_joint_.vertex < end) {
    fail_primitive(where_, slot_name("JOINTS_", bad_joint_) + " value " + std::to_string(bad_joint_.joint) + " is beyond skin " +
                               std::to_string(skinning_.skin) + "'s " + std::to_string(skinning_.source_to_palette->size()) +
                               " joints");
  }
}

void SkinRowReader::report(std::vector<Diagnostic>& diagnostics) const {
  if (negative_ > 0) {
    add_diagnostic(diagnostics, DiagnosticCode::SkinWeightsNegative,
                   where_() + ": " + std::to_string(negative_) + " negative weights set to 0 (the first: " +
                       slot_name("WEIGHTS_", first_negative_) + " value " + std::to_string(first_negative_.weight) + ")",
                   static_cast<int>(negative_));
  }
  const std::string all_sets = set_range("WEIGHTS_", shape_.sets);
  if (renormalised_ > 0) {
    add_diagnostic(diagnostics, DiagnosticCode::SkinWeightsRenormalized,
                   where_() + ": " + std::to_string(renormalised_) + " vertices' weights (" + all_sets + ") did not sum to 1",
                   static_cast<int>(renormalised_));
  }
  if (zero_ > 0) {
    add_diagnostic(diagnostics, DiagnosticCode::SkinWeightsZero,
                   where_() + ": " + std::to_string(zero_) + " vertices' weights (" + all_sets +
                       ") sum to 0 (the first: vertex " + std::to_string(first_zero_.vertex) +
                       "); each is bound to its first joint (JOINTS_0) with weight 1",
                   static_cast<int>(zero_));
  }
  if (reduced_ > 0) {
    const std::string keep = std::to_string(shape_.influences);
    add_diagnostic(diagnostics, DiagnosticCode::SkinInfluencesReduced,
                   where_() + ": " + std::to_string(reduced_) + " vertices had more than " + keep + " nonzero weights (of " +
                       std::to_string(shape_.sets * 4) + " influences, " + set_range("JOINTS_", shape_.sets) + "); the " + keep +
                       " largest are kept, renormalised (ImportOptions::max_influences)",
                   static_cast<int>(reduced_));
  }
}

std::string SkinRowReader::slot_name(std::string_view prefix, const Found& f) {
  return "vertex " + std::to_string(f.vertex) + " " + set_name(prefix, static_cast<std::uint32_t>(f.slot / 4));
}

}  // namespace marrow::gltf
