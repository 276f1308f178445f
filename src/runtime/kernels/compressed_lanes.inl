// Compressed clips, eight lanes at once (AVX2 and AVX-512; included by compressed_sampling.inl):
// locate on u32 lanes (one AVX2 register), widen_lane on 64-bit lanes, as keys span more than 32
// bits. W8 is eight 64-bit integers (one AVX-512 register, two AVX2 ones), M8 a lane mask. Loads
// from computed addresses go through scalar registers: the gather instructions were slower on the
// processors measured (docs/runtime.md).

#if MARROW_SIMD_LEVEL >= 2
struct W8 {
  __m512i v;
};
struct M8 {
  __mmask8 m;
};
MARROW_LANES_INLINE W8 w8_splat(std::uint64_t x) { return {_mm512_set1_epi64(static_cast<long long>(x))}; }
MARROW_LANES_INLINE W8 w8_u32(const std::uint32_t* p) {
  return {_mm512_cvtepu32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)))};
}
MARROW_LANES_INLINE W8 w8_u8(const std::uint8_t* p) {
  return {_mm512_cvtepu8_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)))};
}
MARROW_LANES_INLINE void w8_store(std::uint64_t* p, W8 a) { _mm512_storeu_si512(p, a.v); }
// Sixteen bytes per lane: the low and high eight of each.
MARROW_LANES_INLINE void w8_load16(const std::uint8_t* const* at, W8& lo, W8& hi) {
  const auto q = [&](int l) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(at[l])); };
  __m512i a = _mm512_castsi128_si512(q(0)), b = _mm512_castsi128_si512(q(4));
  a = _mm512_inserti64x2(a, q(1), 1), b = _mm512_inserti64x2(b, q(5), 1);
  a = _mm512_inserti64x2(a, q(2), 2), b = _mm512_inserti64x2(b, q(6), 2);
  a = _mm512_inserti64x2(a, q(3), 3), b = _mm512_inserti64x2(b, q(7), 3);
  lo.v = _mm512_permutex2var_epi64(a, _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), b);
  hi.v = _mm512_permutex2var_epi64(a, _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15), b);
}
MARROW_LANES_INLINE W8 operator+(W8 a, W8 b) { return {_mm512_add_epi64(a.v, b.v)}; }
MARROW_LANES_INLINE W8 operator-(W8 a, W8 b) { return {_mm512_sub_epi64(a.v, b.v)}; }
MARROW_LANES_INLINE W8 operator&(W8 a, W8 b) { return {_mm512_and_si512(a.v, b.v)}; }
MARROW_LANES_INLINE W8 operator|(W8 a, W8 b) { return {_mm512_or_si512(a.v, b.v)}; }
MARROW_LANES_INLINE W8 shift_right(W8 a, W8 n) { return {_mm512_srlv_epi64(a.v, n.v)}; }
MARROW_LANES_INLINE W8 shift_left(W8 a, W8 n) { return {_mm512_sllv_epi64(a.v, n.v)}; }
template <int kBits>
MARROW_LANES_INLINE W8 shift_right(W8 a) {
  return {_mm512_srli_epi64(a.v, kBits)};
}
MARROW_LANES_INLINE W8 mul32(W8 a, W8 b) { return {_mm512_mul_epu32(a.v, b.v)}; }  // of the low 32 bits
MARROW_LANES_INLINE W8 select(M8 m, W8 a, W8 b) { return {_mm512_mask_blend_epi64(m.m, b.v, a.v)}; }
MARROW_LANES_INLINE W8 w8_of_u32(__m256i x) { return {_mm512_cvtepu32_epi64(x)}; }
MARROW_LANES_INLINE __m256i low32(W8 a) { return _mm512_cvtepi64_epi32(a.v); }
MARROW_LANES_INLINE M8 m8_of_mask32(__m256i m) { return {static_cast<__mmask8>(_mm256_movemask_ps(_mm256_castsi256_ps(m)))}; }
#else
struct W8 {
  __m256i lo, hi;  // lanes 0-3, 4-7
};
struct M8 {
  __m256i lo, hi;  // all ones or zeros per lane
};
MARROW_LANES_INLINE W8 w8_splat(std::uint64_t x) {
  const __m256i v = _mm256_set1_epi64x(static_cast<long long>(x));
  return {v, v};
}
MARROW_LANES_INLINE W8 w8_u32(const std::uint32_t* p) {
  return {_mm256_cvtepu32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
          _mm256_cvtepu32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 4)))};
}
MARROW_LANES_INLINE W8 w8_u8(const std::uint8_t* p) {
  std::uint32_t lo, hi;
  std::memcpy(&lo, p, 4);
  std::memcpy(&hi, p + 4, 4);
  return {_mm256_cvtepu8_epi64(_mm_cvtsi32_si128(static_cast<int>(lo))),
          _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(static_cast<int>(hi)))};
}
MARROW_LANES_INLINE void w8_store(std::uint64_t* p, W8 a) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), a.lo);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 4), a.hi);
}
MARROW_LANES_INLINE void w8_load16(const std::uint8_t* const* at, W8& lo, W8& hi) {
  const auto q = [&](int l) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(at[l])); };
  // Two lanes per register, then low and high halves apart and back in lane order.
  const auto halves = [&](int l, __m256i& low, __m256i& high) {
    const __m256i x = _mm256_set_m128i(q(l + 1), q(l)), y = _mm256_set_m128i(q(l + 3), q(l + 2));
    low = _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(x, y), 0xd8);
    high = _mm256_permute4x64_epi64(_mm256_unpackhi_epi64(x, y), 0xd8);
  };
  halves(0, lo.lo, hi.lo);
  halves(4, lo.hi, hi.hi);
}
MARROW_LANES_INLINE W8 operator+(W8 a, W8 b) { return {_mm256_add_epi64(a.lo, b.lo), _mm256_add_epi64(a.hi, b.hi)}; }
MARROW_LANES_INLINE W8 operator-(W8 a, W8 b) { return {_mm256_sub_epi64(a.lo, b.lo), _mm256_sub_epi64(a.hi, b.hi)}; }
MARROW_LANES_INLINE W8 operator&(W8 a, W8 b) { return {_mm256_and_si256(a.lo, b.lo), _mm256_and_si256(a.hi, b.hi)}; }
MARROW_LANES_INLINE W8 operator|(W8 a, W8 b) { return {_mm256_or_si256(a.lo, b.lo), _mm256_or_si256(a.hi, b.hi)}; }
MARROW_LANES_INLINE W8 shift_right(W8 a, W8 n) { return {_mm256_srlv_epi64(a.lo, n.lo), _mm256_srlv_epi64(a.hi, n.hi)}; }
MARROW_LANES_INLINE W8 shift_left(W8 a, W8 n) { return {_mm256_sllv_epi64(a.lo, n.lo), _mm256_sllv_epi64(a.hi, n.hi)}; }
template <int kBits>
MARROW_LANES_INLINE W8 shift_right(W8 a) {
  return {_mm256_srli_epi64(a.lo, kBits), _mm256_srli_epi64(a.hi, kBits)};
}
MARROW_LANES_INLINE W8 mul32(W8 a, W8 b) { return {_mm256_mul_epu32(a.lo, b.lo), _mm256_mul_epu32(a.hi, b.hi)}; }
MARROW_LANES_INLINE W8 select(M8 m, W8 a, W8 b) {
  return {_mm256_blendv_epi8(b.lo, a.lo, m.lo), _mm256_blendv_epi8(b.hi, a.hi, m.hi)};
}
// The low dwords of both halves' lanes, in lane order.
MARROW_LANES_INLINE __m256i low_dwords(__m256i lo, __m256i hi) {
  const __m256i pick = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  const __m256i a = _mm256_permutevar8x32_epi32(lo, pick), b = _mm256_permutevar8x32_epi32(hi, pick);
  return _mm256_permute2x128_si256(a, b, 0x20);
}
MARROW_LANES_INLINE __m256i low32(W8 a) { return low_dwords(a.lo, a.hi); }
MARROW_LANES_INLINE W8 w8_of_u32(__m256i x) {
  return {_mm256_cvtepu32_epi64(_mm256_castsi256_si128(x)), _mm256_cvtepu32_epi64(_mm256_extracti128_si256(x, 1))};
}
MARROW_LANES_INLINE M8 m8_of_mask32(__m256i m) {  // all-ones u32 lanes to all-ones u64 lanes
  return {_mm256_cvtepi32_epi64(_mm256_castsi256_si128(m)), _mm256_cvtepi32_epi64(_mm256_extracti128_si256(m, 1))};
}
#endif

// A cached range's holds (lo < 0: the first key; hi == kNoEnd: the last), eight int32 lanes.
MARROW_LANES_INLINE __m256i hold_lanes(__m256i lo, __m256i hi) {
  return _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_setzero_si256(), lo), _mm256_cmpeq_epi32(hi, _mm256_set1_epi32(kNoEnd)));
}

// Four int64 lanes in [0, 2^52) as doubles, exactly: the lane put in the mantissa of 2^52, then
// 2^52 taken away.
MARROW_LANES_INLINE __m256d double_of_ticks(__m256i x) {
  const __m256d magic = _mm256_set1_pd(4503599627370496.0);  // 2^52
  return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(x, _mm256_castpd_si256(magic))), magic);
}

// Four lanes' times since the clip's first, as doubles, from time indices (exact: below 2^52).
MARROW_LANES_INLINE __m256d ticks_since_first(const Frame& f, const std::int32_t* index) {
  if (f.times.since != nullptr) {
    const std::int32_t* since = f.times.since;
    return _mm256_cvtepi32_pd(_mm_setr_epi32(since[index[0]], since[index[1]], since[index[2]], since[index[3]]));
  }
  if (f.times.wide != nullptr) {
    const auto at = [&](int l) { return static_cast<long long>(f.times.wide[index[l]]); };
    const __m256i t = _mm256_setr_epi64x(at(0), at(1), at(2), at(3));
    return double_of_ticks(_mm256_sub_epi64(t, _mm256_set1_epi64x(f.times.first)));
  }
  const auto since = [&](int l) {
    return static_cast<long long>(grid_time(0, f.times.step, f.times.phase, static_cast<std::size_t>(index[l])));
  };
  return double_of_ticks(_mm256_setr_epi64x(since(0), since(1), since(2), since(3)));
}

// Every lane's blend-factor terms from its range [lo, hi) (as stored in keys): set_span's
// arithmetic, eight lanes at once.
MARROW_LANES_INLINE void set_spans(const Frame& f, __m256i lo, __m256i hi, CachedKeys& keys, int c) {
  const __m256i hold = hold_lanes(lo, hi);
  const __m256i a = _mm256_andnot_si256(hold, lo), b = _mm256_andnot_si256(hold, hi);  // a hold reads times[0]
  alignas(32) std::int32_t ia[kPoseLanes], ib[kPoseLanes];
  _mm256_store_si256(reinterpret_cast<__m256i*>(ia), a);
  _mm256_store_si256(reinterpret_cast<__m256i*>(ib), b);
  __m128 span[2];
  for (int half = 0; half < 2; ++half) {
    const int l = 4 * half;
    const __m256d ta = ticks_since_first(f, ia + l), tb = ticks_since_first(f, ib + l);
    _mm256_store_pd(keys.start[c] + l, ta);
    span[half] = _mm256_cvtpd_ps(_mm256_sub_pd(tb, ta));
  }
  const __m256 inv = _mm256_div_ps(_mm256_set1_ps(1.f), _mm256_set_m128(span[1], span[0]));
  _mm256_storeu_ps(keys.inv_span[c], _mm256_andnot_ps(_mm256_castsi256_ps(hold), inv));
}

// Eight u32 lanes' population counts: a nibble table per byte, then each lane's four bytes summed.
MARROW_LANES_INLINE __m256i popcount32(__m256i x) {
  const __m256i table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
  const __m256i nibble = _mm256_set1_epi8(0x0f);
  const __m256i bytes = _mm256_add_epi8(_mm256_shuffle_epi8(table, _mm256_and_si256(x, nibble)),
                                        _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi32(x, 4), nibble)));
  return _mm256_madd_epi16(_mm256_maddubs_epi16(bytes, _mm256_set1_epi8(1)), _mm256_set1_epi16(1));
}

// The index of each nonzero u32 lane's highest bit, exactly: a float's exponent, from the lane
// shifted right by 8 when it has bits above 2^24 (a float holds 24 bits; more would round up).
MARROW_LANES_INLINE __m256i highest_bit32(__m256i x) {
  const __m256i big = _mm256_cmpgt_epi32(_mm256_srli_epi32(x, 24), _mm256_setzero_si256());
  const __m256i y = _mm256_blendv_epi8(x, _mm256_srli_epi32(x, 8), big);  // below 2^24: exact as a float
  const __m256i exponent = _mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(y)), 23);
  return _mm256_add_epi32(_mm256_sub_epi32(exponent, _mm256_set1_epi32(127)), _mm256_and_si256(big, _mm256_set1_epi32(8)));
}

// The index of each nonzero u32 lane's lowest bit: that bit alone is a power of two, exact as a
// float (bit 31 as int32 is -2^31: its sign is masked off).
MARROW_LANES_INLINE __m256i lowest_bit32(__m256i x) {
  const __m256i alone = _mm256_and_si256(x, _mm256_sub_epi32(_mm256_setzero_si256(), x));
  const __m256i exponent = _mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(alone)), 23);
  return _mm256_sub_epi32(_mm256_and_si256(exponent, _mm256_set1_epi32(0xff)), _mm256_set1_epi32(127));
}

// What locate gives, for the eight lanes of channel c at once, on u32 lanes (key indices and
// positions fit): key a's index, the hold mask (b == a) and the range, also stored in keys.lo/hi.
struct LanePairs {
  __m256i a, hold, lo, hi;
};

MARROW_LANES_INLINE LanePairs locate_lanes(const Frame& f, const ChannelLanes& ch, int c, CachedKeys& keys) {
  // The eight directory words (bits; rank | back << 16 | forward << 24) through scalar loads,
  // then bits and the rest apart.
  const auto word = [&](std::size_t l) {
    std::int64_t w;
    std::memcpy(&w, &f.words[ch.word[l] + f.word], sizeof(w));
    return w;
  };
  const __m256i w03 = _mm256_setr_epi64x(word(0), word(1), word(2), word(3));
  const __m256i w47 = _mm256_setr_epi64x(word(4), word(5), word(6), word(7));
  const __m256i apart = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  const __m256i x = _mm256_permutevar8x32_epi32(w03, apart), y = _mm256_permutevar8x32_epi32(w47, apart);
  const __m256i bits = _mm256_permute2x128_si256(x, y, 0x20), rest = _mm256_permute2x128_si256(x, y, 0x31);
  const __m256i zero = _mm256_setzero_si256(), low8 = _mm256_set1_epi32(0xff);
  const __m256i upto = _mm256_set1_epi32(static_cast<int>(f.upto));
  const __m256i below = _mm256_and_si256(bits, upto), above = _mm256_andnot_si256(upto, bits);
  const __m256i rank = _mm256_add_epi32(_mm256_and_si256(rest, _mm256_set1_epi32(0xffff)), popcount32(below));
  // Window positions (as locate): the highest key bit below, else the previous word's last key;
  // the lowest above, else the next word's first.
  const __m256i none_below = _mm256_cmpeq_epi32(below, zero), none_above = _mm256_cmpeq_epi32(above, zero);
  const __m256i wa = _mm256_blendv_epi8(_mm256_add_epi32(highest_bit32(below), _mm256_set1_epi32(32)),
                                        _mm256_sub_epi32(_mm256_set1_epi32(31), _mm256_and_si256(_mm256_srli_epi32(rest, 16), low8)),
                                        none_below);
  const __m256i wb = _mm256_blendv_epi8(_mm256_add_epi32(lowest_bit32(above), _mm256_set1_epi32(32)),
                                        _mm256_add_epi32(_mm256_srli_epi32(rest, 24), _mm256_set1_epi32(64)), none_above);
  const __m256i count = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(ch.count)));
  const __m256i before = _mm256_set1_epi32(static_cast<int>(f.before));
  const __m256i first = _mm256_cmpeq_epi32(rank, zero);
  // rank >= count as rank + 1 > count (both below 2^16), not as the negation of count > rank: GCC
  // 12 with AVX512VL compiles _mm256_blendv_epi8(a, b, m ^ ~0) as a blend on m without swapping a
  // and b, so no negated mask may reach a blend (the CompressedClip.X1_ tests run this path).
  const __m256i last = _mm256_cmpgt_epi32(_mm256_add_epi32(rank, _mm256_set1_epi32(1)), count);
  LanePairs out;
  out.hold = _mm256_or_si256(_mm256_or_si256(before, first), last);
  out.a = _mm256_add_epi32(rank, _mm256_andnot_si256(first, _mm256_set1_epi32(-1)));  // rank - 1, or 0
  // The range (as locate).
  const __m256i base = _mm256_set1_epi32(f.base);
  out.lo = _mm256_or_si256(_mm256_or_si256(before, first), _mm256_add_epi32(base, wa));
  out.hi = _mm256_blendv_epi8(_mm256_blendv_epi8(_mm256_add_epi32(base, wb), _mm256_set1_epi32(kNoEnd), last), zero, before);
  _mm256_store_si256(reinterpret_cast<__m256i*>(keys.lo[c]), out.lo);
  _mm256_store_si256(reinterpret_cast<__m256i*>(keys.hi[c]), out.hi);
  return out;
}

// Channel c of a block: both keys of every lane and their range (locate and widen_lane).
MARROW_LANES_INLINE void channel_vector(const Frame& f, const ChannelLanes& ch, int c, RawKeys& ra, RawKeys& rb, CachedKeys& keys) {
  const LanePairs pairs = locate_lanes(f, ch, c, keys);
  set_spans(f, pairs.lo, pairs.hi, keys, c);
  const W8 ka = w8_of_u32(pairs.a);
  const M8 hold = m8_of_mask32(pairs.hold);
  // Both keys from one 16-byte load at key a's first byte; key b follows it (a hold: a again).
  W8 shift[3];
  __m256i mask[3];  // u32 lanes: (1 << bits) - 1
  for (int i = 0; i < 3; ++i) {
    shift[i] = w8_u8(ch.shift[i]);
    const __m256i bits = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(ch.bits[i])));
    mask[i] = _mm256_sub_epi32(_mm256_sllv_epi32(_mm256_set1_epi32(1), bits), _mm256_set1_epi32(1));
  }
  const W8 end = shift[2] + w8_u8(ch.bits[2]);  // where a rotation's dropped index starts
  const W8 width = c == 1 ? end + w8_splat(2) : end;
  const W8 first_bit = mul32(ka, width);
  alignas(64) std::uint64_t byte[kPoseLanes];
  w8_store(byte, w8_u32(ch.byte) + shift_right<3>(first_bit));
  const std::uint8_t* at[kPoseLanes];
  for (std::size_t l = 0; l < kPoseLanes; ++l) at[l] = f.packed + byte[l];
  W8 lo, hi;
  w8_load16(at, lo, hi);
  const W8 in_byte = first_bit & w8_splat(7);
  const W8 key_a = shift_right(lo, in_byte);
  const W8 next = in_byte + width;  // below 64: key a's shift and width
  const W8 key_b = select(hold, key_a, shift_right(lo, next) | shift_left(hi, w8_splat(64) - next));
  // A field: the key shifted to it, its low 32 bits masked, as a float (exact: a field has at
  // most kCompressedMaxBits, 18).
  const auto field = [](W8 key, W8 at, __m256i mask) { return F8{_mm256_cvtepi32_ps(_mm256_and_si256(low32(shift_right(key, at)), mask))}; };
  for (int i = 0; i < 3; ++i) {
    field(key_a, shift[i], mask[i]).store(ra.q[i]);
    field(key_b, shift[i], mask[i]).store(rb.q[i]);
  }
  if (c == 1) {
    field(key_a, end, _mm256_set1_epi32(3)).store(ra.dropped);
    field(key_b, end, _mm256_set1_epi32(3)).store(rb.dropped);
  }
}
