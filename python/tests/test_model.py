"""load(), Model and the errors: what a refused file, a bad argument and an unknown name raise."""
import pathlib

import pytest

import marrow

SOURCE_DIR = pathlib.Path(__file__).resolve().parents[2]
MALFORMED = SOURCE_DIR / "tests" / "data" / "malformed"


def test_load_describes_the_model(fox, fox_path):
    assert fox.path == fox_path
    assert fox.animations == ["Survey", "Walk", "Run"]
    assert fox.duration("Walk") == pytest.approx(0.7083333)
    assert fox.duration(2) == fox.duration("Run")
    assert [d["code"] for d in fox.diagnostics] == ["byte-stride-on-non-vertex-data"]
    assert fox.diagnostics[0]["count"] > 0 and "bufferView" in fox.diagnostics[0]["message"]
    assert "3 animations" in repr(fox)


def test_load_takes_a_path_object(fox_path):
    assert marrow.load(pathlib.Path(fox_path)).path == fox_path


def test_joint_names_and_parents_are_in_palette_order(fox):
    names, parents = fox.joint_names(), fox.joint_parents()
    info = fox.info()
    assert len(names) == len(parents) == info["skins"][0]["jointCount"] == 24
    assert parents == info["skins"][0]["parents"]
    assert all(p < i for i, p in enumerate(parents))  # parents first
    bones = info["bones"]
    assert names == [bones[b]["name"] for b in info["skins"][0]["paletteToBone"]]
    assert fox.joint_names(None) == [b["name"] for b in bones]
    assert fox.joint_parents(None) == [b["parentBone"] for b in bones]


def test_a_refused_file_raises_load_error_with_code_and_message():
    path = str(MALFORMED / "graph_cycle.gltf")
    with pytest.raises(marrow.LoadError) as caught:
        marrow.load(path)
    assert caught.value.code == "invalid-node-graph"
    assert "graph_cycle.gltf" in caught.value.message
    assert str(caught.value) == f"[invalid-node-graph] {caught.value.message}"
    assert isinstance(caught.value, Exception)


def test_a_missing_file_raises_load_error(tmp_path):
    with pytest.raises(marrow.LoadError) as caught:
        marrow.load(tmp_path / "nope.glb")
    assert caught.value.code == "io-error"
    assert "nope.glb" in caught.value.message


def test_bad_arguments_raise_value_key_and_index_errors(fox, fox_path):
    with pytest.raises(KeyError, match="no animation 'Jump'.*'Survey', 'Walk', 'Run'"):
        fox.duration("Jump")
    with pytest.raises(IndexError, match="animation 3 out of range"):
        fox.duration(3)
    with pytest.raises(IndexError, match="skin 1 out of range"):
        fox.joint_names(1)
    with pytest.raises(ValueError, match="palette='sideways'"):
        marrow.load(fox_path, palette="sideways")
    with pytest.raises(ValueError, match="ticks_per_second"):
        marrow.load(fox_path, ticks_per_second=0)
    with pytest.raises(TypeError):
        marrow.load(fox_path, 0)  # the options are keywords


def test_max_palette_refuses_or_loads_static(fox_path):
    with pytest.raises(marrow.LoadError) as caught:
        marrow.load(fox_path, max_palette=8)
    assert caught.value.code == "palette-limit"
    static = marrow.load(fox_path, max_palette=8, palette="static")
    assert static.info()["meshes"][0]["skin"] == -1
    # S4: split into sub-palettes of at most 8 joints, the skin keeps all 24.
    split = marrow.load(fox_path, max_palette=8, palette="split")
    assert split.info()["meshes"][0]["skin"] == 0
    assert len(split.joint_names(0)) == 24
    assert static.diagnostics and static.diagnostics[0]["count"] >= 1


def test_markers_are_added_before_the_model_is_used(fox_path):
    model = marrow.load(fox_path)
    model.add_marker("Walk", "step", 0.25)
    with pytest.raises(KeyError):
        model.add_marker("Jump", "step", 0.25)
    with pytest.raises(ValueError):
        model.add_marker("Walk", "step", 99.0)  # past the end
    model.instance()
    with pytest.raises(RuntimeError, match="add markers right after load"):
        model.add_marker("Walk", "late", 0.5)


def test_other_formats_load_through_assimp(assets):
    robot = marrow.load(assets / "fbx" / "robot.fbx")
    assert robot.info()["bones"]
    a = robot.instance()
    if robot.animations:
        a.play(0)
        a.update(0.1)
    assert a.positions().shape[1] == 3
