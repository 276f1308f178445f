"""The shared assets: finding the model files, loading each with `marrow info`, known refusals."""

import fnmatch
import json
import os
import re

from .marrow_cli import Report, run

# Files marrow refuses on purpose (docs/formats.md), with the reason listed in the output. Any
# other refusal is a failure; a file listed here that loads is tested like the others.
KNOWN_REFUSALS = (
    ("fbx/cube.fbx", "FBX 6.1 (version 6100): Assimp reads FBX 2011 (7.1) and later only"),
)
MODEL_EXTENSIONS = (".gltf", ".glb", ".vrm", ".dae", ".fbx", ".bvh", ".obj")
# The 200-joint perf/big_skinned.glb exceeds the default palette limit: it is loaded with the
# --max-palette N its error message suggests, and stays in every check (within the time budget).
PALETTE_RE = re.compile(r"(\d+) joints exceed the palette limit")


class Asset:
    def __init__(self, root, path):
        self.path = path
        self.rel = os.path.relpath(path, root).replace(os.sep, "/")
        self.load = []  # loading options every command on it needs (e.g. --max-palette)
        self.info = None
        self.refused = None  # (message, known reason or None)
        self.unit = (None, "not determined")  # (metres per scene unit, why): scene_unit()
        self.reference = {}  # time -> the input's pose of its first skeletal clip (prepare_compress)

    def skeletal_clips(self, info=None):
        info = info or self.info
        return [c for c in info["clips"]
                if any(k.get("targetSpace") == "JointPalette" and k.get("tracks", 0) > 0 for k in c.get("skeletal", []))]


def find_assets(root):
    """Every model file under root, in path order."""
    paths = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs
                   if os.path.splitext(f)[1].lower() in MODEL_EXTENSIONS)
    return [Asset(root, p) for p in paths]


def known_refusal(rel):
    for pattern, why in KNOWN_REFUSALS:
        if fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(os.path.basename(rel), pattern):
            return why
    return None


def load_asset(asset):
    rep = Report("load", asset.rel)
    rc, out, err = run(["info", asset.path, "--json"])
    m = PALETTE_RE.search(err)
    if rc != 0 and m:
        # The 200-joint perf asset: what its error message tells a user to do.
        asset.load = ["--max-palette", m.group(1)]
        rc, out, err = run(["info", asset.path, "--json"] + asset.load)
    if rc != 0:
        why = known_refusal(asset.rel)
        asset.refused = (err.strip().splitlines()[0] if err.strip() else f"exit {rc}", why)
        rep.check(why is not None and rc == 1, f"`marrow info {asset.rel} --json` loads it (or refuses it with exit 1 "
                  "for a documented reason)", f"exit {rc}: {err.strip()[:400]}")
        return rep
    try:
        asset.info = json.loads(out)
    except ValueError as e:
        rep.check(False, "`marrow info --json` prints JSON", str(e))
        return rep
    rep.check(True, "loads")
    return rep
