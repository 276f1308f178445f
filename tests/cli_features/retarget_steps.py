"""The retarget section of Cli.FeaturesOnEverySharedAsset: `marrow retarget` from every humanoid
clip source of the shared assets (BVH, FBX, Collada, glTF) onto the humanoid rigs (glTF, FBX),
as a user runs it, checked from outside (docs/retargeting.md):

- `marrow info SOURCE --json` reports a humanoid map (RT1);
- exit 0; `--json` prints {"map": {target: source}, "root_scale": S, "clips": [name]}, the map
  pairs at least ten bones, S is finite and > 0;
- `marrow info OUT --json` has the clip with the source clip's duration;
- `marrow pose OUT --clip C --time T --json` at 4 times: every world finite; every mapped node
  keeps its rest distance to its parent (RT4: bone lengths), within 1e-4 of it plus 1e-6 of the
  rig's size;
- `--feet-ik` writes a file too; running again onto OUT is refused (exit 1) naming the clip;
- `marrow render OUT --clip C --gif` writes a GIF.
"""

import json
import math
import os

from cli_features.marrow_cli import Report

# (source, clip or None for its first): humanoid clips of every format the assets hold.
SOURCES = [
    ("bvh/animateddrawings/jumping.bvh", None),
    ("bvh/threejs/pirouette.bvh", None),
    ("bvh/bandai-locomotion/dataset-2_walk_normal_001.bvh", None),
    ("bvh/bandai-locomotion/dataset-1_dash_normal_001.bvh", None),
    ("fbx/pab/jog.fbx", None),
    ("dae/pab/walk.dae", None),
    ("gltf/KayKitRigMedium/Med_MovementBasic.glb", "Rig_Medium|Walking_A"),
]
TARGETS = ["gltf/KayKitRigMedium/manny_med_mod.gltf", "fbx/pab/skeleton.fbx"]


def plans(root):
    out = []
    for target in TARGETS:
        for source, clip in SOURCES:
            if source.startswith("gltf/KayKit") and target.startswith("gltf/KayKit"):
                continue  # a rig onto itself is RT1's unit test
            if os.path.exists(os.path.join(root, source)) and os.path.exists(os.path.join(root, target)):
                out.append((source, clip, target))
    return out


def _world_position(node):
    w = node["world"]
    return (w[12], w[13], w[14])


def _lengths(pose, parents):
    """Distance of each named node to its parent, from `marrow pose --json`."""
    by_name = {n["name"]: _world_position(n) for n in pose["nodes"] if n.get("name")}
    out = {}
    for name, parent in parents.items():
        if name in by_name and parent in by_name:
            out[name] = math.dist(by_name[name], by_name[parent])
    return out


def retarget_check(root, source, clip, target, work):
    name = f"{os.path.basename(source)} -> {os.path.basename(target)}"
    r = Report("retarget", name)
    src, tgt = os.path.join(root, source), os.path.join(root, target)
    stem = f"{os.path.splitext(os.path.basename(source))[0]}_on_{os.path.splitext(os.path.basename(target))[0]}"
    out = os.path.join(work, stem + ".glb")
    info = r.run_json(["info", src, "--json"])
    if info is None:
        return r
    r.check(info.get("humanoid") is not None, "`marrow info --json` of the source reports its humanoid map",
            f"humanoid: {info.get('humanoid')}")
    source_clip = next((c for c in info["clips"] if clip is None or c["name"] == clip), None)
    if not r.check(source_clip is not None, f"{source} has the clip {clip or '(first)'}"):
        return r
    args = ["retarget", src, tgt, out, "--clip", source_clip["name"], "--json"]
    report = r.run_json(args)
    if report is None:
        return r
    mapped = report.get("map", {})
    r.check(len(mapped) >= 10, "the map pairs at least 10 bones", f"map: {mapped}")
    scale = report.get("root_scale")
    r.check(isinstance(scale, (int, float)) and math.isfinite(scale) and scale > 0, "root_scale is finite and > 0", f"{scale}")
    r.check(report.get("clips") == [source_clip["name"]], "clips names the written clip", f"{report.get('clips')}")

    written = r.run_json(["info", out, "--json"])
    if written is None:
        return r
    new = next((c for c in written["clips"] if c["name"] == source_clip["name"]), None)
    if not r.check(new is not None, "OUT has the clip"):
        return r
    r.check(abs(new["duration"] - source_clip["duration"]) <= 1e-3, "the clip keeps the source's duration",
            f"{new['duration']} vs {source_clip['duration']}")

    bones = {b["bone"]: b for b in written["bones"]}

    def has_mapped_ancestor(b):
        while b.get("parentBone", -1) in bones:
            b = bones[b["parentBone"]]
            if b.get("name") in mapped:
                return True
        return False

    # Every mapped node but the hips (the topmost one, which moves by design: RT4).
    parents = {b["name"]: bones[b["parentBone"]]["name"] for b in written["bones"]
               if b.get("name") in mapped and b.get("parentBone", -1) in bones and has_mapped_ancestor(b)}
    rest = r.run_json(["pose", out, "--json"])
    if rest is None:
        return r
    rest_lengths = _lengths(rest, parents)
    size = max((abs(c) for n in rest["nodes"] for c in _world_position(n)), default=1.0)
    worst = (0.0, "")
    for k in range(4):
        t = new["duration"] * k / 3
        pose = r.run_json(["pose", out, "--clip", new["name"], "--time", f"{t:.6f}", "--json"])
        if pose is None:
            return r
        finite = all(math.isfinite(v) for n in pose["nodes"] for v in n["world"])
        r.check(finite, f"every world is finite at {t:.3f} s")
        for bone, length in _lengths(pose, parents).items():
            err = abs(length - rest_lengths.get(bone, length)) - 1e-6 * size
            relative = max(err, 0.0) / max(rest_lengths.get(bone, 1.0), 1e-9)
            if relative > worst[0]:
                worst = (relative, f"{bone} at {t:.3f} s")
    r.check(worst[0] <= 1e-4, "mapped bones keep their rest lengths (RT4)", f"worst relative change {worst[0]:.2e} ({worst[1]})")

    ik_out = os.path.join(work, stem + "_ik.marrow")
    r.run(["retarget", src, tgt, ik_out, "--clip", source_clip["name"], "--feet-ik"], "--feet-ik writes a .marrow file")
    ok, _, err = r.run(["retarget", src, out, os.path.join(work, stem + "_twice.glb"), "--clip", source_clip["name"]],
                       "a second retarget onto OUT is refused", expect_rc=1)
    if ok:
        r.check(source_clip["name"] in err, "the refusal names the clip", err.strip()[:300])
    gif = os.path.join(work, stem + ".gif")
    r.run(["render", out, "--clip", new["name"], "--gif", gif, "--frames", "4", "--size", "96x96"], "render --gif of the clip")
    r.check(os.path.exists(gif) and os.path.getsize(gif) > 0, "the GIF is written")
    return r


def usage_checks(root, work):
    r = Report("retarget", "usage")
    src = os.path.join(root, "bvh/animateddrawings/jumping.bvh")
    tgt = os.path.join(root, "gltf/KayKitRigMedium/manny_med_mod.gltf")
    r.run(["retarget", src, tgt, os.path.join(work, "x.png")], "an OUT that is not .glb/.gltf/.marrow: exit 2", expect_rc=2)
    r.run(["retarget", src, tgt], "two arguments: exit 2", expect_rc=2)
    r.run(["retarget", src, tgt, os.path.join(work, "x.glb"), "--source-rest", "nope"], "a bad --source-rest: exit 2",
          expect_rc=2)
    bad_map = os.path.join(work, "bad_map.json")
    with open(bad_map, "w") as f:
        f.write('{"hips": 3}')
    r.run(["retarget", src, tgt, os.path.join(work, "x.glb"), "--map", bad_map], "a malformed map file: exit 1", expect_rc=1)
    good_map = os.path.join(work, "map.json")
    with open(good_map, "w") as f:
        json.dump({"hips": "Hips", "upperleg.l": "leftUpperLeg", "lowerleg.l": "LeftLeg", "foot.l": "LeftFoot",
                   "upperleg.r": "RightUpLeg", "lowerleg.r": "RightLeg", "foot.r": "RightFoot", "head": "Head"}, f)
    report = r.run_json(["retarget", src, tgt, os.path.join(work, "mapped.glb"), "--map", good_map, "--json"])
    if report is not None:
        r.check(len(report["map"]) == 8, "an explicit map pairs exactly its entries", f"{report['map']}")
    r.run(["retarget", src, tgt, os.path.join(work, "x.glb"), "--clip", "nope"], "an unknown --clip: exit 1", expect_rc=1)
    return r
