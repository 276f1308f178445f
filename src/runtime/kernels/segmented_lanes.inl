// Segmented channels of compressed clips, eight lanes at once (AVX2 and AVX-512; included by
// segmented_sampling.inl): segmented_lanes_scalar's arithmetic, the header's rows widened to u32
// lanes and moved from the segmented lanes' compact order to their lanes, the samples' bits on
// 64-bit lanes (compressed_lanes.inl's W8).

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

// Eight entries of a compact row (bytes, or floats) on their lanes (reads 8 entries: the
// storage is padded for it).
MARROW_LANES_INLINE __m256i expand_bytes(const std::uint8_t* row, __m256i index) {
  return _mm256_permutevar8x32_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(row))), index);
}
MARROW_LANES_INLINE F8 expand_floats(const float* row, __m256i index) {
  return {_mm256_permutevar8x32_ps(_mm256_loadu_ps(row), index)};
}

// An exclusive prefix sum of eight u32 lanes, in lane order.
MARROW_LANES_INLINE __m256i exclusive_sum(__m256i x) {
  __m256i sum = _mm256_add_epi32(x, _mm256_slli_si256(x, 4));
  sum = _mm256_add_epi32(sum, _mm256_slli_si256(sum, 8));
  const __m256i low_total = _mm256_permutevar8x32_epi32(sum, _mm256_set1_epi32(3));
  sum = _mm256_add_epi32(sum, _mm256_blend_epi32(_mm256_setzero_si256(), low_total, 0xf0));
  return _mm256_sub_epi32(sum, x);
}

MARROW_LANES_INLINE void segmented_lanes_vector(const Frame& f, const SegmentRun& run, const float* ranges, const std::uint8_t* header,
                                                 std::size_t n, unsigned mask, SegmentLanes& out) {
  const __m256i index = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(kExpand.at[mask])));
  const __m256i lane_bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  const __m256i in = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(static_cast<int>(mask)), lane_bit), lane_bit);
  const F8 in_f{_mm256_castsi256_ps(in)};
  const auto row = [&](std::size_t r) { return expand_bytes(header + r * n, index); };
  const __m256i one = _mm256_set1_epi32(1);
  const __m256i bits[3] = {row(6), row(7), row(8)}, shape = row(9);
  const __m256i stride = _mm256_and_si256(shape, _mm256_set1_epi32(15));
  const __m256i width = _mm256_add_epi32(_mm256_add_epi32(bits[0], bits[1]), bits[2]);
  const __m256i length = _mm256_set1_epi32(static_cast<int>(run.length));
  // The samples around the time: a, and b the next kept one or the segment's end.
  const __m256i k = _mm256_sllv_epi32(one, stride);
  const __m256i a = _mm256_srlv_epi32(_mm256_set1_epi32(static_cast<int>(run.local)), stride);
  const __m256i a_at = _mm256_sllv_epi32(a, stride);
  const __m256i b_at = _mm256_min_epu32(_mm256_add_epi32(a_at, k), length);
  // Each lane's bytes follow the lanes before it: an exclusive sum of their sizes.
  const __m256i samples = _mm256_add_epi32(_mm256_srlv_epi32(_mm256_sub_epi32(_mm256_add_epi32(length, k), one), stride), one);
  const __m256i size = _mm256_and_si256(in, _mm256_srli_epi32(_mm256_add_epi32(_mm256_mullo_epi32(samples, width), _mm256_set1_epi32(7)), 3));
  const __m256i first = _mm256_mullo_epi32(a, width);  // sample a's first bit in the lane's bytes
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
  __m256i from = _mm256_setzero_si256();
  for (std::size_t i = 0; i < 3; ++i) {
    const __m256i field_mask = _mm256_sub_epi32(_mm256_sllv_epi32(one, bits[i]), one);
    const W8 from64 = w8_of_u32(from);
    select(in_f, field(key_a, from64, field_mask), F8::load(out.a.q[i])).store(out.a.q[i]);
    select(in_f, field(key_b, from64, field_mask), F8::load(out.b.q[i])).store(out.b.q[i]);
    from = _mm256_add_epi32(from, bits[i]);
    select(in_f, expand_floats(ranges + i * n, index), F8::load(out.lo[i])).store(out.lo[i]);
    select(in_f, expand_floats(ranges + (3 + i) * n, index), F8::load(out.extent[i])).store(out.extent[i]);
    select(in_f, F8{_mm256_cvtepi32_ps(row(i))}, F8::load(out.low[i])).store(out.low[i]);
    select(in_f, F8{_mm256_cvtepi32_ps(row(3 + i))}, F8::load(out.range[i])).store(out.range[i]);
    select(in_f, F8{_mm256_cvtepi32_ps(field_mask)}, F8::load(out.levels[i])).store(out.levels[i]);
  }
  const F8 dropped{_mm256_cvtepi32_ps(_mm256_srli_epi32(shape, 4))};
  select(in_f, dropped, F8::load(out.a.dropped)).store(out.a.dropped);
  select(in_f, dropped, F8::load(out.b.dropped)).store(out.b.dropped);
  // The one sampler's factor between the two samples' times (set_spans' arithmetic); lanes
  // outside the mask read time 0 and are dropped.
  F8 p;
  if (run.hold != 0) {
    p = F8::splat(run.hold == 1 ? 0.f : 1.f);
  } else {
    alignas(32) std::int32_t ia[kPoseLanes], ib[kPoseLanes];
    const __m256i start = _mm256_set1_epi32(static_cast<int>(run.start));
    _mm256_store_si256(reinterpret_cast<__m256i*>(ia), _mm256_and_si256(in, _mm256_add_epi32(start, a_at)));
    _mm256_store_si256(reinterpret_cast<__m256i*>(ib), _mm256_and_si256(in, _mm256_add_epi32(start, b_at)));
    const __m256d t = _mm256_set1_pd(f.since_first);
    __m128 since[2], span[2];
    for (int half = 0; half < 2; ++half) {
      const __m256d ta = ticks_since_first(f, ia + 4 * half), tb = ticks_since_first(f, ib + 4 * half);
      since[half] = _mm256_cvtpd_ps(_mm256_sub_pd(t, ta));
      span[half] = _mm256_cvtpd_ps(_mm256_sub_pd(tb, ta));
    }
    const __m256 q = _mm256_mul_ps(_mm256_set_m128(since[1], since[0]),
                                   _mm256_div_ps(_mm256_set1_ps(1.f), _mm256_set_m128(span[1], span[0])));
    p = F8{_mm256_min_ps(_mm256_set1_ps(1.f), _mm256_max_ps(_mm256_setzero_ps(), q))};
  }
  select(in_f, p, F8::load(out.p)).store(out.p);
}
