"""The steps of check 1 (`marrow convert --compress`, cli_features_test.py's docstring): (a) to
(d), shared by the default SIMD level's check and the other levels'."""

import json
import os
import struct

from .marrow_cli import cmdline
from .native_file import native_compressed_clips
from .poses import worst_translation


def clip_sample_times(duration, fractions):
    return sorted(set(round(duration * f, 6) for f in fractions))


def few_keys(asset):
    """Clips of fewer than 4 keys per joint: the compressed form's fixed cost may exceed the keys'."""
    clips = asset.skeletal_clips()
    joints = max((s["jointCount"] for s in asset.info["skins"]), default=0)
    keys = sum(k["keys"] for c in clips for k in c["skeletal"])
    return keys < 4 * joints * len(clips), keys, joints


def convert_compressed(rep, asset, comp, tol):
    """(a) `marrow convert IN COMP --compress TOL`: exit 0, no clip-not-compressed in its output."""
    args = ["convert", asset.path, comp, "--compress", f"{tol:g}"] + asset.load
    ok, out, err = rep.run(args)
    rep.check("clip-not-compressed" not in out + err, f"`{cmdline(args, rep.simd)}` reports no clip-not-compressed",
              (out + err).strip()[:600])
    return ok


def check_no_diagnostic(rep, info, comp, tol):
    """(a) The written file's diagnostics (`marrow info --json`) hold no clip-not-compressed."""
    nc = [d for d in info.get("diagnostics", []) if d.get("code") == "clip-not-compressed"]
    rep.check(not nc, f"{os.path.basename(comp)} holds no clip-not-compressed diagnostic (TOL {tol:g})",
              "; ".join(f"{d.get('message')} (x{d.get('count')})" for d in nc))


def check_smaller(rep, asset, comp, plain):
    """(b) docs/clip-compression.md: "A clip of very few keys can grow: the sampling directories
    and per-channel ranges are a fixed cost". Clips with fewer keys than 4 per joint (few_keys)
    may cost that much more (at most 200 bytes per joint and clip), no more."""
    size_c, size_p = os.path.getsize(comp), os.path.getsize(plain)
    few, keys, joints = few_keys(asset)
    if few:
        allowance = 200 * joints * len(asset.skeletal_clips())
        rep.check(size_c <= size_p + allowance,
                  f"compressed file within the compressed form's fixed cost of the plain one ({keys} keys, {joints} joints)",
                  f"compressed {size_c} bytes, plain {size_p}, allowed up to {size_p + allowance}")
    else:
        rep.check(size_c < size_p, "`--compress` writes a smaller file than a plain convert",
                  f"compressed {size_c} bytes, plain {size_p} bytes ({keys} skeletal keys)")
    return size_c, size_p, keys


def check_stored_compressed(rep, asset, ci, comp):
    """(c) Every skeletal clip stored compressed: marrow info's compressed_bytes, and the CCLP
    section. Returns {clip name: bytes of its CCLP record}."""
    clips = asset.skeletal_clips()
    by_name_c = {c["name"]: c for c in ci["clips"]}
    rep.check([c["name"] for c in ci["clips"]] == [c["name"] for c in asset.info["clips"]],
              "the compressed file has the input's clips, in order",
              f"{[c['name'] for c in ci['clips']]} vs {[c['name'] for c in asset.info['clips']]}")
    try:
        stored = native_compressed_clips(comp)
        cclp_error = None
    except (ValueError, struct.error) as e:
        stored, cclp_error = {}, str(e)
    rep.check(cclp_error is None, "the compressed file's sections parse as docs/native-format.md says", cclp_error or "")
    missing_info, missing_cclp = [], []
    for c in clips:
        cc = by_name_c.get(c["name"])
        if cc is None:
            continue
        has = "compressed_bytes" in cc or (cc.get("skeletal") and all("compressed_bytes" in k for k in cc["skeletal"]))
        if not has:
            other = sorted(k for k in json.dumps(cc).split('"') if "ompress" in k)
            missing_info.append(c["name"] + (f" (has {other})" if other else ""))
        if c["name"] not in stored:
            missing_cclp.append(c["name"])
    rep.check(not missing_info, "`marrow info OUT --json` gives compressed_bytes for every skeletal clip",
              f"no compressed_bytes for {len(missing_info)} of {len(clips)} clips: {missing_info[:5]}"
              f"{' ...' if len(missing_info) > 5 else ''}; clip object: {json.dumps(by_name_c.get(clips[0]['name']))[:300]}")
    if cclp_error is None:
        rep.check(not missing_cclp, "every skeletal clip is stored compressed (CCLP section)",
                  f"not in CCLP: {missing_cclp}; CCLP holds {sorted(stored)}")
    return stored


def check_clip_error(rep, asset, clip, compressed, plain, tol, fractions):
    """(d) One clip's error on the loaded files, at those fractions of its duration; compressed and
    plain are (path, its marrow info). Returns (worst error, (time, node)), or (0, None) when
    nothing was compared."""
    (comp, ci), (plain, pi) = compressed, plain
    cc = {x["name"]: x for x in ci["clips"]}.get(clip["name"])
    pc = next((x for x in pi["clips"] if x["name"] == clip["name"]), None)
    if cc is None or pc is None:
        return 0.0, None
    name = clip["name"]
    rep.check(abs(cc["duration"] - pc["duration"]) <= 1e-6 * max(1, pc["duration"]),
              f"clip {name!r}: compressed duration equals the plain one", f"{cc['duration']} vs {pc['duration']}")
    index_c, index_p = ci["clips"].index(cc), pi["clips"].index(pc)
    worst, at = 0.0, None
    for t in clip_sample_times(pc["duration"], fractions):
        a = rep.run_json(["pose", comp, "--clip", index_c, "--time", t, "--json", "--no-normals"] + asset.load)
        b = rep.run_json(["pose", plain, "--clip", index_p, "--time", t, "--json", "--no-normals"] + asset.load)
        if a is None or b is None:
            continue
        if not rep.check([n["name"] for n in a["nodes"]] == [n["name"] for n in b["nodes"]],
                         f"clip {name!r} t={t}: same nodes in both files"):
            continue
        worst, at = worst_translation(a, b, t, worst, at)
    if at is not None:
        rep.check(worst <= tol * 1.0001,
                  f"clip {name!r}: node world translations of the compressed file within TOL {tol:g} of the plain file's",
                  f"error {worst:.6g} at t={at[0]} on node {at[1]!r} "
                  f"(`{cmdline(['pose', os.path.basename(comp), '--clip', index_c, '--time', at[0], '--json'])}` vs the plain file)")
    return worst, at
