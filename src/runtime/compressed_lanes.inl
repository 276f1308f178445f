// Compressed clips, eight lanes at once (AVX2 and AVX-512; included by compressed_sampling.inl):
// locate and widen_lane on 64-bit lanes. W8 is eight 64-bit integers (one AVX-512 register, two
// AVX2 ones), M8 a lane mask. Loads from computed addresses go through scalar registers: the
// gather instructions were slower on the processors measured (docs/runtime.md).

// Four int64 lanes below 2^52 as exact doubles: the lane put in the mantissa of 2^52, then 2^52
// taken away.
MARROW_LANES_INLINE __m256d exact_double(__m256i a) {
  const __m256d magic = _mm256_set1_pd(4503599627370496.0);  // 2^52
  return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(a, _mm256_castpd_si256(magic))), magic);
}

#if defined(__AVX512F__)
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
MARROW_LANES_INLINE W8 w8_u16(const std::uint16_t* p) {
  return {_mm512_cvtepu16_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)))};
}
MARROW_LANES_INLINE W8 w8_u8(const std::uint8_t* p) {
  return {_mm512_cvtepu8_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)))};
}
MARROW_LANES_INLINE void w8_store(std::uint64_t* p, W8 a) { _mm512_storeu_si512(p, a.v); }
MARROW_LANES_INLINE void w8_store_low32(std::int32_t* p, W8 a) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm512_cvtepi64_epi32(a.v));
}
MARROW_LANES_INLINE W8 w8_set(const std::uint64_t* x) {  // eight values in scalar registers
  return {_mm512_set_epi64(static_cast<long long>(x[7]), static_cast<long long>(x[6]), static_cast<long long>(x[5]),
                           static_cast<long long>(x[4]), static_cast<long long>(x[3]), static_cast<long long>(x[2]),
                           static_cast<long long>(x[1]), static_cast<long long>(x[0]))};
}
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
MARROW_LANES_INLINE W8 and_not(W8 a, W8 b) { return {_mm512_andnot_si512(a.v, b.v)}; }  // ~a & b
MARROW_LANES_INLINE W8 shift_right(W8 a, W8 n) { return {_mm512_srlv_epi64(a.v, n.v)}; }
MARROW_LANES_INLINE W8 shift_left(W8 a, W8 n) { return {_mm512_sllv_epi64(a.v, n.v)}; }
template <int kBits>
MARROW_LANES_INLINE W8 shift_right(W8 a) {
  return {_mm512_srli_epi64(a.v, kBits)};
}
MARROW_LANES_INLINE W8 mul32(W8 a, W8 b) { return {_mm512_mul_epu32(a.v, b.v)}; }  // of the low 32 bits
MARROW_LANES_INLINE M8 is_zero(W8 a) { return {_mm512_testn_epi64_mask(a.v, a.v)}; }
MARROW_LANES_INLINE M8 greater(W8 a, W8 b) { return {_mm512_cmpgt_epi64_mask(a.v, b.v)}; }
MARROW_LANES_INLINE M8 operator|(M8 a, M8 b) { return {static_cast<__mmask8>(a.m | b.m)}; }
MARROW_LANES_INLINE M8 operator~(M8 a) { return {static_cast<__mmask8>(~a.m)}; }
MARROW_LANES_INLINE M8 m8_all(std::uint32_t on) { return {static_cast<__mmask8>(on != 0 ? 0xff : 0)}; }
MARROW_LANES_INLINE W8 select(M8 m, W8 a, W8 b) { return {_mm512_mask_blend_epi64(m.m, b.v, a.v)}; }
// Bytes' population counts summed per lane (a nibble table per byte).
MARROW_LANES_INLINE W8 popcount(W8 a) {
  const __m512i table = _mm512_set4_epi32(0x04030302, 0x03020201, 0x03020201, 0x02010100);
  const __m512i nibble = _mm512_set1_epi8(0x0f);
  const __m512i lo = _mm512_and_si512(a.v, nibble), hi = _mm512_and_si512(_mm512_srli_epi64(a.v, 4), nibble);
  const __m512i bytes = _mm512_add_epi8(_mm512_shuffle_epi8(table, lo), _mm512_shuffle_epi8(table, hi));
  return {_mm512_sad_epu8(bytes, _mm512_setzero_si512())};
}
// The biased exponent of each lane (below 2^32) as a double: 1023 + its highest bit's index.
MARROW_LANES_INLINE W8 exponent_of(W8 a) {
  const __m512d magic = _mm512_set1_pd(4503599627370496.0);  // 2^52: the lane exactly in the mantissa
  const __m512d d = _mm512_sub_pd(_mm512_castsi512_pd(_mm512_or_si512(a.v, _mm512_castpd_si512(magic))), magic);
  return {_mm512_srli_epi64(_mm512_castpd_si512(d), 52)};
}
MARROW_LANES_INLINE F8 small_to_float(W8 a) { return {_mm512_cvtepi64_ps(a.v)}; }  // below 2^31
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
MARROW_LANES_INLINE W8 w8_u16(const std::uint16_t* p) {
  return {_mm256_cvtepu16_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))),
          _mm256_cvtepu16_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + 4)))};
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
MARROW_LANES_INLINE W8 w8_set(const std::uint64_t* x) {
  const auto ll = [&](int i) { return static_cast<long long>(x[i]); };
  return {_mm256_set_epi64x(ll(3), ll(2), ll(1), ll(0)), _mm256_set_epi64x(ll(7), ll(6), ll(5), ll(4))};
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
MARROW_LANES_INLINE W8 and_not(W8 a, W8 b) { return {_mm256_andnot_si256(a.lo, b.lo), _mm256_andnot_si256(a.hi, b.hi)}; }
MARROW_LANES_INLINE W8 shift_right(W8 a, W8 n) { return {_mm256_srlv_epi64(a.lo, n.lo), _mm256_srlv_epi64(a.hi, n.hi)}; }
MARROW_LANES_INLINE W8 shift_left(W8 a, W8 n) { return {_mm256_sllv_epi64(a.lo, n.lo), _mm256_sllv_epi64(a.hi, n.hi)}; }
template <int kBits>
MARROW_LANES_INLINE W8 shift_right(W8 a) {
  return {_mm256_srli_epi64(a.lo, kBits), _mm256_srli_epi64(a.hi, kBits)};
}
MARROW_LANES_INLINE W8 mul32(W8 a, W8 b) { return {_mm256_mul_epu32(a.lo, b.lo), _mm256_mul_epu32(a.hi, b.hi)}; }
MARROW_LANES_INLINE M8 is_zero(W8 a) {
  const __m256i zero = _mm256_setzero_si256();
  return {_mm256_cmpeq_epi64(a.lo, zero), _mm256_cmpeq_epi64(a.hi, zero)};
}
MARROW_LANES_INLINE M8 greater(W8 a, W8 b) { return {_mm256_cmpgt_epi64(a.lo, b.lo), _mm256_cmpgt_epi64(a.hi, b.hi)}; }
MARROW_LANES_INLINE M8 operator|(M8 a, M8 b) { return {_mm256_or_si256(a.lo, b.lo), _mm256_or_si256(a.hi, b.hi)}; }
MARROW_LANES_INLINE M8 operator~(M8 a) {
  const __m256i ones = _mm256_set1_epi64x(-1);
  return {_mm256_xor_si256(a.lo, ones), _mm256_xor_si256(a.hi, ones)};
}
MARROW_LANES_INLINE M8 m8_all(std::uint32_t on) {
  const __m256i v = _mm256_set1_epi64x(on != 0 ? -1 : 0);
  return {v, v};
}
MARROW_LANES_INLINE W8 select(M8 m, W8 a, W8 b) {
  return {_mm256_blendv_epi8(b.lo, a.lo, m.lo), _mm256_blendv_epi8(b.hi, a.hi, m.hi)};
}
// The low dwords of both halves' lanes, in lane order.
MARROW_LANES_INLINE __m256i low_dwords(__m256i lo, __m256i hi) {
  const __m256i pick = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  const __m256i a = _mm256_permutevar8x32_epi32(lo, pick), b = _mm256_permutevar8x32_epi32(hi, pick);
  return _mm256_permute2x128_si256(a, b, 0x20);
}
MARROW_LANES_INLINE void w8_store_low32(std::int32_t* p, W8 a) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), low_dwords(a.lo, a.hi));
}
MARROW_LANES_INLINE __m256i popcount_half(__m256i a) {
  const __m256i table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
  const __m256i nibble = _mm256_set1_epi8(0x0f);
  const __m256i lo = _mm256_and_si256(a, nibble), hi = _mm256_and_si256(_mm256_srli_epi64(a, 4), nibble);
  const __m256i bytes = _mm256_add_epi8(_mm256_shuffle_epi8(table, lo), _mm256_shuffle_epi8(table, hi));
  return _mm256_sad_epu8(bytes, _mm256_setzero_si256());
}
MARROW_LANES_INLINE W8 popcount(W8 a) { return {popcount_half(a.lo), popcount_half(a.hi)}; }
MARROW_LANES_INLINE __m256i exponent_half(__m256i a) { return _mm256_srli_epi64(_mm256_castpd_si256(exact_double(a)), 52); }
MARROW_LANES_INLINE W8 exponent_of(W8 a) { return {exponent_half(a.lo), exponent_half(a.hi)}; }
MARROW_LANES_INLINE F8 small_to_float(W8 a) { return {_mm256_cvtepi32_ps(low_dwords(a.lo, a.hi))}; }
#endif

// A cached range's holds (lo < 0: the first key; hi == kNoEnd: the last), eight int32 lanes.
MARROW_LANES_INLINE __m256i hold_lanes(__m256i lo, __m256i hi) {
  return _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_setzero_si256(), lo), _mm256_cmpeq_epi32(hi, _mm256_set1_epi32(kNoEnd)));
}

// Four int64 lanes in [0, 2^52) as floats, rounded once (exact as doubles first).
MARROW_LANES_INLINE __m128 float_of_ticks(__m256i x) { return _mm256_cvtpd_ps(exact_double(x)); }

// Every lane's blend-factor terms from its range: set_span's arithmetic, eight lanes at once.
MARROW_LANES_INLINE void set_spans(const Frame& f, CachedKeys& keys, int c) {
  const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(keys.lo[c]));
  const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(keys.hi[c]));
  const __m256i hold = hold_lanes(lo, hi);
  const __m256i a = _mm256_andnot_si256(hold, lo), b = _mm256_andnot_si256(hold, hi);  // a hold reads times[0]
  const auto times = reinterpret_cast<const long long*>(f.times);
  __m128 span[2];
  for (int half = 0; half < 2; ++half) {
    const __m128i ia = half == 0 ? _mm256_castsi256_si128(a) : _mm256_extracti128_si256(a, 1);
    const __m128i ib = half == 0 ? _mm256_castsi256_si128(b) : _mm256_extracti128_si256(b, 1);
    const __m256i ta = _mm256_i32gather_epi64(times, ia, 8), tb = _mm256_i32gather_epi64(times, ib, 8);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(keys.start[c] + 4 * half), ta);
    span[half] = float_of_ticks(_mm256_sub_epi64(tb, ta));
  }
  const __m256 inv = _mm256_div_ps(_mm256_set1_ps(1.f), _mm256_set_m128(span[1], span[0]));
  _mm256_storeu_ps(keys.inv_span[c], _mm256_andnot_ps(_mm256_castsi256_ps(hold), inv));
}

// Channel c of a block: both keys of every lane and their range (locate and widen_lane).
MARROW_LANES_INLINE void channel_vector(const Frame& f, const JointBlock& jb, int c, RawKeys& ra, RawKeys& rb, CachedKeys& keys) {
  std::uint64_t word[kPoseLanes];
  for (std::size_t l = 0; l < kPoseLanes; ++l) std::memcpy(&word[l], &f.words[jb.word[c][l] + f.word], sizeof(KeyWord));
  const W8 record = w8_set(word);  // bits, rank, back, forward
  const W8 low8 = w8_splat(0xff), low16 = w8_splat(0xffff);
  const W8 bits = record & w8_splat(0xffffffff);
  const W8 upto = w8_splat(f.upto);
  const W8 below = bits & upto, above = and_not(upto, bits);
  const W8 rank = (shift_right<32>(record) & low16) + popcount(below);
  const W8 bias = w8_splat(1023);
  // Window positions (as locate): the highest key bit below, else the previous word's last key;
  // the lowest above (isolated, then its exponent), else the next word's first.
  const W8 wa = select(is_zero(below), w8_splat(31) - (shift_right<48>(record) & low8), exponent_of(below) - bias + w8_splat(32));
  const W8 lowest = above & (w8_splat(0) - above);
  const W8 wb = select(is_zero(above), shift_right<56>(record) + w8_splat(64), exponent_of(lowest) - bias + w8_splat(32));
  const W8 count = w8_u16(jb.count[c]);
  const M8 before = m8_all(f.before), first = is_zero(rank), last = ~greater(count, rank);
  const M8 hold = before | first | last;
  const W8 ka = select(first, rank, rank - w8_splat(1));
  // The range (as locate); positions as int64 lanes whose low halves are stored.
  const W8 base = w8_splat(static_cast<std::uint64_t>(static_cast<std::int64_t>(f.base)));
  w8_store_low32(keys.lo[c], select(before | first, w8_splat(~std::uint64_t{0}), base + wa));
  w8_store_low32(keys.hi[c], select(before, w8_splat(0), select(last, w8_splat(static_cast<std::uint64_t>(kNoEnd)), base + wb)));
  set_spans(f, keys, c);
  // Both keys from one 16-byte load at key a's first byte; key b follows it (a hold: a again).
  W8 shift[3], mask[3];
  for (int i = 0; i < 3; ++i) {
    shift[i] = w8_u8(jb.shift[c][i]);
    mask[i] = shift_left(w8_splat(1), w8_u8(jb.bits[c][i])) - w8_splat(1);
  }
  const W8 end = shift[2] + w8_u8(jb.bits[c][2]);  // where a rotation's dropped index starts
  const W8 width = c == 1 ? end + w8_splat(2) : end;
  const W8 first_bit = mul32(ka, width);
  alignas(64) std::uint64_t byte[kPoseLanes];
  w8_store(byte, w8_u32(jb.byte[c]) + shift_right<3>(first_bit));
  const std::uint8_t* at[kPoseLanes];
  for (std::size_t l = 0; l < kPoseLanes; ++l) at[l] = f.packed + byte[l];
  W8 lo, hi;
  w8_load16(at, lo, hi);
  const W8 in_byte = first_bit & w8_splat(7);
  const W8 key_a = shift_right(lo, in_byte);
  const W8 next = in_byte + width;  // below 64: key a's shift and width
  const W8 key_b = select(hold, key_a, shift_right(lo, next) | shift_left(hi, w8_splat(64) - next));
  for (int i = 0; i < 3; ++i) {
    small_to_float(shift_right(key_a, shift[i]) & mask[i]).store(ra.q[i]);
    small_to_float(shift_right(key_b, shift[i]) & mask[i]).store(rb.q[i]);
  }
  if (c == 1) {
    small_to_float(shift_right(key_a, end) & w8_splat(3)).store(ra.dropped);
    small_to_float(shift_right(key_b, end) & w8_splat(3)).store(rb.dropped);
  }
}
