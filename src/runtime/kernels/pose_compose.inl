// The pose kernels' compose (LocalToModelJob): the pose path (T/R/S, one joint at a time) and
// the matrix path (matrices or gathered rows, two cursors keeping their last model in registers).
// Included by pose_kernels.inl inside its namespace, after Mat and Carried.

// a * L for an affine L given as its 3x3 columns m (lane l of m[0..8], stride 8) and its
// translation t (lane l of t[0..2]).
MARROW_LANES_INLINE Mat mul_affine(const Mat& a, const float (*m)[kPoseLanes], const float (*t)[kPoseLanes],
                                   std::size_t l) {
  Mat out;
  for (int c = 0; c < 3; ++c) {
    out.c[c] = fma(a.c[0], F4::splat(m[3 * c][l]), a.c[1] * F4::splat(m[3 * c + 1][l])) +
               a.c[2] * F4::splat(m[3 * c + 2][l]);
  }
  out.c[3] = fma(a.c[0], F4::splat(t[0][l]), a.c[1] * F4::splat(t[1][l])) + fma(a.c[2], F4::splat(t[2][l]), a.c[3]);
  return out;
}

// The 3x3 columns of T * R * S for the eight joints of a block.
MARROW_LANES_INLINE void block_columns(const TrsBlock& b, float (*m)[kPoseLanes]) {
  F8 cols[9];
  rotation_scale_columns(F8::load(b.q[0]), F8::load(b.q[1]), F8::load(b.q[2]), F8::load(b.q[3]), F8::load(b.s[0]),
                         F8::load(b.s[1]), F8::load(b.s[2]), cols);
  for (int k = 0; k < 9; ++k) cols[k].store(m[k]);
}

// The matrix path's cursor (a.pose null): the model of the joint it composed last, kept in
// registers (nothing in it may have its address taken, or it lives in memory).
struct Cursor {
  Carried last{};
  std::size_t last_index = ~std::size_t{0};  // the joint whose model matrix `last` holds
};

// The parent of a root joint: root * root_prefix[i], either optional.
MARROW_LANES_INLINE Mat root_parent(const ComposeArgs& a, std::size_t i) {
  if (a.root_prefix != nullptr) return a.root != nullptr ? mul(load_mat(a.root), a.root_prefix + 16 * i) : load_mat(a.root_prefix + 16 * i);
  return load_mat(a.root != nullptr ? a.root : kIdentity);
}

// One joint of the pose path: m and loaded hold the pose's 3x3 columns of the last block read.
MARROW_LANES_INLINE void compose_joint(const ComposeArgs& a, std::size_t i, float (*m)[kPoseLanes], std::size_t& loaded) {
  const int parent = a.parents[i];
  const Mat p = parent >= 0 ? load_mat(a.models + 16 * static_cast<std::size_t>(parent)) : root_parent(a, i);
  const std::size_t block = i / kPoseLanes;
  if (block != loaded) {
    block_columns(a.pose[block], m);
    loaded = block;
  }
  store_mat(a.models + 16 * i, mul_affine(p, m, a.pose[block].t, i % kPoseLanes));
}

// Joint i's local matrix on the matrix path: its row of local_matrices, or (gathered) the row
// of source_matrices its source names.
MARROW_LANES_INLINE const float* local_of(const ComposeArgs& a, std::size_t i) {
  if (a.sources == nullptr || a.sources[i] == kLocalMatrix) return a.local_matrices + 16 * i;
  return a.source_matrices + 16 * static_cast<std::size_t>(a.sources[i]);
}

// One joint of the matrix path: the parent's model taken from `last` when it is the joint last
// composed by this cursor.
MARROW_LANES_INLINE void compose_matrix_joint(const ComposeArgs& a, std::size_t i, Cursor& c) {
  const int parent = a.parents[i];
  const float* local = local_of(a, i);
  if (parent < 0) {
    store_mat(a.models + 16 * i, mul(root_parent(a, i), local));
    return;
  }
  const auto p = static_cast<std::size_t>(parent);
  const Carried from = p == c.last_index ? c.last : carried_load(a.models + 16 * p);
  c.last = carried_mul_store(from, local, a.models + 16 * i);
  c.last_index = i;
}

// Where a second cursor may start so that two parent-to-child chains advance together (each
// joint waits on its parent's product, so one chain is bound by that latency). The first
// cursor composes [from, s), the second [s, to) `lag` joints behind it: the second reaches k
// when the first has composed [from, from + k - s + lag], so every joint k >= s must have its
// parent at or after s, before from, or at most from + k - s + lag. s is a branch (a joint
// whose parent is not the joint before it) near the middle, lag the least that holds, at most
// a quarter of the first range. {0, 0}: one cursor. The products, and so every bit, are
// unchanged; only their order across the two chains is.
struct Split {
  std::size_t start, lag;
};

std::size_t lag_for(const ComposeArgs& a, std::size_t s) {
  // In int lanes with no early exit (vectorised): how far each parent in [from, s) is ahead.
  const int first = static_cast<int>(s), base = static_cast<int>(a.from) - first;
  int lag = 1;
  for (int k = first; k < static_cast<int>(a.to); ++k) {
    const int p = a.parents[k];
    const int ahead = p < first ? p - base - k : 0;  // p - (from + k - s)
    lag = std::max(lag, ahead);
  }
  return static_cast<std::size_t>(lag);
}

Split second_start(const ComposeArgs& a) {
  const std::size_t n = a.to - a.from;
  if (n < 16) return {0, 0};
  const std::size_t mid = a.from + n / 2;
  const auto branch = [&](std::size_t k) { return a.parents[k] != static_cast<int>(k) - 1; };
  int tries = 0;
  for (std::size_t d = 0; d < n / 2 && tries < 4; ++d) {
    for (const std::size_t s : {mid + d, d > 0 ? mid - d : a.to}) {
      if (s <= a.from + 4 || s >= a.to || !branch(s)) continue;
      ++tries;
      const std::size_t lag = lag_for(a, s);
      if (4 * lag <= s - a.from) return {s, lag};
    }
  }
  return {0, 0};
}

void compose(const ComposeArgs& a) {
  if (a.pose == nullptr) {
    // Two cursors when the hierarchy allows: [from, s) and, `lag` joints behind, [s, to).
    const Split split = second_start(a);
    Cursor first, second;
    if (split.start == 0) {
      for (std::size_t i = a.from; i < a.to; ++i) compose_matrix_joint(a, i, first);
      return;
    }
    const std::size_t s = split.start;
    std::size_t i = a.from;
    for (; i < a.from + split.lag; ++i) compose_matrix_joint(a, i, first);
    for (std::size_t k = s; i < s || k < a.to;) {
      if (i < s) compose_matrix_joint(a, i++, first);
      if (k < a.to) compose_matrix_joint(a, k++, second);
    }
    return;
  }
  alignas(32) float m[9][kPoseLanes];
  std::size_t loaded = ~std::size_t{0};
  for (std::size_t i = a.from; i < a.to; ++i) compose_joint(a, i, m, loaded);
}

