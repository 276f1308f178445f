// Compressed clips, eight lanes at once (AVX2 and AVX-512; included by compressed_sampling.inl):
// the directory words, time table entries and packed keys of a channel's eight joints are
// gathered, and the key search of `locate` and the unpacking of `widen` done on 64-bit lanes.
// W8 is eight 64-bit integers (one AVX-512 register, two AVX2 ones); M8 a lane mask.

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
MARROW_LANES_INLINE W8 w8_load(const std::uint64_t* p) { return {_mm512_loadu_si512(p)}; }
MARROW_LANES_INLINE void w8_store(std::uint64_t* p, W8 a) { _mm512_storeu_si512(p, a.v); }
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
MARROW_LANES_INLINE W8 mul32(W8 a, W8 b) { return {_mm512_mul_epu32(a.v, b.v)}; }  // low 32 bits of each
MARROW_LANES_INLINE M8 is_zero(W8 a) { return {_mm512_testn_epi64_mask(a.v, a.v)}; }
MARROW_LANES_INLINE M8 greater(W8 a, W8 b) { return {_mm512_cmpgt_epi64_mask(a.v, b.v)}; }
MARROW_LANES_INLINE M8 operator|(M8 a, M8 b) { return {static_cast<__mmask8>(a.m | b.m)}; }
MARROW_LANES_INLINE M8 operator~(M8 a) { return {static_cast<__mmask8>(~a.m)}; }
MARROW_LANES_INLINE M8 m8_all(bool on) { return {static_cast<__mmask8>(on ? 0xff : 0)}; }
MARROW_LANES_INLINE W8 select(M8 m, W8 a, W8 b) { return {_mm512_mask_blend_epi64(m.m, b.v, a.v)}; }
MARROW_LANES_INLINE F8 select(M8 m, F8 a, F8 b) { return {_mm256_mask_blend_ps(m.m, b.v, a.v)}; }
// Bytes' population counts summed per lane (a nibble table per byte).
MARROW_LANES_INLINE W8 popcount(W8 a) {
  const __m512i table = _mm512_set4_epi32(0x04030302, 0x03020201, 0x03020201, 0x02010100);
  const __m512i nibble = _mm512_set1_epi8(0x0f);
  const __m512i lo = _mm512_and_si512(a.v, nibble), hi = _mm512_and_si512(_mm512_srli_epi64(a.v, 4), nibble);
  const __m512i bytes = _mm512_add_epi8(_mm512_shuffle_epi8(table, lo), _mm512_shuffle_epi8(table, hi));
  return {_mm512_sad_epu8(bytes, _mm512_setzero_si512())};
}
// Lanes below 2^53 as doubles' bits, exactly (the 2^52 trick: valid for lanes below 2^32).
MARROW_LANES_INLINE W8 exponent_of_u32(W8 a) {
  const __m512d magic = _mm512_set1_pd(4503599627370496.0);  // 2^52
  const __m512d d = _mm512_sub_pd(_mm512_castsi512_pd(_mm512_or_si512(a.v, _mm512_castpd_si512(magic))), magic);
  return {_mm512_srli_epi64(_mm512_castpd_si512(d), 52)};
}
MARROW_LANES_INLINE F8 to_float(W8 a) { return {_mm512_cvtepi64_ps(a.v)}; }  // any int64
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
MARROW_LANES_INLINE W8 w8_load(const std::uint64_t* p) {
  return {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 4))};
}
MARROW_LANES_INLINE void w8_store(std::uint64_t* p, W8 a) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), a.lo);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 4), a.hi);
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
MARROW_LANES_INLINE M8 m8_all(bool on) {
  const __m256i v = _mm256_set1_epi64x(on ? -1 : 0);
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
MARROW_LANES_INLINE F8 select(M8 m, F8 a, F8 b) {
  return {_mm256_blendv_ps(b.v, a.v, _mm256_castsi256_ps(low_dwords(m.lo, m.hi)))};
}
MARROW_LANES_INLINE __m256i popcount_half(__m256i a) {
  const __m256i table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
  const __m256i nibble = _mm256_set1_epi8(0x0f);
  const __m256i lo = _mm256_and_si256(a, nibble), hi = _mm256_and_si256(_mm256_srli_epi64(a, 4), nibble);
  const __m256i bytes = _mm256_add_epi8(_mm256_shuffle_epi8(table, lo), _mm256_shuffle_epi8(table, hi));
  return _mm256_sad_epu8(bytes, _mm256_setzero_si256());
}
MARROW_LANES_INLINE W8 popcount(W8 a) { return {popcount_half(a.lo), popcount_half(a.hi)}; }
MARROW_LANES_INLINE __m256i exponent_half(__m256i a) {
  const __m256d magic = _mm256_set1_pd(4503599627370496.0);  // 2^52
  const __m256d d = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(a, _mm256_castpd_si256(magic))), magic);
  return _mm256_srli_epi64(_mm256_castpd_si256(d), 52);
}
MARROW_LANES_INLINE W8 exponent_of_u32(W8 a) { return {exponent_half(a.lo), exponent_half(a.hi)}; }
// Non-negative lanes below 2^63 (negative ones are garbage, never used): high and low halves
// exactly as doubles, summed (one rounding), then rounded to float.
MARROW_LANES_INLINE __m128 to_float_half(__m256i a) {
  const __m256d magic = _mm256_set1_pd(4503599627370496.0);  // 2^52
  const __m256i low = _mm256_and_si256(a, _mm256_set1_epi64x(0xffffffff));
  const __m256d lo = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(low, _mm256_castpd_si256(magic))), magic);
  const __m256d hi = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(a, 32), _mm256_castpd_si256(magic))), magic);
  return _mm256_cvtpd_ps(_mm256_fmadd_pd(hi, _mm256_set1_pd(4294967296.0), lo));
}
MARROW_LANES_INLINE F8 to_float(W8 a) { return {_mm256_set_m128(to_float_half(a.hi), to_float_half(a.lo))}; }
MARROW_LANES_INLINE F8 small_to_float(W8 a) { return {_mm256_cvtepi32_ps(low_dwords(a.lo, a.hi))}; }
#endif

// The eight bytes at base + kScale * index of each lane. Eight loads through the stack: faster
// than the gather instructions on the processors measured (docs/runtime.md).
template <int kScale>
MARROW_LANES_INLINE W8 gather(const void* base, W8 index) {
  alignas(64) std::uint64_t at[kPoseLanes], out[kPoseLanes];
  w8_store(at, index);
  const auto* bytes = static_cast<const std::uint8_t*>(base);
  for (std::size_t l = 0; l < kPoseLanes; ++l) std::memcpy(&out[l], bytes + kScale * at[l], sizeof(std::uint64_t));
  return w8_load(out);
}

MARROW_LANES_INLINE W8 max1(W8 a) { return select(is_zero(a), w8_splat(1), a); }

// Component fields of the keys at bit `first` of each lane's channel bytes.
MARROW_LANES_INLINE void unpack_keys(const std::uint8_t* packed, W8 byte, W8 first, const W8 shift[3], const W8 mask[3],
                                     W8 end, int c, float (*q)[kPoseLanes], float* dropped) {
  const W8 raw = shift_right(gather<1>(packed, byte + shift_right<3>(first)), first & w8_splat(7));
  for (int i = 0; i < 3; ++i) small_to_float(shift_right(raw, shift[i]) & mask[i]).store(q[i]);
  if (c == 1) small_to_float(shift_right(raw, end) & w8_splat(3)).store(dropped);
}

// Channel c of a block: the blend factor and both keys of each lane (locate and widen, lane-wise).
MARROW_LANES_INLINE void channel_vector(const Frame& f, const JointBlock& jb, int c, float* p, RawKeys& ra, RawKeys& rb) {
  const W8 w = w8_u32(jb.word[c]) + w8_splat(f.word);
  const W8 bits = gather<8>(f.word_bits, w);
  const W8 links = gather<2>(f.word_links, mul32(w, w8_splat(3)));  // six bytes a word: rank, prev, next
  const W8 low16 = w8_splat(0xffff);
  const W8 upto = w8_splat(f.upto), base = w8_splat(f.base);
  const W8 below = bits & upto, above = and_not(upto, bits);
  const W8 rank = (links & low16) + popcount(below);
  // The highest key at or before the time in this word (its bit's index from a double's
  // exponent, half by half), else the word's `prev`.
  const W8 upper = shift_right<32>(below);
  const M8 in_low = is_zero(upper);
  const W8 top = exponent_of_u32(select(in_low, below & w8_splat(0xffffffff), upper)) - w8_splat(1023) +
                 select(in_low, w8_splat(0), w8_splat(32));
  const W8 ia = select(is_zero(below), shift_right<16>(links) & low16, base + top);
  // The lowest key after it (trailing zeros as the population below the lowest bit), else `next`.
  const W8 lowest = above & (w8_splat(0) - above);
  const W8 ib = select(is_zero(above), shift_right<32>(links) & low16, base + popcount(lowest - w8_splat(1)));
  const W8 count = w8_u16(jb.count[c]);
  const M8 hold = m8_all(f.before) | is_zero(rank) | ~greater(count, rank);
  const W8 ka = max1(rank) - w8_splat(1);
  const W8 kb = select(hold, ka, rank);
  const W8 ta = gather<8>(f.times, ia), tb = gather<8>(f.times, ib);
  const F8 since = to_float(w8_splat(static_cast<std::uint64_t>(f.t)) - ta), span = to_float(tb - ta);
  select(hold, F8::splat(0.f), since / select(hold, F8::splat(1.f), span)).store(p);
  // The keys: fields at their shifts, `bits` wide, in keys `width` bits apart.
  W8 shift[3], mask[3];
  for (int i = 0; i < 3; ++i) {
    shift[i] = w8_u8(jb.shift[c][i]);
    mask[i] = shift_left(w8_splat(1), w8_u8(jb.bits[c][i])) - w8_splat(1);
  }
  const W8 end = shift[2] + w8_u8(jb.bits[c][2]);
  const W8 width = c == 1 ? end + w8_splat(2) : end;
  const W8 byte = w8_u32(jb.byte[c]);
  unpack_keys(f.packed, byte, mul32(ka, width), shift, mask, end, c, ra.q[c], ra.dropped);
  unpack_keys(f.packed, byte, mul32(kb, width), shift, mask, end, c, rb.q[c], rb.dropped);
}
