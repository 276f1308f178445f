"""pose(), sample(), render(), convert(): the model-level calls, and that the long ones let other
Python threads run (they release the GIL)."""
import sys
import threading
import time

import numpy as np
import pytest

import marrow


def world_of(pose, node):
    """A node's world matrix from a pose dict, [row, column]."""
    entry = next(n for n in pose["nodes"] if n["index"] == node)
    return np.array(entry["world"], np.float32).reshape(4, 4).T


def test_pose_of_a_model(fox, fox_path):
    pose = marrow.pose(fox, clip="Run", time=0.5)
    assert pose["file"] == fox_path
    assert pose["clip"] == {"index": 2, "name": "Run", "duration": pytest.approx(1.1583333)}
    assert pose["time"] == 0.5 and pose["sampledTime"] == 0.5
    assert pose["meshes"][0]["vertexCount"] == 1728 and len(pose["meshes"][0]["positions"]) == 3 * 1728
    assert "normals" not in marrow.pose(fox, clip="Run", time=0.5, normals=False)["meshes"][0]
    assert marrow.pose(fox, clip=2, time=0.5) == pose
    clamped = marrow.pose(fox, clip="Run", time=99)
    assert clamped["sampledTime"] == pytest.approx(1.1583333)
    rest = marrow.pose(fox)
    assert rest["clip"] is None and rest["time"] is None


def test_pose_of_an_instance(fox):
    a = fox.instance()
    a.play("Run", loop="once", start=0.5)
    a.update(0)
    layered = marrow.pose(a)
    single = marrow.pose(fox, clip="Run", time=0.5)
    assert layered["clip"] is None and "rootMotion" not in layered
    assert layered["meshes"] == single["meshes"] and layered["skins"] == single["skins"]
    with pytest.raises(ValueError, match="play the clip on it"):
        marrow.pose(a, clip="Run")
    with pytest.raises(ValueError, match="play the clip on it"):
        marrow.pose(a, time=0.5)
    a.enable_root_motion()
    a.update(0)
    moved = marrow.pose(a)
    assert set(moved["rootMotion"]) == {"node", "translation", "yaw"}


def test_sample_is_the_pose_at_each_frame(fox):
    frames = marrow.sample(fox, clip="Walk", fps=30)
    duration = fox.duration("Walk")
    assert frames.shape == (round(duration * 30), 24, 4, 4) and frames.dtype == np.float32
    assert frames.flags.c_contiguous
    info = fox.info()
    nodes = info["skins"][0]["paletteToNode"]
    for f in (0, 7, frames.shape[0] - 1):
        pose = marrow.pose(fox, clip="Walk", time=f / 30)
        for j in (0, 5, 23):
            np.testing.assert_array_equal(frames[f, j], world_of(pose, nodes[j]))
    every = marrow.sample(fox, clip="Walk", fps=30, skin=None)
    assert every.shape == (frames.shape[0], len(info["bones"]), 4, 4)
    np.testing.assert_array_equal(every[:, info["skins"][0]["paletteToBone"]], frames)
    assert marrow.sample(fox, clip=1, fps=1000).shape[0] == round(duration * 1000)
    with pytest.raises(ValueError):
        marrow.sample(fox, clip="Walk", fps=0)
    with pytest.raises(KeyError):
        marrow.sample(fox, clip="Jump")


def test_render_draws_rgb(fox):
    image = marrow.render(fox, clip="Run", time=0.5, size=(96, 64))
    assert image.shape == (64, 96, 3) and image.dtype == np.uint8
    background = image[0, 0].copy()
    assert (image != background).any(axis=2).sum() > 200  # the fox covers part of it
    a = fox.instance()
    a.play("Run", loop="once", start=0.5)
    a.update(0)
    np.testing.assert_array_equal(marrow.render(a, size=(96, 64)), image)  # one camera for both
    side = marrow.render(fox, clip="Run", time=0.5, size=(96, 64), view="side", skeleton=True, samples=1)
    assert not np.array_equal(side, image)
    with pytest.raises(ValueError, match="view"):
        marrow.render(fox, view="below")
    with pytest.raises(ValueError):
        marrow.render(fox, size=(0, 10))
    with pytest.raises(ValueError, match="play the clip on it"):
        marrow.render(a, clip="Run")


def test_convert_round_trips(fox, fox_path, tmp_path):
    marrow.convert(fox_path, tmp_path / "fox.glb")
    marrow.convert(fox, tmp_path / "fox.marrow")
    for out in ("fox.glb", "fox.marrow"):
        back = marrow.load(tmp_path / out)
        assert back.animations == fox.animations
        np.testing.assert_allclose(marrow.sample(back, clip="Run"), marrow.sample(fox, clip="Run"), atol=1e-4)
    marrow.convert(fox, tmp_path / "half.glb", unit_scale=0.5)
    half = marrow.load(tmp_path / "half.glb")
    np.testing.assert_allclose(half.instance().positions(), fox.instance().positions() * 0.5, atol=1e-3)
    np.testing.assert_array_equal(marrow.load(fox_path).instance().positions(), fox.instance().positions())
    with pytest.raises(marrow.LoadError):
        marrow.convert(tmp_path / "missing.fbx", tmp_path / "out.glb")
    with pytest.raises(ValueError):
        marrow.convert(fox, tmp_path / "bad.glb", unit_scale=-1.0)


def test_convert_compresses_clips_to_a_tolerance_in_the_model_units(assets, tmp_path):
    walk = assets / "bvh" / "bandai-locomotion" / "dataset-1_walk-right_normal_001.bvh"  # centimetres
    # 0.001 is 10 um here, finer than the keys' most bits: the clip is written as it was, and why.
    with pytest.warns(UserWarning, match="clip not compressed: .*cannot be met.*in the model's units"):
        marrow.convert(walk, tmp_path / "tight.marrow", compress=0.001)
    assert "compressed_bytes" not in marrow.load(tmp_path / "tight.marrow").info()["clips"][0]
    marrow.convert(walk, tmp_path / "walk.marrow", compress=0.1)  # 1 mm at 10 cm, in centimetres
    source, small = marrow.load(walk), marrow.load(tmp_path / "walk.marrow")
    assert small.info()["clips"][0]["compressed_bytes"] > 0
    a, b = marrow.sample(source, 0, fps=30), marrow.sample(small, 0, fps=30)
    assert a.shape == b.shape and np.abs(a[..., :3, 3] - b[..., :3, 3]).max() <= 0.1  # every joint within TOL
    for bad in (0.0, -0.001, float("nan"), float("inf")):
        with pytest.raises(ValueError):
            marrow.convert(walk, tmp_path / "bad.marrow", compress=bad)
    # Segmented: the same bound, played with no per-instance state.
    marrow.convert(walk, tmp_path / "segmented.marrow", compress=0.1, segmented=True)
    segmented = marrow.load(tmp_path / "segmented.marrow")
    assert segmented.info()["clips"][0]["compressed_bytes"] > 0
    c = marrow.sample(segmented, 0, fps=30)
    assert a.shape == c.shape and np.abs(a[..., :3, 3] - c[..., :3, 3]).max() <= 0.1
    with pytest.raises(ValueError, match="segmented"):
        marrow.convert(walk, tmp_path / "bad.marrow", segmented=True)


def test_W1_convert_never_writes_over_its_source(fox_path, tmp_path):
    copy = tmp_path / "copy.gltf"
    marrow.convert(fox_path, copy)
    before = copy.read_bytes()
    for same in (copy, tmp_path / "." / "copy.gltf"):
        with pytest.raises(ValueError, match="would replace it"):
            marrow.convert(copy, same)
    assert copy.read_bytes() == before


def test_pose_refuses_times_the_command_line_refuses(fox):
    for bad in (float("nan"), float("inf"), -1.0):
        with pytest.raises(ValueError, match="time"):
            marrow.pose(fox, clip="Run", time=bad)


def python_runs_during(call):
    """Runs call() on a thread while this thread keeps executing Python; returns how long the call
    took and how often this thread ran in the middle half of it. A call that holds the GIL
    leaves no room for that (the margins absorb a switch interval at either end: 1 ms here, so a
    call of 8 ms or more has a middle of several intervals)."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    try:
        return _python_runs_during(call)
    finally:
        sys.setswitchinterval(interval)


def _python_runs_during(call):
    span = {}
    started = threading.Event()

    def worker():
        started.set()
        span["start"] = time.perf_counter()
        call()
        span["end"] = time.perf_counter()

    thread = threading.Thread(target=worker)
    thread.start()
    started.wait()
    stamps = []
    while thread.is_alive():
        stamps.append(time.perf_counter())
    thread.join()
    duration = span["end"] - span["start"]
    low, high = span["start"] + duration / 4, span["end"] - duration / 4
    return duration, sum(low < t < high for t in stamps)


def test_the_gil_check_sees_a_call_that_holds_it():
    duration, during = python_runs_during(lambda: sum(range(30_000_000)))  # C, holding the GIL
    assert duration > 0.008 and during == 0


@pytest.mark.parametrize("name", ["load", "sample", "render", "convert"])
def test_long_calls_release_the_gil(assets, fox, tmp_path, name):
    big_path = assets / "perf" / "big_skinned.glb"  # 200 joints, 100k vertices, a 10 s clip
    if not big_path.exists():
        pytest.skip(f"{big_path} is absent")
    big = marrow.load(big_path, max_palette=256)
    calls = {
        "load": lambda: marrow.load(big_path, max_palette=256),
        "sample": lambda: marrow.sample(big, clip=0, fps=200, skin=None),
        "render": lambda: marrow.render(fox, size=(2048, 2048)),
        "convert": lambda: marrow.convert(big, tmp_path / "big.gltf"),
    }
    duration, during = python_runs_during(calls[name])
    assert duration > 0.008, f"{name} took {duration:.3f} s: too short to tell"
    assert during > 0, f"no Python ran during the middle of {name} ({duration:.3f} s): the GIL was held"


def test_RT1_RT4_retarget_returns_the_target_with_the_clips(assets, tmp_path):
    mocap = assets / "bvh" / "animateddrawings" / "jumping.bvh"
    rig = assets / "gltf" / "KayKitRigMedium" / "manny_med_mod.gltf"
    out = marrow.retarget(str(mocap), str(rig), prefix="mocap_")
    assert out.animations == ["mocap_jumping"]
    # Bone lengths stay the target's (RT4): the lower leg's distance to the upper leg.
    names = out.joint_names(None)
    rest = marrow.pose(marrow.load(str(rig)))
    moved = marrow.pose(out, "mocap_jumping", 2.0)

    def length(p, child, parent):
        nodes = {n["name"]: n["world"] for n in p["nodes"] if n.get("name")}
        a, b = nodes[child], nodes[parent]
        return float(np.linalg.norm(np.array(a[12:15]) - np.array(b[12:15])))

    assert "lowerleg.l" in names
    assert length(moved, "lowerleg.l", "upperleg.l") == pytest.approx(length(rest, "lowerleg.l", "upperleg.l"), rel=1e-4)
    with pytest.raises(ValueError, match="hips"):
        marrow.retarget(str(mocap), str(assets / "gltf" / "Fox" / "Fox.gltf"))
    with pytest.raises(ValueError, match="no clip named"):
        marrow.retarget(str(mocap), str(rig), clips=["nope"])
    bad = tmp_path / "map.json"
    bad.write_text('{"hips": 1}')
    with pytest.raises(marrow.LoadError):
        marrow.retarget(str(mocap), str(rig), map=str(bad))


def test_RT3_a_live_retarget_plays_what_the_baked_one_plays(assets, tmp_path):
    mocap = str(assets / "bvh" / "animateddrawings" / "jumping.bvh")
    rig = str(assets / "gltf" / "KayKitRigMedium" / "manny_med_mod.gltf")
    baked = marrow.retarget(mocap, rig)
    live = marrow.retarget(mocap, rig, live=True)
    # Between the BVH's 120 Hz keys the baked clip interpolates the target's rotations and the live
    # one the source's, so the two differ there by the curvature over 8 ms: well under 1e-3.
    for t in (0.0, 1.0, 2.5):
        a = {n["name"]: n["world"] for n in marrow.pose(baked, "jumping", t)["nodes"] if n.get("name")}
        b = {n["name"]: n["world"] for n in marrow.pose(live, "jumping", t)["nodes"] if n.get("name")}
        assert a.keys() == b.keys()
        for name in a:
            assert np.allclose(a[name], b[name], atol=1e-3), name
    with pytest.raises(ValueError, match="plays live"):
        marrow.convert(live, str(tmp_path / "live.glb"))
