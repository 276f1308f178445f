// The BVH grammar marrow reads (docs/formats.md, "BVH"):
//   HIERARCHY  ROOT name { OFFSET x y z  CHANNELS n c1..cn  (JOINT name {...} | End Site { OFFSET x y z })* }
//   (more ROOTs)  MOTION  Frames: n  Frame Time: t  then n lines of `columns` numbers each.
// Every refusal names the line. The hierarchy is read with an explicit stack (no recursion), so
// nesting costs no call stack and is limited by kMaxBvhDepth.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cmath>
#include <limits>
#include <string>
#include <system_error>
#include <vector>

#include "bvh_document.hpp"
#include "bvh_text.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/bvh/bvh_importer.hpp"

namespace marrow::bvh {

std::string_view channel_name(Channel c) noexcept {
  constexpr std::string_view kNames[] = {"Xposition", "Yposition", "Zposition", "Xrotation", "Yrotation", "Zrotation"};
  return kNames[static_cast<int>(c)];
}

namespace {

using C = ImportErrorCode;

// A channel count or name list longer than this is not a BVH joint (each channel at most once).
constexpr int kMaxChannels = 6;
// Frame Times of a clip span less than 2^52 ticks (14 years), as native compressed clips do.
constexpr double kMaxDurationTicks = 4503599627370496.0;

[[noreturn]] void fail(C code, int line, const std::string& what) {
  throw ImportError(code, "line " + std::to_string(line) + ": " + what);
}

// A token as shown in a message: quoted, at most 40 characters, unprintable bytes as '?'.
std::string quoted(std::string_view token) {
  if (token.empty()) return "the end of the file";
  std::string out = "'";
  for (std::size_t i = 0; i < token.size() && i < 40; ++i) {
    const auto c = static_cast<unsigned char>(token[i]);
    out += c >= 0x20 && c < 0x7f ? static_cast<char>(c) : '?';
  }
  return out + (token.size() > 40 ? "...'" : "'");
}

enum class Number { Ok, NotANumber, NotFinite };

// A decimal number as a float (a leading '+' allowed); NotFinite for NaN, infinities and values
// beyond the float range.
Number read_number(std::string_view token, float& out) {
  if (token.starts_with('+')) token.remove_prefix(1);
  double v = 0.0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (end != token.data() + token.size() || token.empty()) return Number::NotANumber;
  if (ec == std::errc::result_out_of_range) return Number::NotFinite;
  if (ec != std::errc()) return Number::NotANumber;
  out = static_cast<float>(v);
  return std::isfinite(out) ? Number::Ok : Number::NotFinite;
}

bool read_count(std::string_view token, std::uint64_t& out) {
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
  return !token.empty() && ec == std::errc() && end == token.data() + token.size();
}

bool read_channel(std::string_view token, Channel& out) {
  for (int c = 0; c < kMaxChannels; ++c) {
    if (token == channel_name(static_cast<Channel>(c))) {
      out = static_cast<Channel>(c);
      return true;
    }
  }
  return false;
}

// One joint being read: what its block has declared so far.
struct OpenJoint {
  int joint = 0;
  bool offset = false;
  bool channels = false;
};

class HierarchyReader {
 public:
  HierarchyReader(BvhText& text, Document& doc, const ImportLimits& limits) : text_(text), doc_(doc), limits_(limits) {}

  // After a ROOT keyword: the root and everything inside its braces.
  void read_root() {
    std::vector<OpenJoint> stack;
    stack.push_back(open_joint("ROOT", -1));
    while (!stack.empty()) {
      const std::string_view t = text_.token();
      const int line = text_.line();
      OpenJoint& top = stack.back();
      Joint& joint = doc_.joints[static_cast<std::size_t>(top.joint)];
      const std::string in = " in " + describe(joint);
      if (t == "OFFSET") {
        if (top.offset) fail(C::InvalidDocument, line, "a second OFFSET" + in);
        read_offset(joint);
        top.offset = true;
      } else if (t == "CHANNELS") {
        if (joint.end_site) fail(C::InvalidDocument, line, "CHANNELS" + in + " (an End Site has none)");
        if (top.channels) fail(C::InvalidDocument, line, "a second CHANNELS" + in);
        read_channels(joint);
        top.channels = true;
      } else if (t == "JOINT" || t == "End") {
        if (joint.end_site) fail(C::InvalidDocument, line, quoted(t) + in + " (an End Site has only an OFFSET)");
        // The depth counts joints (ROOT is 1): a joint at the limit may still close with an End Site.
        if (stack.size() >= static_cast<std::size_t>(kMaxBvhDepth) + (t == "End" ? 1 : 0)) {
          fail(C::LimitExceeded, line, "joints nested deeper than " + std::to_string(kMaxBvhDepth) + " levels" + in);
        }
        stack.push_back(open_joint(t, top.joint));
      } else if (t == "}") {
        if (!top.offset) fail(C::InvalidDocument, line, describe(joint) + " has no OFFSET");
        stack.pop_back();
      } else if (t.empty()) {
        fail(C::InvalidDocument, line, "the file ends inside " + describe(joint) + " (a '}' is missing)");
      } else {
        fail(C::InvalidDocument, line, "unknown keyword " + quoted(t) + in);
      }
    }
  }

 private:
  std::string describe(const Joint& joint) const {
    return (joint.end_site ? "the End Site of '" + doc_.joints[static_cast<std::size_t>(joint.parent)].name + "'"
                           : "joint '" + joint.name + "'") +
           " (line " + std::to_string(joint.line) + ")";
  }

  // After ROOT, JOINT or End: the name (the rest of the line; "Site" for End) and the '{'.
  OpenJoint open_joint(std::string_view keyword, int parent) {
    const int line = text_.line();
    if (doc_.joints.size() + 2 > limits_.max_nodes) {  // the joints and the synthetic root
      fail(C::LimitExceeded, line, "more than ImportLimits::max_nodes (" + std::to_string(limits_.max_nodes) + ") nodes");
    }
    Joint joint;
    joint.parent = parent;
    joint.line = line;
    std::string_view name = text_.rest_of_line();
    const bool brace = name.ends_with('{');
    if (brace) name.remove_suffix(1);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
    if (keyword == "End") {
      if (name != "Site") fail(C::InvalidDocument, line, "'End' not followed by 'Site' but by " + quoted(name));
      joint.end_site = true;
      joint.name = doc_.joints[static_cast<std::size_t>(parent)].name + "_end";
    } else {
      if (name.empty()) fail(C::InvalidDocument, line, std::string(keyword) + " without a name");
      joint.name = std::string(name);
    }
    if (!brace) {
      const std::string_view t = text_.token();
      if (t != "{") fail(C::InvalidDocument, text_.line(), "expected '{' after " + std::string(keyword) + ", found " + quoted(t));
    }
    doc_.joints.push_back(std::move(joint));
    return OpenJoint{static_cast<int>(doc_.joints.size() - 1)};
  }

  void read_offset(Joint& joint) {
    for (int axis = 0; axis < 3; ++axis) {
      const std::string_view t = text_.token();
      const Number n = read_number(t, joint.offset[axis]);
      if (n == Number::NotANumber) fail(C::InvalidDocument, text_.line(), "OFFSET of " + describe(joint) + ": " + quoted(t) + " is not a number");
      if (n == Number::NotFinite) fail(C::InvalidDocument, text_.line(), "OFFSET of " + describe(joint) + ": " + quoted(t) + " is not a finite float");
    }
  }

  void read_channels(Joint& joint) {
    const std::string_view count_token = text_.token();
    const int line = text_.line();
    std::uint64_t count = 0;
    if (!read_count(count_token, count) || count > kMaxChannels) {
      fail(C::InvalidDocument, line, "CHANNELS count " + quoted(count_token) + " of " + describe(joint) + " is not 0 to 6");
    }
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::string_view t = text_.token();
      Channel c{};
      if (!read_channel(t, c)) {
        fail(C::InvalidDocument, text_.line(), "CHANNELS " + std::to_string(count) + " of " + describe(joint) + ": channel " +
                                                   std::to_string(i + 1) + " is " + quoted(t) +
                                                   ", not Xposition, Yposition, Zposition, Xrotation, Yrotation or Zrotation");
      }
      for (Channel seen : joint.channels) {
        if (seen == c) fail(C::InvalidDocument, text_.line(), "CHANNELS of " + describe(joint) + " names " + quoted(t) + " twice");
      }
      joint.channels.push_back(c);
    }
    joint.first_column = doc_.columns;
    doc_.columns += joint.channels.size();
  }

  BvhText& text_;
  Document& doc_;
  const ImportLimits& limits_;
};

// Which joint and channel a frame line's column k holds (for messages).
std::string column_name(const Document& doc, std::size_t k) {
  for (const Joint& joint : doc.joints) {
    if (k >= joint.first_column && k < joint.first_column + joint.channels.size()) {
      return std::string(channel_name(joint.channels[k - joint.first_column])) + " of joint '" + joint.name + "'";
    }
  }
  return "?";
}

// Returns the line of the Frames count.
int read_motion_header(BvhText& text, Document& doc) {
  std::string_view t = text.token();
  if (t != "Frames:") fail(C::InvalidDocument, text.line(), "expected 'Frames:' after MOTION, found " + quoted(t));
  t = text.token();
  const int frames_line = text.line();
  std::uint64_t frames = 0;
  if (!read_count(t, frames)) fail(C::InvalidDocument, text.line(), "Frames: " + quoted(t) + " is not a whole number");
  doc.frame_count = static_cast<std::size_t>(std::min<std::uint64_t>(frames, std::numeric_limits<std::size_t>::max()));
  t = text.token();
  const std::string_view time_word = text.token();
  if (t != "Frame" || time_word != "Time:") {
    fail(C::InvalidDocument, text.line(), "expected 'Frame Time:' after Frames, found " + quoted(t));
  }
  t = text.token();
  float frame_time = 0.f;
  const Number n = read_number(t, frame_time);
  if (n == Number::NotANumber) fail(C::InvalidDocument, text.line(), "Frame Time " + quoted(t) + " is not a number");
  if (n == Number::NotFinite || !(frame_time > 0.f)) {
    fail(C::InvalidAnimation, text.line(), "Frame Time " + quoted(t) + " is not a finite number above 0");
  }
  std::from_chars(t.data() + (t.starts_with('+') ? 1 : 0), t.data() + t.size(), doc.frame_time);  // keep the double
  if (doc.frame_count > 1 && doc.frame_time * 1e7 < 1.0) {  // frames a tick apart at least: distinct key times
    fail(C::InvalidAnimation, text.line(), "Frame Time " + quoted(t) + " is below one tick (100 ns): frames would share a time");
  }
  if (doc.frame_count > 1 && static_cast<double>(doc.frame_count - 1) * doc.frame_time * 1e7 >= kMaxDurationTicks) {
    fail(C::InvalidAnimation, text.line(),
         "Frames " + std::to_string(doc.frame_count) + " * Frame Time " + std::string(t) + " span 2^52 ticks (14 years) or more");
  }
  const std::string_view rest = text.rest_of_line();
  if (!rest.empty()) fail(C::InvalidDocument, text.line(), "unexpected " + quoted(rest) + " after Frame Time");
  return frames_line;
}

// The frame lines: exactly Frames non-blank lines of `columns` numbers (a different count is a
// truncated or padded file: refused rather than guessed at).
void read_frames(BvhText& text, Document& doc, ImportBudget& budget, int frames_line) {
  std::size_t lines = 0;
  {
    BvhText counter = text;
    std::string_view line;
    while (counter.next_line(line)) lines += line.empty() ? 0 : 1;
  }
  if (lines != doc.frame_count) {
    fail(C::InvalidDocument, frames_line,
         "Frames: " + std::to_string(doc.frame_count) + " but the file has " + std::to_string(lines) + " frame lines");
  }
  const std::uint64_t values = static_cast<std::uint64_t>(doc.frame_count) * doc.columns;  // both below the file size
  budget.charge(values * sizeof(float), "BVH frame values");
  doc.values.resize(static_cast<std::size_t>(values));
  std::string_view line;
  for (std::size_t f = 0; f < doc.frame_count; ++f) {
    do {
      text.next_line(line);
    } while (line.empty());
    const std::size_t count = count_fields(line);
    if (count != doc.columns) {
      fail(C::InvalidDocument, text.line(),
           "frame " + std::to_string(f) + " has " + std::to_string(count) + " numbers, the joints have " + std::to_string(doc.columns) + " channels");
    }
    float* out = doc.values.data() + f * doc.columns;
    for (std::size_t k = 0; k < doc.columns; ++k) {
      const std::string_view field = next_field(line);
      const Number n = read_number(field, out[k]);
      if (n == Number::Ok) continue;
      fail(n == Number::NotANumber ? C::InvalidDocument : C::InvalidAnimation, text.line(),
           "frame " + std::to_string(f) + " value " + std::to_string(k + 1) + " (" + column_name(doc, k) + "): " + quoted(field) +
               (n == Number::NotANumber ? " is not a number" : " is not a finite float"));
    }
  }
}

}  // namespace

Document parse_bvh(std::string_view text_bytes, ImportBudget& budget) {
  BvhText text(text_bytes);
  Document doc;
  std::string_view t = text.token();
  if (t != "HIERARCHY") fail(C::InvalidDocument, text.line(), "expected HIERARCHY, found " + quoted(t));
  t = text.token();
  if (t != "ROOT") fail(C::InvalidDocument, text.line(), "expected ROOT after HIERARCHY, found " + quoted(t));
  HierarchyReader hierarchy(text, doc, budget.limits());
  while (t == "ROOT") {
    hierarchy.read_root();
    t = text.token();
  }
  if (t != "MOTION") fail(C::InvalidDocument, text.line(), "expected ROOT or MOTION after the hierarchy, found " + quoted(t));
  const int frames_line = read_motion_header(text, doc);
  read_frames(text, doc, budget, frames_line);
  return doc;
}

}  // namespace marrow::bvh
