// Segmented channels of compressed clips, eight lanes at once (AVX2 and AVX-512; included by
// segmented_sampling.inl): the SSE2 path's arithmetic (segmented_lanes), the header's rows
// (eight entries read: the storage is padded for it) widened to u32 lanes and moved from the
// segmented lanes' compact order to their lanes, the samples' bits on 64-bit lanes
// (compressed_lanes.inl's W8).

// For each lane mask, the compact entry each lane reads (0 for lanes outside the mask).
struct ExpandTable {
  std::uint8_t at[256][kPoseLanes];
};
constexpr ExpandTable make_expand_table() {
  ExpandTable t{};
  for (unsigned mask = 0; mask < 256; ++mask) {
    std::uint8_t m = 0;
    for (std::size_t l = 0; l < kPoseLanes; ++l) {
      if ((mask >> l & 1u) != 0) t.at[mask][l] = m++;
    }
  }
  return t;
}
inline constexpr ExpandTable kExpand = make_expand_table();

// An exclusive prefix sum of eight u32 lanes, in lane order.
MARROW_LANES_INLINE __m256i exclusive_sum(__m256i x) {
  __m256i sum = _mm256_add_epi32(x, _mm256_slli_si256(x, 4));
  sum = _mm256_add_epi32(sum, _mm256_slli_si256(sum, 8));
  const __m256i low_total = _mm256_permutevar8x32_epi32(sum, _mm256_set1_epi32(3));
  sum = _mm256_add_epi32(sum, _mm256_blend_epi32(_mm256_setzero_si256(), low_total, 0xf0));
  return _mm256_sub_epi32(sum, x);
}

// A block channel's segmented lanes decoded, over its constant lanes: both samples' fields, the
// ranges that dequantise them, the dropped component and the blend factor.
struct SegmentVectors {
  F8 qa[3], qb[3], min[3], step[3], dropped, p;
};

// kFull: every lane is segmented (no moving of rows, no constants).
template <bool kFull>
MARROW_LANES_INLINE SegmentVectors segmented_vectors(const SegmentRun& run, const float* ranges, const std::uint8_t* header,
                                                     std::size_t n, unsigned mask, const ConstantLanes& constant) {
  const __m256i index = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(kExpand.at[mask])));
  const __m256i lane_bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  const __m256i in = kFull ? _mm256_set1_epi32(-1)
                           : _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(static_cast<int>(mask)), lane_bit), lane_bit);
  const auto row = [&](std::size_t r) {
    const __m256i bytes = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(header + r * n)));
    return kFull ? bytes : _mm256_permutevar8x32_epi32(bytes, index);
  };
  const auto floats = [&](std::size_t r) {
    const __m256 x = _mm256_loadu_ps(ranges + r * n);
    return F8{kFull ? x : _mm256_permutevar8x32_ps(x, index)};
  };
  const __m256i one = _mm256_set1_epi32(1);
  const __m256i bits[3] = {row(6), row(7), row(8)}, shape = row(9);
  const __m256i stride = _mm256_and_si256(shape, _mm256_set1_epi32(15));
  const __m256i width = _mm256_add_epi32(_mm256_add_epi32(bits[0], bits[1]), bits[2]);
  // What the stride decides (segment_run): sample a, the samples kept, the blend factor.
  const __m256i a = _mm256_permutevar8x32_epi32(_mm256_load_si256(reinterpret_cast<const __m256i*>(run.first)), stride);
  const __m256i samples = _mm256_permutevar8x32_epi32(_mm256_load_si256(reinterpret_cast<const __m256i*>(run.samples)), stride);
  // Each lane's bytes follow the lanes before it: an exclusive sum of their sizes.
  // (Products of numbers below 2^15 as 16-bit multiply-adds: vpmulld is slow.)
  const __m256i size = _mm256_and_si256(in, _mm256_srli_epi32(_mm256_add_epi32(_mm256_madd_epi16(samples, width), _mm256_set1_epi32(7)), 3));
  const __m256i first = _mm256_madd_epi16(a, width);  // sample a's first bit in the lane's bytes
  alignas(32) std::int32_t byte[kPoseLanes];
  _mm256_store_si256(reinterpret_cast<__m256i*>(byte),
                     _mm256_and_si256(in, _mm256_add_epi32(exclusive_sum(size), _mm256_srli_epi32(first, 3))));
  const std::uint8_t* data = header + kSegmentHeaderBytes * n;
  const std::uint8_t* at[kPoseLanes];
  for (std::size_t l = 0; l < kPoseLanes; ++l) at[l] = data + byte[l];
  W8 lo, hi;
  w8_load16(at, lo, hi);
  const W8 in_byte = w8_of_u32(_mm256_and_si256(first, _mm256_set1_epi32(7)));
  const W8 key_a = shift_right(lo, in_byte);
  const W8 next = in_byte + w8_of_u32(width);  // below 64
  const W8 key_b = shift_right(lo, next) | shift_left(hi, w8_splat(64) - next);
  const auto field = [](W8 key, W8 from, __m256i field_mask) {
    return F8{_mm256_cvtepi32_ps(_mm256_and_si256(low32(shift_right(key, from)), field_mask))};
  };
  SegmentVectors v;
  const F8 in_f{_mm256_castsi256_ps(in)}, zero = F8::splat(0.f);
  __m256i from = _mm256_setzero_si256();
  for (std::size_t i = 0; i < 3; ++i) {
    const __m256i field_mask = _mm256_sub_epi32(_mm256_sllv_epi32(one, bits[i]), one);
    const W8 from64 = w8_of_u32(from);
    v.qa[i] = field(key_a, from64, field_mask);
    v.qb[i] = field(key_b, from64, field_mask);
    from = _mm256_add_epi32(from, bits[i]);
    segment_ranges(floats(i), floats(3 + i), F8{_mm256_cvtepi32_ps(row(i))}, F8{_mm256_cvtepi32_ps(row(3 + i))},
                   F8{_mm256_cvtepi32_ps(field_mask)}, v.min[i], v.step[i]);
    if (!kFull) {
      // Constant lanes: their value, no step, no fields.
      v.qa[i] = select(in_f, v.qa[i], zero), v.qb[i] = select(in_f, v.qb[i], zero);
      v.min[i] = select(in_f, v.min[i], F8::load(constant.value[i])), v.step[i] = select(in_f, v.step[i], zero);
    }
  }
  v.dropped = F8{_mm256_cvtepi32_ps(_mm256_srli_epi32(shape, 4))};
  if (!kFull) {
    const __m256i kept = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(constant.dropped)));
    v.dropped = select(in_f, v.dropped, F8{_mm256_cvtepi32_ps(kept)});
  }
  v.p = F8{_mm256_permutevar8x32_ps(_mm256_load_ps(run.p), stride)};
  if (!kFull) v.p = select(in_f, v.p, zero);
  return v;
}
