"""Animation graphs from Python: load_graph (a file or a dict), GraphInstance's parameters,
states, clip weights and pose, and the errors (docs/python.md, "Animation graphs")."""
import copy
import gc
import json
import subprocess

import numpy as np
import pytest

import marrow
from conftest import SOURCE_DIR

FOX_GRAPH = SOURCE_DIR / "docs" / "examples" / "fox_graph.json"
STEP = 1 / 60

# The Fox's clips on one speed axis: Survey at 0, Walk at 1.5, Run at 4.
LOCOMOTION = {
    "version": 1,
    "parameters": {"speed": {"type": "float", "default": 0}, "jump": {"type": "trigger"}},
    "root": "main",
    "nodes": {
        "idle": {"type": "clip", "clip": "Survey"},
        "walk": {"type": "clip", "clip": "Walk"},
        "run": {"type": "clip", "clip": "Run"},
        "move": {"type": "blend1d", "parameter": "speed",
                 "samples": [{"node": "idle", "at": 0}, {"node": "walk", "at": 1.5}, {"node": "run", "at": 4}]},
        "main": {"type": "state_machine", "initial": "ground",
                 "states": {"ground": "move", "leap": "run"},
                 "transitions": [{"from": "ground", "to": "leap", "conditions": [{"trigger": "jump"}]}]},
    },
}


@pytest.fixture(scope="module")
def fox_graph(fox):
    return marrow.load_graph(FOX_GRAPH, fox)


def test_a_graph_loads_from_a_file_and_from_the_same_dict(fox, fox_graph):
    from_dict = marrow.load_graph(json.loads(FOX_GRAPH.read_text()), fox)
    assert marrow.load_graph(str(FOX_GRAPH), fox).parameters == fox_graph.parameters  # str or PathLike
    assert fox_graph.parameters == {"speed": "float", "turn": "float", "jump": "trigger"}
    assert fox_graph.model is fox
    a, b = fox_graph.instance(), from_dict.instance()
    for i in (a, b):
        i.set("speed", 2.0)
        for _ in range(30):
            i.update(STEP)
    assert a.state() == b.state() == "ground"
    assert a.clip_weights() == b.clip_weights()
    np.testing.assert_array_equal(a.world_transforms(), b.world_transforms())


def test_AG1_weights_are_linear_in_speed_between_neighbouring_samples(fox):
    i = marrow.load_graph(LOCOMOTION, fox).instance()
    assert i.clip_weights() == {"Survey": 1.0, "Walk": 0.0, "Run": 0.0}  # speed 0 from the start
    for speed in (1.5, 2.0, 2.75, 3.5, 4.0):
        i.set("speed", speed)
        i.update(STEP)
        w = i.clip_weights()
        assert list(w) == ["Survey", "Walk", "Run"]  # every clip the graph plays, in its order
        u = (speed - 1.5) / 2.5
        assert w["Survey"] == 0.0
        assert w["Walk"] == pytest.approx(1 - u, abs=1e-6) and w["Run"] == pytest.approx(u, abs=1e-6)
    i.set("speed", 0.75)
    i.update(STEP)
    assert i.clip_weights() == pytest.approx({"Survey": 0.5, "Walk": 0.5, "Run": 0.0}, abs=1e-6)
    i.set("speed", 9.0)  # clamped at the last sample
    i.update(STEP)
    assert i.clip_weights() == pytest.approx({"Survey": 0.0, "Walk": 0.0, "Run": 1.0}, abs=1e-6)
    assert i.get("speed") == 9.0


def test_AG3_a_trigger_switches_the_state_and_is_consumed(fox_graph):
    i = fox_graph.instance()
    i.set("speed", 2.0)
    i.update(STEP)
    assert i.state() == "ground" and i.get("jump") is False
    i.fire("jump")
    assert i.get("jump") is True  # set until a transition takes it
    i.update(STEP)
    assert i.state() == "leap" and i.get("jump") is False
    assert i.clip_weights()["Run"] == pytest.approx(1.0)  # the leap (Run, played once) alone
    i.fire("jump")  # no transition from leap takes it: it stays set
    i.update(STEP)
    assert i.state() == "leap" and i.get("jump") is True
    for _ in range(90):  # past the leap's exit time (0.9 of Run at rate 1.3)
        i.update(STEP)
        if i.state() != "leap":
            break
    assert i.state() == "ground"


def test_AG3_bools_and_the_wrong_kind_of_parameter(fox):
    graph = copy.deepcopy(LOCOMOTION)
    graph["parameters"]["crouch"] = {"type": "bool"}
    i = marrow.load_graph(graph, fox).instance()
    i.set("crouch", True)
    assert i.get("crouch") is True
    i.set("crouch", 0)
    assert i.get("crouch") is False
    i.set("speed", 3)  # an int is a number
    assert i.get("speed") == 3.0
    with pytest.raises(KeyError, match="sped"):
        i.set("sped", 1.0)
    with pytest.raises(KeyError, match="leap"):
        i.fire("leap")
    with pytest.raises(ValueError, match="jump"):
        i.set("jump", 1.0)  # a trigger is fired
    with pytest.raises(ValueError, match="speed"):
        i.fire("speed")
    with pytest.raises(ValueError):
        i.set("speed", float("nan"))
    with pytest.raises(TypeError):
        i.set("speed", "fast")
    with pytest.raises(ValueError, match="negative"):
        i.update(-STEP)


def test_AG8_errors_name_the_node_and_the_field(fox):
    bad = copy.deepcopy(LOCOMOTION)
    bad["nodes"]["move"]["samples"][1]["node"] = "jog"
    with pytest.raises(ValueError, match=r'node "move", field "samples\[1\]\.node".*jog'):
        marrow.load_graph(bad, fox)
    bad = copy.deepcopy(LOCOMOTION)
    bad["nodes"]["run"]["clip"] = "Swim"
    with pytest.raises(ValueError, match=r'node "run", field "clip".*Swim'):
        marrow.load_graph(bad, fox)
    bad = copy.deepcopy(LOCOMOTION)
    bad["nodes"]["walk"]["rate"] = "fast"  # the format itself: the file reader's LoadError
    with pytest.raises(marrow.LoadError, match=r'node "walk", field "rate"') as refused:
        marrow.load_graph(bad, fox)
    assert refused.value.code == "invalid-document"


def test_AG8_a_graph_file_that_is_not_one(fox, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"version": 1,')
    with pytest.raises(marrow.LoadError) as refused:
        marrow.load_graph(broken, fox)
    assert refused.value.code == "invalid-json" and "broken.json" in refused.value.message
    with pytest.raises(marrow.LoadError) as refused:
        marrow.load_graph(tmp_path / "missing.json", fox)
    assert refused.value.code == "io-error"
    bad = copy.deepcopy(LOCOMOTION)
    bad["root"] = "jump_around"
    path = tmp_path / "bad_root.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(ValueError, match="bad_root.json.*jump_around"):  # names the file too
        marrow.load_graph(path, fox)
    with pytest.raises(TypeError):
        marrow.load_graph(42, fox)


def test_world_transforms_have_the_layout_of_sample(fox):
    # One clip at 0.5 s through a graph is sample()'s frame at 0.5 s.
    i = marrow.load_graph({"version": 1, "root": "run", "nodes": {"run": {"type": "clip", "clip": "Run"}}}, fox).instance()
    i.update(0.5)
    worlds = i.world_transforms()
    frames = marrow.sample(fox, "Run", fps=2, skin=None)
    assert worlds.shape == frames.shape[1:] and worlds.dtype == np.float32 and worlds.flags.c_contiguous
    np.testing.assert_allclose(worlds, frames[1], atol=1e-4)
    i.update(0.1)
    assert not np.array_equal(worlds, i.world_transforms())  # a copy: it keeps its frame


def test_an_instance_keeps_its_graph_and_model_alive(fox_path):
    model = marrow.load(fox_path)
    i = marrow.load_graph(LOCOMOTION, model).instance()
    del model
    gc.collect()
    i.set("speed", 3.0)
    i.update(0.25)
    assert i.model.animations == ["Survey", "Walk", "Run"]
    assert i.world_transforms().shape == (27, 4, 4)


def test_AG7_events_of_the_weighted_clips(fox_path):
    model = marrow.load(fox_path)
    model.add_marker("Walk", "step", 0.1)
    model.add_marker("Run", "stride", 0.1)
    i = marrow.load_graph(LOCOMOTION, model).instance()
    i.set("speed", 1.5)  # Walk alone: Run's marker is not reported
    i.update(0.2)
    assert [(e["name"], e["animation"]) for e in i.events()] == [("step", "Walk")]
    i.update(0.01)
    assert i.events() == []


def test_pose_of_a_graph_instance_is_the_cli_report(fox, fox_path, cli):
    i = marrow.load_graph(FOX_GRAPH, fox).instance()
    i.set("speed", 2.75)
    i.update(0.5)
    d = marrow.pose(i, normals=False)
    assert d["state"] == "ground" and d["clip_weights"] == pytest.approx({"Survey": 0, "Walk": 0.5, "Run": 0.5})
    assert d["clip"] is None and len(d["nodes"]) == 26
    # The CLI steps 1/60 s from 0 (30 steps here) with the change applied before the first.
    done = subprocess.run([cli, "pose", fox_path, "--graph", FOX_GRAPH, "--script", "0:speed=2.75", "--time", "0.5",
                           "--json", "--no-normals"], check=True, capture_output=True, text=True)
    printed = json.loads(done.stdout)
    assert printed["state"] == d["state"]
    assert printed["clip_weights"] == pytest.approx(d["clip_weights"], abs=1e-6)
    for a, b in zip(printed["nodes"], d["nodes"]):
        np.testing.assert_allclose(a["world"], b["world"], atol=1e-3)
