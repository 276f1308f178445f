#!/usr/bin/env python3
"""Cli.FeaturesOnEverySharedAsset: the feature commands of `marrow`, run as a user runs them, on
every shared asset (../shared/assets).

The unit tests call the library; this test calls the command line, so a path only the CLI takes
(e.g. `convert --compress`, which once wrote a `clip-not-compressed` diagnostic and an unchanged
file on some processors) is covered too. Checks:

1. compress: `marrow convert IN OUT.marrow --compress TOL` on every asset with skeletal
   (JointPalette) clips, TOL = 1 mm in the scene units marrow loads the asset in (see
   scene_unit()): exit 0, no `clip-not-compressed` (output, nor the file's diagnostics), the file
   smaller than `marrow convert IN OUT.marrow` (unless the clips have too few keys to pay for the
   compressed form's fixed cost, docs/clip-compression.md), every skeletal clip stored compressed
   (`compressed_bytes` in `marrow info OUT --json`, and the file's CCLP section,
   docs/native-format.md), and every node's world translation from `marrow pose` of the compressed
   file within TOL of the plain file's at 8 times per clip. Repeated (without compressed_bytes,
   the first clip at 3 times) at every other MARROW_SIMD level the binary offers here (other
   native levels, SIMDe-emulated ones the processor lacks): the kernels differ per level.
2. gltf: `marrow convert IN OUT.glb` and `OUT.gltf`; `marrow pose` of the written file equals
   `marrow pose` of the input (node world matrices, posed mesh positions) within 1e-4 of the
   model's size, first clip, a few times.
3. render: `marrow render FILE --out X.png`, `--frames 2`, `--skeleton`: exit 0 and a well-formed,
   non-empty PNG (`--frames` on a file without clips: exit 2, "no animations", nothing written).
4. pose: `--layer` (weights 1 and 0; a `/NODE` mask), `--additive` (a clip at its first frame),
   `--two-bone-ik` (a leg chain), `--root-motion`, on the Fox, CesiumMan and a KayKit rig.
5. retarget: `marrow retarget` from every humanoid clip source (BVH, FBX, Collada, glTF) onto the
   KayKit and ProAnimationBank rigs, checked from outside (cli_features/retarget_steps.py).

Usage: cli_features_test.py MARROW_BINARY SHARED_ASSETS_DIR [--only compress,gltf,render,pose,retarget]
                            [--keep DIR]
Prints one line per failed check, a summary per asset and `N passed, M failed` last; exits 1 when
a check failed, 77 (CTest's SKIP_RETURN_CODE) when the shared assets are absent.
"""

import concurrent.futures
import os
import re
import struct
import sys
import tempfile
import time
import traceback

sys.dont_write_bytecode = True  # the helpers live in the source tree: leave no __pycache__ there
# The helpers' package sits beside this script: found from any working directory, and under
# python -P too (which leaves the script's folder off the path).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cli_features import marrow_cli  # noqa: E402
from cli_features.assets import find_assets, load_asset  # noqa: E402
from cli_features.compress_steps import (check_clip_error, check_no_diagnostic, check_smaller,  # noqa: E402
                                         check_stored_compressed, clip_sample_times, convert_compressed,
                                         few_keys)
from cli_features.marrow_cli import Report, cmdline, lower_simd_levels  # noqa: E402
from cli_features.native_file import native_compressed_clips  # noqa: E402
from cli_features.node_trees import match_node_trees  # noqa: E402
from cli_features.png import png_problem, png_size  # noqa: E402
from cli_features.pose_steps import PoseCheck  # noqa: E402
from cli_features.poses import (check_affine_layout, compare_poses, match_meshes, model_size,  # noqa: E402
                                worst_translation)
from cli_features.retarget_steps import plans as retarget_plans, retarget_check, usage_checks  # noqa: E402
from cli_features.scene_unit import scene_unit  # noqa: E402

MM = 0.001  # the compression tolerance: 1 mm, in metres
GLTF_REL_TOL = 1e-4  # glTF round trip: relative to the model's size
POSE_REL_TOL = 1e-5  # blends that must give the same pose: relative to the model's size
IK_REL_TOL = 1e-4  # IK: relative to the chain's length
SAMPLE_FRACTIONS = (0.0, 0.1037, 0.2551, 0.4129, 0.5683, 0.7219, 0.8867, 1.0)  # of a clip's duration
SIMD_FRACTIONS = (0.0, 0.4129, 1.0)  # times of the first clip checked at the other SIMD levels


# ---------------------------------------------------------------------------------------------
# 1. convert --compress


def prepare_compress(asset):
    """asset.unit = (metres per scene unit or None, the reasoning); asset.reference = the input's
    poses of its first skeletal clip at SIMD_FRACTIONS, for compress_simd_check."""
    rep = Report("compress", asset.rel)
    pose0 = rep.run_json(["pose", asset.path, "--json", "--no-normals"] + asset.load, "the loaded pose")
    asset.unit = scene_unit(asset, pose0) if pose0 is not None else (None, "no pose")
    if pose0 is not None:
        check_affine_layout(rep, pose0, "pose")
    c = asset.skeletal_clips()[0]
    index = asset.info["clips"].index(c)
    asset.reference = {}
    if not few_keys(asset)[0]:
        for t in clip_sample_times(c["duration"], SIMD_FRACTIONS):
            asset.reference[t] = rep.run_json(["pose", asset.path, "--clip", index, "--time", t, "--json", "--no-normals"] + asset.load)
    return rep


def compress_check(asset, work):
    """Check 1 at the default SIMD level: (a) to (d) of the module's docstring, every clip."""
    rep = Report("compress", asset.rel)
    per_m, why = asset.unit
    if not rep.check(per_m is not None, "its scene unit is known", why):
        return rep
    tol = MM / per_m
    base = os.path.join(work, "compress_" + re.sub(r"\W", "_", asset.rel))
    comp, plain = base + "_c.marrow", base + "_p.marrow"
    ok = convert_compressed(rep, asset, comp, tol)
    rep.run(["convert", asset.path, plain] + asset.load)
    if not (ok and os.path.exists(comp) and os.path.exists(plain)):
        return rep
    ci = rep.run_json(["info", comp, "--json"] + asset.load)
    pi = rep.run_json(["info", plain, "--json"] + asset.load)
    if ci is None or pi is None:
        return rep
    check_no_diagnostic(rep, ci, comp, tol)
    size_c, size_p, keys = check_smaller(rep, asset, comp, plain)
    stored = check_stored_compressed(rep, asset, ci, comp)
    clips = asset.skeletal_clips()
    worst = (0.0, None)
    for c in clips:
        clip_worst = check_clip_error(rep, asset, c, (comp, ci), (plain, pi), tol, SAMPLE_FRACTIONS)
        if clip_worst[1] is not None and clip_worst[0] >= worst[0]:
            worst = (clip_worst[0], (c["name"],) + clip_worst[1])
    ratio = size_c / size_p if size_p else 0
    where = f" (clip {worst[1][0]!r}, t={worst[1][1]}, node {worst[1][2]!r})" if worst[1] else ""
    rep.note(f"unit: {why}; TOL {tol:g}; {len(clips)} skeletal clips, {keys} keys; plain {size_p} B, "
             f"compressed {size_c} B ({100 * ratio:.1f}%); CCLP {sum(stored.values())} B; "
             f"worst error {worst[0]:.3g} = {worst[0] / tol * 100:.1f}% of TOL{where}")
    return rep


def compress_simd_check(asset, work, simd):
    """`convert --compress` at another SIMD level: exit 0, no clip-not-compressed, every skeletal clip
    in CCLP, and (unless its clips have very few keys) the first clip within TOL of the input at 3
    times (the native file poses exactly as its input, so the input's poses at the default level,
    asset.reference, stand for the plain file here)."""
    rep = Report("compress", asset.rel, simd)
    clips = asset.skeletal_clips()
    per_m, _ = asset.unit
    if per_m is None:
        return rep
    tol = MM / per_m
    comp = os.path.join(work, "compress_" + re.sub(r"\W", "_", asset.rel) + f"_{simd}.marrow")
    ok = convert_compressed(rep, asset, comp, tol)
    ci = rep.run_json(["info", comp, "--json"] + asset.load) if ok else None
    if ci is None:
        return rep
    check_no_diagnostic(rep, ci, comp, tol)
    stored = {}
    try:
        stored = native_compressed_clips(comp)
        missing = [c["name"] for c in clips if c["name"] not in stored]
        rep.check(not missing, "every skeletal clip is stored compressed (CCLP section)",
                  f"not in CCLP: {missing}; CCLP holds {sorted(stored)}")
    except (ValueError, struct.error) as e:
        rep.check(False, "the compressed file's sections parse as docs/native-format.md says", str(e))
    c = clips[0]
    index_c = next((i for i, x in enumerate(ci["clips"]) if x["name"] == c["name"]), None)
    if not rep.check(index_c is not None, f"clip {c['name']!r} is in the compressed file"):
        return rep
    worst, at = 0.0, None
    for t, b in asset.reference.items():
        a = rep.run_json(["pose", comp, "--clip", index_c, "--time", t, "--json", "--no-normals"] + asset.load)
        if a is None or b is None:
            continue
        if not rep.check([n["name"] for n in a["nodes"]] == [n["name"] for n in b["nodes"]],
                         f"clip {c['name']!r} t={t}: the compressed file has the input's nodes"):
            continue
        worst, at = worst_translation(a, b, t, worst, at)
    if at is not None:
        rep.check(worst <= tol * 1.0001, f"clip {c['name']!r}: node world translations within TOL {tol:g} of the input's",
                  f"error {worst:.6g} at t={at[0]} on node {at[1]!r} "
                  f"(`{cmdline(['pose', os.path.basename(comp), '--clip', index_c, '--time', at[0], '--json'], simd)}` vs the input)")
    rep.note(f"TOL {tol:g}: {os.path.getsize(comp)} B, CCLP {sum(stored.values())} B; " +
             (f"clip {c['name']!r} worst error {worst:.3g} = {worst / tol * 100:.1f}% of TOL (t={at[0]}, node {at[1]!r})"
              if at else "few keys: error not sampled at this level"))
    return rep


# ---------------------------------------------------------------------------------------------
# 2. convert to glTF


def gltf_check(asset, work):
    """Check 2: the .glb and .gltf `marrow convert` writes pose as the input does."""
    rep = Report("gltf", asset.rel)
    base = os.path.join(work, "gltf_" + re.sub(r"\W", "_", asset.rel))
    clips = asset.info["clips"]
    clip_args, times = [], [None]
    if clips:
        d = clips[0]["duration"]
        clip_args = ["--clip", 0]
        times = sorted(set([0.0, round(d * 0.3719, 6), d]))
    inputs = {}
    for t in times:
        ta = [] if t is None else ["--time", t]
        inputs[t] = rep.run_json(["pose", asset.path, "--json", "--no-normals"] + clip_args + ta + asset.load)
    if any(v is None for v in inputs.values()):
        return rep
    size = model_size(inputs[times[0]])
    notes = []
    for ext in (".glb", ".gltf"):
        out = base + ext
        ok, _, _ = rep.run(["convert", asset.path, out] + asset.load)
        if not ok:
            continue
        rep.check(os.path.getsize(out) > 0, f"{ext} written", "empty file")
        oi = rep.run_json(["info", out, "--json"] + asset.load)
        if oi is None:
            continue
        rep.check([c["name"] for c in oi["clips"]] == [c["name"] for c in clips], f"{ext}: the input's clips",
                  f"{[c['name'] for c in oi['clips']]} vs {[c['name'] for c in clips]}")
        if clips and oi["clips"] and abs(oi["clips"][0]["duration"] - clips[0]["duration"]) > 1e-4:
            notes.append(f"{ext} clip 0 lasts {oi['clips'][0]['duration']:g} s, the input's {clips[0]['duration']:g} s")
        node_map, unmatched = match_node_trees(asset.info, oi)
        rep.check(not unmatched, f"{ext}: every node of the input is in the output (matched by the node trees)",
                  f"unmatched: {unmatched[:10]}")
        worst, mesh_pairs = 0.0, None
        for t in times:
            ta = [] if t is None else ["--time", t]
            o = rep.run_json(["pose", out, "--json", "--no-normals"] + clip_args + ta + asset.load)
            if o is None:
                continue
            if mesh_pairs is None:
                mesh_pairs, lost = match_meshes(inputs[t], o, node_map, asset.info, oi)
                rep.check(not lost, f"{ext}: every posed mesh of the input is in the output", f"unmatched: {lost}")
            worst = max(worst, compare_poses(rep, f"{ext} pose at t={t}", inputs[t], o, size, GLTF_REL_TOL,
                                             node_map, mesh_pairs))
        notes.append(f"{ext}: worst difference {worst:.3g} ({worst / size:.2g} of size {size:.4g})")
    rep.note("; ".join(notes))
    return rep


# ---------------------------------------------------------------------------------------------
# 3. render


def render_check(asset, work):
    """Check 3: a picture, a contact sheet and a skeleton view, each a well-formed PNG."""
    rep = Report("render", asset.rel)
    base = os.path.join(work, "render_" + re.sub(r"\W", "_", asset.rel))
    sizes = []
    for tag, extra in (("picture", []), ("sheet", ["--frames", 2]), ("skeleton", ["--skeleton"])):
        out = f"{base}_{tag}.png"
        args = ["render", asset.path, "--out", out] + extra + asset.load
        if tag == "sheet" and not asset.info["clips"]:
            # A contact sheet spreads frames over the clips: a file without any is a usage error.
            ok, _, err = rep.run(args, f"`{cmdline(args)}` (no clips) is refused as a usage error", expect_rc=2)
            rep.check("no animations" in err and not os.path.exists(out), "the refusal says the file has no animations "
                      "and writes nothing", err.strip())
            continue
        ok, _, _ = rep.run(args)
        if ok:
            problem = png_problem(out)
            rep.check(problem is None, f"`{cmdline(args)}` writes a well-formed, non-empty PNG", problem or "")
            if problem is None:
                sizes.append(f"{tag} {'x'.join(map(str, png_size(out)))}")
    rep.note(", ".join(sizes))
    return rep


# ---------------------------------------------------------------------------------------------
# 4. pose: layers, masks, additive layers, two-bone IK, root motion


def pose_check(asset, work, plan):
    """Check 4 on one rig: plan = (clip A, time A, clip B, time B) names."""
    check = PoseCheck(asset, plan, POSE_REL_TOL, IK_REL_TOL)
    if not check.start():
        return check.rep
    check.layers()
    check.additive()
    check.root_motion()
    chain = check.leg_chain()
    if chain is not None:
        outside = check.masked_layer(chain[0])
        check.two_bone_ik(chain, outside)
    return check.rep


# Rigs and the clips the pose checks blend: (clip A, time A, clip B, time B).
POSE_PLANS = {
    "gltf/Fox/Fox.gltf": ("Walk", 0.3, "Run", 0.5),
    "gltf/CesiumMan/cesium_man.gltf": ("animation_0", 0.5, "animation_0", 1.3),
    "gltf/KayKitRigMedium/Med_MovementBasic.glb": ("Rig_Medium|Walking_A", 0.4, "Rig_Medium|Running_A", 0.3),
}


# ---------------------------------------------------------------------------------------------
# Running the checks


def parse_args(argv):
    """(binary, assets folder, sections to run or None for all, folder to keep the outputs in or
    None), or None when the arguments are wrong."""
    args = list(argv[1:])
    only, keep = None, None
    if "--only" in args:
        i = args.index("--only")
        only = set(args[i + 1].split(","))
        del args[i:i + 2]
    if "--keep" in args:
        i = args.index("--keep")
        keep = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        return None
    return args[0], args[1], only, keep


def load_assets(pool, root):
    """Every model file under root, loaded: (the load reports, the assets that load)."""
    assets = find_assets(root)
    reports = list(pool.map(load_asset, assets))
    loaded = [a for a in assets if a.info is not None]
    refused = [a for a in assets if a.refused]
    print(f"{len(assets)} model files under {root}: {len(loaded)} load, {len(refused)} refused", flush=True)
    for a in refused:
        print(f"  skipped {a.rel}: {a.refused[1] or 'UNEXPECTED'} [{a.refused[0][:160]}]")
    return reports, loaded


def submit_checks(pool, loaded, work, only, root=None):
    """Starts the checks of the sections asked for: (reports already done, futures of the others)."""
    reports, jobs = [], []
    # Slowest first, so the two cores stay busy to the end.
    by_cost = sorted(loaded, key=lambda a: -os.path.getsize(a.path))
    if only is None or "compress" in only:
        skel = [a for a in by_cost if a.skeletal_clips()]
        print(f"compress: {len(skel)} files with skeletal clips: {', '.join(a.rel for a in skel)}")
        reports += list(pool.map(prepare_compress, skel))
        jobs += [pool.submit(compress_check, a, work) for a in skel]
        default, lower = lower_simd_levels()
        print(f"compress: SIMD level {default}; repeated with MARROW_SIMD={', '.join(lower) or '(none)'}")
        jobs += [pool.submit(compress_simd_check, a, work, level) for level in lower for a in skel]
    if only is None or "gltf" in only:
        jobs += [pool.submit(gltf_check, a, work) for a in by_cost]
    if only is None or "render" in only:
        jobs += [pool.submit(render_check, a, work) for a in by_cost]
    if only is None or "pose" in only:
        for rel, plan in POSE_PLANS.items():
            a = next((x for x in loaded if x.rel == rel), None)
            if a is None:
                reports.append(Report("pose", rel))
                reports[-1].check(False, "the asset is present and loads")
            else:
                jobs.append(pool.submit(pose_check, a, work, plan))
    if only is None or "retarget" in only:
        jobs += [pool.submit(retarget_check, root, s, c, t, work) for s, c, t in retarget_plans(root)]
        jobs.append(pool.submit(usage_checks, root, work))
    return reports, jobs


def job_report(job):
    try:
        return job.result()
    except Exception as e:  # a bug in this script, or output it does not expect
        r = Report("error", "?")
        r.check(False, f"the test raised {type(e).__name__}: {e}")
        traceback.print_exc()
        return r


def main(argv):
    parsed = parse_args(argv)
    if parsed is None:
        print(re.search(r"^Usage:.*?(?=\n\S|\Z)", __doc__, re.S | re.M).group(0), file=sys.stderr)
        return 2
    exe, root, only, keep = parsed
    if not os.path.isdir(root):
        print(f"SKIP: the shared assets ({root}) are absent")
        return 77
    marrow_cli.use(exe)
    start = time.monotonic()
    if keep:
        os.makedirs(keep, exist_ok=True)
        work, tmp = keep, None
    else:
        tmp = tempfile.TemporaryDirectory(prefix="marrow_cli_features_")
        work = tmp.name
    workers = max(2, os.cpu_count() or 2)
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        reports, loaded = load_assets(pool, root)
        done, jobs = submit_checks(pool, loaded, work, only, root)
        reports += done + [job_report(j) for j in jobs]
    passed = sum(r.passed for r in reports)
    failed = sum(r.failed for r in reports)
    order = {"load": 0, "compress": 1, "gltf": 2, "render": 3, "pose": 4, "retarget": 5, "error": 6}
    for r in sorted(reports, key=lambda r: order.get(r.section, 9)):
        for line in r.lines:
            print(line)
    if tmp:
        tmp.cleanup()
    print(f"time {time.monotonic() - start:.1f} s")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
