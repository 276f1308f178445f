"""Metres per scene unit of an asset as marrow loads it: the compression tolerance is in metres."""

import math
import os
import re
import struct

from .node_trees import root_nodes


def column_scale(m):
    return [math.sqrt(m[4 * c] ** 2 + m[4 * c + 1] ** 2 + m[4 * c + 2] ** 2) for c in range(3)]


def fbx_unit_scale_factor(path):
    """GlobalSettings' UnitScaleFactor (centimetres per file unit) of a binary or ASCII FBX; 1.0 if absent."""
    data = open(path, "rb").read()
    i = data.find(b"S\x0f\x00\x00\x00UnitScaleFactor")  # a binary property string, not OriginalUnitScaleFactor
    if i >= 0:
        o = i + 5 + 15
        for _ in range(6):  # 'S' "double", 'S' "Number", 'S' "", then the value
            t = data[o:o + 1]
            if t == b"S":
                (n,) = struct.unpack_from("<I", data, o + 1)
                o += 5 + n
            elif t == b"D":
                return struct.unpack_from("<d", data, o + 1)[0]
            elif t == b"F":
                return struct.unpack_from("<f", data, o + 1)[0]
            else:
                break
    m = re.search(rb'"UnitScaleFactor"\s*,\s*"double"\s*,\s*"Number"\s*,\s*"[^"]*"\s*,\s*([-+0-9.eE]+)', data)
    return float(m.group(1)) if m else 1.0


def scene_unit(asset, pose):
    """(metres per scene unit as marrow loads the asset, the reasoning) or (None, why not).

    The compression tolerance is in model space through the whole hierarchy, root prefix
    included (docs/clip-compression.md), i.e. in the scene space `marrow pose` reports. glTF is in
    metres. Assimp folds a Collada <unit meter> into the scene's root node, and keeps an FBX
    file's units (docs/formats.md: ImportOptions::unit_scale converts them): the root node's world
    scale says which happened."""
    ext = os.path.splitext(asset.rel)[1].lower()
    if ext in (".gltf", ".glb", ".vrm"):
        return 1.0, "glTF: metres (glTF 2.0)"
    if ext == ".dae":
        text = open(asset.path, "rb").read(200000).decode("utf-8", "replace")
        m = re.search(r'<unit\b[^>]*\bmeter="([^"]+)"', text)
        file_unit, declared = (float(m.group(1)), f'<unit meter="{m.group(1)}">') if m else (1.0, "no <unit>")
    elif ext == ".fbx":
        f = fbx_unit_scale_factor(asset.path)
        file_unit, declared = f * 0.01, f"UnitScaleFactor {f:g} (cm per unit)"
    elif ext == ".bvh":
        # BVH declares no unit and marrow keeps the file's (docs/formats.md, "BVH"); the shared
        # folders' manifests name theirs. The three.js CMU file names none: its figure stands about
        # 165 units tall, a person in centimetres.
        folder_units = {"bandai-locomotion": (0.01, "cm (bandai MANIFEST.md)"),
                        "animateddrawings": (0.0254, "inches (assets MANIFEST.md)"),
                        "threejs": (0.01, "cm (figure height; not declared)")}
        folder = asset.rel.split("/")[-2]
        if folder not in folder_units:
            return None, "no declared unit in .bvh files"
        file_unit, declared = folder_units[folder]
    else:
        return None, f"no declared unit in {ext} files"
    roots = root_nodes(asset.info)
    scales = [s for n in pose["nodes"] if n["index"] in roots for s in column_scale(n["world"])]
    if not scales:
        return None, f"{declared}: no root node in the pose"
    if all(abs(s - file_unit) <= 1e-4 * file_unit for s in scales):
        return 1.0, f"{declared}, folded into the root node (world scale {scales[0]:g}): scene space in metres"
    if all(abs(s - 1) <= 1e-4 for s in scales):
        return file_unit, f"{declared}, kept (root world scale 1): 1 scene unit = {file_unit:g} m"
    return None, f"{declared}, but the root nodes' world scales are {sorted(set(round(s, 6) for s in scales))}"
