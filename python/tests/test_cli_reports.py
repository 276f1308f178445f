"""Model.info() and pose() return what `marrow info --json` and `marrow pose --json` print.

The CLI prints numbers as marrow's one JSON writer does (marrow/io/json_writer.hpp): a float
value in its shortest text that reads back to the same float, a double in its shortest text,
integral values without a fraction, non-finite ones as null; the dicts hold the exact values.
Put through that same formatting, every dict equals json.loads of the CLI's output exactly.
"""
import json
import math
import subprocess

import numpy as np
import pytest

import marrow


def as_printed(value):
    """value as the CLI's JsonWriter prints it, then read back by json.loads."""
    if isinstance(value, dict):
        return {k: as_printed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_printed(v) for v in value]
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        if value == math.floor(value) and abs(value) < 1e15:
            return int(value)
        single = np.float32(value)
        if float(single) != value:
            return value  # a double: its shortest text reads back to itself
        shortest = float(str(single))
        # The writer falls back to the exact value when the shortest float text, read as a
        # double and rounded to float, would not give the float back.
        return shortest if np.float32(shortest) == single else value
    return value


def cli_json(cli, *args):
    done = subprocess.run([cli, *map(str, args), "--json"], check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def assert_same(dict_from_python, printed_by_cli):
    assert as_printed(dict_from_python) == printed_by_cli


@pytest.fixture(scope="module")
def demo_path(tmp_path_factory, cli):
    """marrow demo's character: morph targets, initial weights, a rigid node, two skins' worth of clips."""
    folder = tmp_path_factory.mktemp("demo")
    subprocess.run([cli, "demo", "--out", str(folder)], check=True, capture_output=True)
    return str(folder / "demo.glb")


ASSET_FILES = ["gltf/Fox/Fox.gltf", "gltf/CesiumMan/cesium_man.gltf", "gltf/RiggedSimple/rigged_simple.gltf",
               "gltf/BoxAnimated/box_animated.gltf", "gltf/SimpleSkin/SimpleSkin.gltf",
               "gltf/AnimatedTriangle/AnimatedTriangle.gltf", "gltf/WebXRGenericHand/left.glb", "fbx/robot.fbx",
               "dae/seymour.dae"]


def existing(assets, relative):
    path = assets / relative
    if not path.exists():
        pytest.skip(f"{relative} is absent from {assets}")
    return str(path)


@pytest.mark.parametrize("relative", ASSET_FILES)
def test_info_equals_the_cli(assets, cli, relative):
    path = existing(assets, relative)
    assert_same(marrow.load(path).info(), cli_json(cli, "info", path))


def test_info_of_morph_targets_equals_the_cli(cli, demo_path):
    info = marrow.load(demo_path).info()
    assert any(m["morphTargets"] for m in info["meshes"])
    assert_same(info, cli_json(cli, "info", demo_path))


@pytest.mark.parametrize("relative, clip, seconds", [
    ("gltf/Fox/Fox.gltf", "Run", 0.5),
    ("gltf/Fox/Fox.gltf", None, 0.0),
    ("gltf/CesiumMan/cesium_man.gltf", 0, 99.0),
    ("gltf/BoxAnimated/box_animated.gltf", 0, 1.25),
    ("fbx/robot.fbx", 0, 0.4),
])
def test_pose_equals_the_cli(assets, cli, relative, clip, seconds):
    path = existing(assets, relative)
    model = marrow.load(path)
    if clip is not None and not model.animations:
        pytest.skip(f"{relative} has no animations")
    args = ["pose", path] + ([] if clip is None else ["--clip", clip, "--time", seconds])
    assert_same(marrow.pose(model, clip=clip, time=seconds), cli_json(cli, *args))


def test_pose_with_morph_weights_equals_the_cli(cli, demo_path):
    pose = marrow.pose(marrow.load(demo_path), clip="Wave", time=0.5, normals=False)
    assert pose["morphWeights"]
    assert_same(pose, cli_json(cli, "pose", demo_path, "--clip", "Wave", "--time", 0.5, "--no-normals"))


def test_an_instance_set_up_like_the_cli_flags_equals_the_cli(fox_path, cli):
    """--layer, --additive, --two-bone-ik and --root-motion are an Instance set up as pose_flags.cpp
    does: every clip "once" from its time on its own layer, then one update of 0."""
    model = marrow.load(fox_path)
    a = model.instance()
    a.set_layer(0, weight=1.0)
    a.play("Walk", loop="once", start=0.3, layer=0)
    a.set_layer(1, weight=0.5, mask="b_Spine01_02")
    a.play("Survey", loop="once", start=1.0, layer=1)
    a.set_layer(2, weight=0.5, additive=True)
    a.play("Run", loop="once", start=0.2, layer=2)
    chain = a.add_two_bone_ik("b_LeftLeg01_015", "b_LeftLeg02_016", "b_LeftFoot01_017")
    a.set_two_bone_ik(chain, (10.0, 5.0, 20.0), 1.0, (10.0, 30.0, 60.0))
    a.update(0)
    printed = cli_json(cli, "pose", fox_path, "--layer", "Walk@0.3=1", "--layer", "Survey@1=0.5/b_Spine01_02",
                       "--additive", "Run@0.2=0.5",
                       "--two-bone-ik", "b_LeftLeg01_015,b_LeftLeg02_016,b_LeftFoot01_017=10,5,20,10,30,60")
    assert_same(marrow.pose(a), printed)

    b = model.instance()
    b.enable_root_motion(yaw=True)
    b.play("Run", loop="once", start=0.7)
    b.update(0)
    printed = cli_json(cli, "pose", fox_path, "--clip", "Run", "--time", 0.7, "--root-motion-yaw")
    python = marrow.pose(b)
    assert python["rootMotion"]["node"] == printed["rootMotion"]["node"]
    # The CLI's report names the clip it played; an instance's pose has no single clip.
    for key in ("clip", "time", "sampledTime"):
        python[key] = printed[key]
    assert_same(python, printed)
