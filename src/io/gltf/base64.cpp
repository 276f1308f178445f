// Base64 decoding at memory speed (include/marrow/io/gltf/detail/base64.hpp). Every path validates every
// character: the vector paths check a whole block at once and, when a block holds a bad
// character, hand that block to the table path, which names it.
#include "marrow/io/gltf/detail/base64.hpp"

#include <immintrin.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "marrow/core/import_error.hpp"

namespace marrow::gltf {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::uint32_t kBad = 0x01000000;  // above the 24 bits of a group

// One table per position in a 4-character group: the character's 6 bits already shifted to
// their place in the 24-bit group, or kBad. A group is then four loads and three ORs.
struct Tables {
  std::array<std::array<std::uint32_t, 256>, 4> shifted{};
  Tables() {
    for (auto& t : shifted) t.fill(kBad);
    for (std::uint32_t v = 0; v < 64; ++v) {
      const auto c = static_cast<unsigned char>(kAlphabet[v]);
      for (int pos = 0; pos < 4; ++pos) shifted[static_cast<std::size_t>(pos)][c] = v << (18 - 6 * pos);
    }
  }
};
const Tables kTables;

std::string show_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  char text[16];
  std::snprintf(text, sizeof text, "byte 0x%02X", u);
  return text;
}

[[noreturn]] void fail(const std::string& message) { throw ImportError(ImportErrorCode::InvalidUri, message); }

[[noreturn]] void fail_at(std::string_view text, std::size_t from) {
  for (std::size_t i = from; i < text.size(); ++i) {
    if ((kTables.shifted[0][static_cast<unsigned char>(text[i])] & kBad) != 0) {
      fail("base64: invalid " + show_char(text[i]) + " at position " + std::to_string(i));
    }
  }
  fail("base64: invalid character after position " + std::to_string(from));  // not reached
}

// Whole groups from in[begin, end) (a multiple of 4 characters) to out.
void decode_groups_table(std::string_view text, std::size_t begin, std::size_t end, std::byte* out) {
  const auto* in = reinterpret_cast<const unsigned char*>(text.data());
  const auto& t = kTables.shifted;
  for (std::size_t i = begin; i < end; i += 4, out += 3) {
    const std::uint32_t v = t[0][in[i]] | t[1][in[i + 1]] | t[2][in[i + 2]] | t[3][in[i + 3]];
    if ((v & kBad) != 0) fail_at(text, i);
    out[0] = static_cast<std::byte>(v >> 16);
    out[1] = static_cast<std::byte>(v >> 8);
    out[2] = static_cast<std::byte>(v);
  }
}

// The vector decoders work on the nibbles of each character. A character is valid when
// kValidLo[low nibble] & kValidHi[high nibble] is zero; its 6-bit value is the character plus
// kRoll[high nibble, minus 1 for '/' whose high nibble 2 it shares with '+'].
//   high nibble 2: '+' (0x2B) and '/' (0x2F); 3: digits 0x30-0x39; 4: 'A'-'O' (0x41-0x4F);
//   5: 'P'-'Z' (0x50-0x5A); 6: 'a'-'o'; 7: 'p'-'z'. Bit 0x10 of kValidHi marks the high nibbles
//   holding no alphabet character, and every kValidLo entry has it.
#define MARROW_B64_VALID_LO 0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A
#define MARROW_B64_VALID_HI 0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10
#define MARROW_B64_ROLL 0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0

// 16 characters -> 16 bytes holding 12 decoded ones first; false when a character is invalid.
__attribute__((target("ssse3"))) inline bool decode16(__m128i in, __m128i& out) {
  const __m128i valid_lo = _mm_setr_epi8(MARROW_B64_VALID_LO);
  const __m128i valid_hi = _mm_setr_epi8(MARROW_B64_VALID_HI);
  const __m128i roll = _mm_setr_epi8(MARROW_B64_ROLL);
  const __m128i nibble = _mm_set1_epi8(0x0f);
  const __m128i hi = _mm_and_si128(_mm_srli_epi32(in, 4), nibble);
  const __m128i lo = _mm_and_si128(in, nibble);
  const __m128i bad = _mm_and_si128(_mm_shuffle_epi8(valid_lo, lo), _mm_shuffle_epi8(valid_hi, hi));
  if (_mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) != 0xffff) return false;
  const __m128i slash = _mm_cmpeq_epi8(in, _mm_set1_epi8('/'));
  const __m128i values = _mm_add_epi8(in, _mm_shuffle_epi8(roll, _mm_add_epi8(slash, hi)));
  // 00aaaaaa 00bbbbbb 00cccccc 00dddddd -> aaaaaabbbbbb (16 bit) -> 24 bits per 32-bit lane.
  const __m128i pairs = _mm_maddubs_epi16(values, _mm_set1_epi32(0x01400140));
  const __m128i groups = _mm_madd_epi16(pairs, _mm_set1_epi32(0x00011000));
  out = _mm_shuffle_epi8(groups, _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1));
  return true;
}

// Returns how many characters were decoded (a multiple of 16); stops before a block with a
// bad character. Writes 16 bytes per 12 decoded, so it stops while 16 fit in out_size.
__attribute__((target("ssse3"))) std::size_t decode_ssse3(const char* in, std::size_t n, std::byte* out,
                                                           std::size_t out_size) {
  std::size_t i = 0, o = 0;
  while (i + 16 <= n && o + 16 <= out_size) {
    __m128i block;
    if (!decode16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i)), block)) break;
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + o), block);
    i += 16;
    o += 12;
  }
  return i;
}

// As decode_ssse3, 32 characters -> 24 bytes per step (32 written).
__attribute__((target("avx2"))) std::size_t decode_avx2(const char* in, std::size_t n, std::byte* out,
                                                         std::size_t out_size) {
  const __m256i valid_lo = _mm256_setr_epi8(MARROW_B64_VALID_LO, MARROW_B64_VALID_LO);
  const __m256i valid_hi = _mm256_setr_epi8(MARROW_B64_VALID_HI, MARROW_B64_VALID_HI);
  const __m256i roll = _mm256_setr_epi8(MARROW_B64_ROLL, MARROW_B64_ROLL);
  const __m256i nibble = _mm256_set1_epi8(0x0f);
  const __m256i slash_char = _mm256_set1_epi8('/');
  const __m256i pack = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,  //
                                        2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);  // 12 + 12 bytes together
  std::size_t i = 0, o = 0;
  while (i + 32 <= n && o + 32 <= out_size) {
    const __m256i chars = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    const __m256i hi = _mm256_and_si256(_mm256_srli_epi32(chars, 4), nibble);
    const __m256i lo = _mm256_and_si256(chars, nibble);
    const __m256i bad = _mm256_and_si256(_mm256_shuffle_epi8(valid_lo, lo), _mm256_shuffle_epi8(valid_hi, hi));
    if (!_mm256_testz_si256(bad, bad)) break;
    const __m256i slash = _mm256_cmpeq_epi8(chars, slash_char);
    const __m256i values = _mm256_add_epi8(chars, _mm256_shuffle_epi8(roll, _mm256_add_epi8(slash, hi)));
    const __m256i pairs = _mm256_maddubs_epi16(values, _mm256_set1_epi32(0x01400140));
    const __m256i groups = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x00011000));
    const __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(groups, pack), lanes);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + o), bytes);
    i += 32;
    o += 24;
  }
  // One SSSE3 block may still fit where a 32-byte store did not.
  return i + decode_ssse3(in + i, n - i, out + o, out_size - o);
}

enum class Level { Table, Ssse3, Avx2 };

Level detect_level() noexcept {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) return Level::Avx2;
  if (__builtin_cpu_supports("ssse3")) return Level::Ssse3;
  return Level::Table;
}

const Level kLevel = detect_level();

std::vector<std::byte> decode(std::string_view text, Level level) {
  std::size_t n = text.size();
  std::size_t padding = 0;
  while (n > 0 && text[n - 1] == '=' && padding < 2) {
    --n;
    ++padding;
  }
  if (padding > 0 && text.size() % 4 != 0) {
    fail("base64: padding at the end of " + std::to_string(text.size()) +
         " characters does not complete a 4-character group");
  }
  const std::size_t whole = n / 4 * 4;  // characters in whole groups
  const std::size_t rest = n - whole;   // 0, 2 or 3 (1 is refused below, after naming bad characters)
  std::vector<std::byte> out(whole / 4 * 3 + (rest >= 2 ? rest - 1 : 0));
  std::size_t done = 0;
  if (level == Level::Avx2) done = decode_avx2(text.data(), whole, out.data(), out.size());
  if (level == Level::Ssse3) done = decode_ssse3(text.data(), whole, out.data(), out.size());
  decode_groups_table(text, done, whole, out.data() + done / 4 * 3);
  if (rest > 0) {
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < rest; ++k) {
      const std::uint32_t bits = kTables.shifted[k][static_cast<unsigned char>(text[whole + k])];
      if ((bits & kBad) != 0) fail_at(text, whole + k);
      v |= bits;
    }
    // One character past a 4-character group holds only 6 bits: not a whole byte.
    if (rest == 1) fail("base64: " + std::to_string(n) + " characters cannot encode whole bytes");
    std::byte* tail = out.data() + whole / 4 * 3;
    tail[0] = static_cast<std::byte>(v >> 16);
    if (rest == 3) tail[1] = static_cast<std::byte>(v >> 8);
  }
  return out;
}

#undef MARROW_B64_VALID_LO
#undef MARROW_B64_VALID_HI
#undef MARROW_B64_ROLL

}  // namespace

std::vector<std::byte> decode_base64(std::string_view text) { return decode(text, kLevel); }

namespace detail {
const char* base64_decoder_name() noexcept {
  return kLevel == Level::Avx2 ? "avx2" : kLevel == Level::Ssse3 ? "ssse3" : "table";
}
std::vector<std::byte> decode_base64_table(std::string_view text) { return decode(text, Level::Table); }
}  // namespace detail

std::string encode_base64(std::span<const std::byte> bytes) {
  std::string out((bytes.size() + 2) / 3 * 4, '=');
  std::size_t i = 0, o = 0;
  for (; i + 3 <= bytes.size(); i += 3, o += 4) {
    const std::uint32_t v =
        std::uint32_t(bytes[i]) << 16 | std::uint32_t(bytes[i + 1]) << 8 | std::uint32_t(bytes[i + 2]);
    out[o] = kAlphabet[(v >> 18) & 63];
    out[o + 1] = kAlphabet[(v >> 12) & 63];
    out[o + 2] = kAlphabet[(v >> 6) & 63];
    out[o + 3] = kAlphabet[v & 63];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    const std::uint32_t v = std::uint32_t(bytes[i]) << 16 | (rest == 2 ? std::uint32_t(bytes[i + 1]) << 8 : 0u);
    out[o] = kAlphabet[(v >> 18) & 63];
    out[o + 1] = kAlphabet[(v >> 12) & 63];
    if (rest == 2) out[o + 2] = kAlphabet[(v >> 6) & 63];
  }
  return out;
}

}  // namespace marrow::gltf
