"""Poses as `marrow pose --json` prints them (column-major 4x4 matrices: translation at 12..14):
sizes, differences, and the comparison of two files' poses."""

import math


def world_translation(m):
    return (m[12], m[13], m[14])


def dist(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


def check_affine_layout(report, pose, label):
    """nodes[].world is a column-major affine 4x4: last row (indices 3, 7, 11, 15) is 0 0 0 1."""
    bad = [n for n in pose["nodes"]
           if len(n["world"]) != 16 or max(abs(n["world"][3]), abs(n["world"][7]), abs(n["world"][11]),
                                           abs(n["world"][15] - 1)) > 1e-5]
    report.check(not bad, f"{label}: nodes[].world is a column-major affine 4x4 (translation at 12..14)",
                 f"{len(bad)} nodes have another layout, e.g. {bad[0]['name'] if bad else ''}: "
                 f"{bad[0]['world'] if bad else ''}")


def pose_points(pose):
    pts = [world_translation(n["world"]) for n in pose["nodes"]]
    for m in pose.get("meshes", []):
        p = m.get("positions") or []
        pts.extend(zip(p[0::3], p[1::3], p[2::3]))
    return pts


def model_size(pose):
    """The diagonal of the box around node origins and posed vertices (1 when that is a point)."""
    pts = pose_points(pose)
    if not pts:
        return 1.0
    d = math.sqrt(sum((max(p[i] for p in pts) - min(p[i] for p in pts)) ** 2 for i in range(3)))
    return d if d > 0 else 1.0


def nearest_max_distance(a, b, cell):
    """max over points of a of the distance to the nearest point of b (grid of `cell`)."""
    grid = {}
    for p in b:
        grid.setdefault(tuple(int(math.floor(c / cell)) for c in p), []).append(p)
    worst = 0.0
    for p in a:
        k = tuple(int(math.floor(c / cell)) for c in p)
        best = math.inf
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dz in (-1, 0, 1):
                    for q in grid.get((k[0] + dx, k[1] + dy, k[2] + dz), ()):
                        best = min(best, dist(p, q))
        worst = max(worst, best)  # inf when nothing lies within a cell: farther than the tolerance
    return worst


def worst_translation(a, b, t, worst=0.0, at=None):
    """(worst, at) updated with the node world translation differences of poses a and b (same
    nodes) at time t: at = (time, node) of the largest, or of the first node when none exceeds."""
    for na, nb in zip(a["nodes"], b["nodes"]):
        e = dist(world_translation(na["world"]), world_translation(nb["world"]))
        if e > worst or at is None:
            worst, at = max(e, worst), (t, na["name"] or f"node {na['index']}")
    return worst, at


def node_by_name(pose, name):
    return next(n for n in pose["nodes"] if n["name"] == name)


def max_world_difference(a, b, only=None):
    """max translation difference over nodes (optionally only those indices), and where."""
    worst, at = 0.0, None
    for na, nb in zip(a["nodes"], b["nodes"]):
        if only is not None and na["index"] not in only:
            continue
        e = dist(world_translation(na["world"]), world_translation(nb["world"]))
        e = max(e, max(abs(x - y) for x, y in zip(na["world"], nb["world"])))
        if e > worst:
            worst, at = e, na["name"] or f"node {na['index']}"
    return worst, at


def match_meshes(a, b, node_map, info_a, info_b):
    """Pairs of posed mesh entries: the same (mapped) node, mesh name, index and vertex count score."""
    name_a = {m["mesh"]: m["name"] for m in info_a["meshes"]}
    name_b = {m["mesh"]: m["name"] for m in info_b["meshes"]}
    free = list(b.get("meshes", []))
    pairs, unmatched = [], []
    for m in a.get("meshes", []):
        def score(o):
            return (4 * (node_map.get(m["node"]) == o["node"]) + 2 * (name_a.get(m["mesh"]) == name_b.get(o["mesh"]))
                    + (m["mesh"] == o["mesh"]) + (m["vertexCount"] == o["vertexCount"]) + (m["primitive"] == o["primitive"]))
        best = max(free, key=score, default=None)
        if best is None or score(best) < 3:
            unmatched.append(f"mesh {m['mesh']} primitive {m['primitive']} on node {m['node']}")
            continue
        free.remove(best)
        pairs.append(((m["node"], m["mesh"], m["primitive"]), (best["node"], best["mesh"], best["primitive"])))
    return pairs, unmatched


def compare_poses(rep, label, a, b, size, rel_tol, node_map, mesh_pairs):
    """Node world matrices (translation against size, the 3x3 against its own magnitude) and posed
    mesh positions of matched nodes and meshes; returns the largest difference in scene units."""
    tol = rel_tol * size
    nodes_b = {n["index"]: n for n in b["nodes"]}
    worst_t, worst_l, at_t, at_l = 0.0, 0.0, None, None
    for na in a["nodes"]:
        nb = nodes_b.get(node_map.get(na["index"]))
        if nb is None:
            continue
        wa, wb = na["world"], nb["world"]
        e = dist(world_translation(wa), world_translation(wb))
        if e > worst_t:
            worst_t, at_t = e, na["name"] or f"node {na['index']}"
        mag = max(max(abs(wa[i]) for i in (0, 1, 2, 4, 5, 6, 8, 9, 10)), 1e-30)
        e = max(abs(wa[i] - wb[i]) for i in (0, 1, 2, 4, 5, 6, 8, 9, 10)) / mag
        if e > worst_l:
            worst_l, at_l = e, na["name"] or f"node {na['index']}"
    rep.check(worst_t <= tol, f"{label}: node world translations agree within {rel_tol:g} x size {size:.4g}",
              f"differ by {worst_t:.6g} (> {tol:.3g}) at {at_t!r}")
    rep.check(worst_l <= rel_tol, f"{label}: node world rotation/scale agree within {rel_tol:g} (relative)",
              f"differ by {worst_l:.6g} of their magnitude at {at_l!r}")
    worst_v = 0.0
    def key(m):
        return (m["node"], m["mesh"], m["primitive"])
    by_key_a = {key(m): m for m in a.get("meshes", [])}
    by_key_b = {key(m): m for m in b.get("meshes", [])}
    for ka, kb in mesh_pairs:
        ma, mb = by_key_a.get(ka, {}), by_key_b.get(kb, {})
        pa, pb = ma.get("positions") or [], mb.get("positions") or []
        what = f"{label}: mesh {ka[1]} primitive {ka[2]} (node {ka[0]}) posed positions agree " \
               f"within {rel_tol:g} x size {size:.4g}"
        if len(pa) == len(pb):
            e = max((abs(x - y) for x, y in zip(pa, pb)), default=0.0)
        else:
            # Vertices unshared or joined on the way (e.g. flat normals computed at import): every
            # vertex of each side has one of the other side within the tolerance.
            va, vb = list(zip(pa[0::3], pa[1::3], pa[2::3])), list(zip(pb[0::3], pb[1::3], pb[2::3]))
            e = max(nearest_max_distance(va, vb, max(tol, 1e-12)), nearest_max_distance(vb, va, max(tol, 1e-12)))
            what += f" (as point sets: {len(pa) // 3} vs {len(pb) // 3} vertices)"
        worst_v = max(worst_v, e)
        rep.check(e <= tol, what, f"differ by {e:.6g} (> {tol:.3g})")
    return max(worst_t, worst_v)
