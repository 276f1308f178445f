"""Instance: playback over marrow::Animator (layers, fades, loop modes, events, root motion, IK)
and its results as numpy arrays (which are views, which are copies)."""
import gc
import math
import threading

import numpy as np
import pytest

import marrow


def test_an_instance_poses_its_own_copy(fox):
    a, b = fox.instance(), fox.instance()
    rest = a.positions(mesh=0, part=0)
    assert rest.shape == (1728, 3) and rest.dtype == np.float32 and rest.flags.c_contiguous
    a.play("Run")
    a.update(1 / 60)
    moved = a.positions(0, 0)
    assert not np.array_equal(moved, rest)
    assert np.array_equal(b.positions(), rest)  # b is untouched
    assert a.current_animation() == "Run" and b.current_animation() is None
    assert a.current_time() == pytest.approx(1 / 60, abs=1e-7)  # whole 100 ns ticks
    assert a.model is fox
    c = marrow.Instance(fox)
    np.testing.assert_array_equal(c.positions(), rest)


def test_positions_and_normals_equal_the_pose_dict(assets):
    man = marrow.load(assets / "gltf" / "CesiumMan" / "cesium_man.gltf")  # NORMALs in the file
    a = man.instance()
    a.play(0, loop="once", start=0.3)
    a.update(0)
    mesh = marrow.pose(man, clip=0, time=0.3)["meshes"][0]
    np.testing.assert_array_equal(a.positions().ravel(), np.array(mesh["positions"], dtype=np.float32))
    normals = a.normals()
    np.testing.assert_array_equal(normals.ravel(), np.array(mesh["normals"], dtype=np.float32))
    np.testing.assert_allclose(np.linalg.norm(normals, axis=1), 1.0, atol=1e-5)


def test_positions_write_into_out_without_allocating(fox):
    a = fox.instance()
    a.play("Run")
    a.update(0.2)
    buffer = np.empty((1728, 3), np.float32)
    assert a.positions(0, 0, out=buffer) is buffer
    np.testing.assert_array_equal(buffer, a.positions())
    for bad in (np.empty((1728, 3)), np.empty((1727, 3), np.float32), np.empty((3, 1728), np.float32).T, [0.0]):
        with pytest.raises(ValueError, match="out must be"):
            a.positions(out=bad)
    read_only = np.empty((1728, 3), np.float32)
    read_only.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        a.positions(out=read_only)


def test_joint_matrices_are_a_live_read_only_view_that_keeps_the_instance(fox):
    a = fox.instance()
    a.play("Run")
    a.update(0.1)
    view = a.joint_matrices(skin=0)
    assert view.shape == (24, 4, 4) and view.dtype == np.float32
    assert not view.flags.writeable and view.base is not None
    with pytest.raises(ValueError):
        view[0, 0, 0] = 1.0
    frame = np.array(view)  # a copy keeps this frame
    a.update(0.1)
    assert not np.array_equal(view, frame)  # the view follows the instance
    # [row, column] with column vectors: the last row is (0, 0, 0, 1).
    np.testing.assert_allclose(view[:, 3, :], np.tile([0, 0, 0, 1], (24, 1)), atol=1e-6)
    # The transpose is C-contiguous: the stored column-major bytes, as a GPU takes them.
    assert view.transpose(0, 2, 1).flags.c_contiguous
    current = np.array(view)
    del a
    gc.collect()
    np.testing.assert_array_equal(view, current)  # still valid: the view holds the instance


def test_joint_matrices_match_the_pose_report(fox):
    a = fox.instance()
    a.play("Survey", loop="once", start=1.0)
    a.update(0)
    pose = marrow.pose(fox, clip="Survey", time=1.0)
    skin = pose["skins"][0]
    info = fox.info()["skins"][0]
    # The report lists joints in the file's order; the palette is marrow's order.
    from_report = np.array(skin["jointMatrices"], np.float32).reshape(-1, 4, 4).transpose(0, 2, 1)
    palette = a.joint_matrices()
    for p, k in enumerate(info["paletteToSourceJoint"]):
        np.testing.assert_allclose(palette[p], from_report[k], atol=1e-5)


def test_world_and_local_transforms_are_views(fox):
    a = fox.instance()
    worlds, locals_ = a.world_transforms(), a.local_transforms()
    assert worlds.shape == locals_.shape == (len(fox.info()["bones"]), 4, 4)
    bones = fox.info()["bones"]
    for b in range(1, len(bones)):
        parent = bones[b]["parentBone"]
        np.testing.assert_allclose(worlds[b], worlds[parent] @ locals_[b], atol=1e-4)


def test_morph_weights_follow_the_clip(tmp_path, cli):
    import subprocess

    subprocess.run([cli, "demo", "--out", str(tmp_path)], check=True, capture_output=True)
    demo = marrow.load(tmp_path / "demo.glb")
    a = demo.instance()
    weights = a.morph_weights(0)
    assert weights.shape == (2,) and not weights.flags.writeable
    a.play("Wave", loop="once", start=0.5)
    a.update(0)
    pose = marrow.pose(demo, clip="Wave", time=0.5)
    np.testing.assert_array_equal(weights, np.array(pose["morphWeights"][0]["weights"], np.float32))


def test_cross_fade_weights_and_finished(fox):
    a = fox.instance()
    a.play("Walk")
    a.update(0.2)
    a.play("Run", fade=0.5)
    a.update(0.25)
    half = a.positions()
    assert a.current_animation() == "Run"
    a.update(0.5)
    # Past the fade only Run plays: the same pose as Run alone at its own time.
    b = fox.instance()
    b.play("Run", start=a.current_time())
    b.update(0)
    np.testing.assert_allclose(a.positions(), b.positions(), atol=1e-4)
    assert not np.allclose(half, b.positions(), atol=1e-3)
    once = fox.instance()
    once.play("Walk", loop="once")
    once.update(0.5)
    assert not once.finished()
    once.update(0.5)
    assert once.finished() and once.current_time() == pytest.approx(fox.duration("Walk"))
    ping = fox.instance()
    ping.play("Walk", loop="pingpong")
    ping.update(fox.duration("Walk") + 0.2)
    assert ping.current_time() == pytest.approx(fox.duration("Walk") - 0.2, abs=1e-6)
    back = fox.instance()
    back.play("Walk", rate=-1.0)
    back.update(0.2)
    assert back.current_time() == pytest.approx(fox.duration("Walk") - 0.2, abs=1e-6)
    a.stop(0)
    assert a.current_animation() is None


def test_layers_masks_and_additive_layers(fox):
    a = fox.instance()
    a.play("Walk")
    a.set_layer(1, mask="b_Spine01_02")
    a.play("Survey", layer=1)
    a.update(0.3)
    assert a.layer_count == 2 and a.current_animation(1) == "Survey"
    walk = fox.instance()
    walk.play("Walk")
    walk.update(0.3)
    names = fox.joint_names(None)
    legs = names.index("b_LeftLeg01_015")
    head = names.index("b_Head_05")
    # Outside the mask the layer does nothing; inside it blends half and half.
    np.testing.assert_allclose(a.local_transforms()[legs], walk.local_transforms()[legs], atol=1e-6)
    assert not np.allclose(a.local_transforms()[head], walk.local_transforms()[head], atol=1e-4)
    a.set_layer(2, weight=0.5, additive=True)
    a.play("Run", layer=2)
    a.update(0.1)
    assert a.layer_count == 3
    a.set_layer_weight(2, 0.0)
    a.set_layer_mask(1, np.ones(len(names), np.float32))
    a.set_layer_mask(1, None)
    with pytest.raises(KeyError, match="NoSuchBone"):
        a.set_layer(1, mask="NoSuchBone")
    with pytest.raises(ValueError):
        a.set_layer(1, weight=-1.0)
    with pytest.raises(ValueError):
        a.set_layer_mask(1, [1.0, 2.0])
    with pytest.raises(IndexError, match="layer"):
        a.play("Run", layer=1000)


def test_sync_groups_keep_clips_in_step(fox):
    a = fox.instance()
    a.play("Walk", sync_group=0)
    a.set_layer(1, weight=0.5)
    a.play("Run", layer=1, sync_group=0)
    for _ in range(7):
        a.update(0.09)
        walk = a.current_time(0) / fox.duration("Walk")
        run = a.current_time(1) / fox.duration("Run")
        assert walk == pytest.approx(run, abs=1e-5)  # one normalized time
    assert a.current_time(0) > 0


def test_play_refuses_bad_values(fox):
    a = fox.instance()
    with pytest.raises(KeyError, match="no animation 'Jump'"):
        a.play("Jump")
    with pytest.raises(IndexError):
        a.play(7)
    with pytest.raises(ValueError, match="loop='forever'"):
        a.play("Run", loop="forever")
    with pytest.raises(ValueError, match="fade"):
        a.play("Run", fade=-1.0)
    with pytest.raises(ValueError, match="finite"):
        a.update(math.nan)
    with pytest.raises(ValueError, match="curve"):
        a.play("Run", fade=0.2, curve="cubic")
    with pytest.raises(IndexError, match="mesh 1 out of range"):
        a.positions(mesh=1)
    with pytest.raises(IndexError, match="part 2 out of range"):
        a.positions(part=2)
    a.play(None)  # nothing: the loaded pose


def test_events_report_markers_crossed(fox_path):
    model = marrow.load(fox_path)
    model.add_marker("Walk", "left", 0.1)
    model.add_marker("Walk", "right", 0.45)
    a = model.instance()
    a.play("Walk")
    a.update(0.2)
    assert [e["name"] for e in a.events()] == ["left"]
    event = a.events()[0]
    assert event["animation"] == "Walk" and event["layer"] == 0
    assert event["time"] == pytest.approx(0.1) and event["weight"] == pytest.approx(1.0)
    a.update(0.7083333)  # a whole cycle: right, then left again
    assert [e["name"] for e in a.events()] == ["right", "left"]
    a.update(0.0)
    assert a.events() == [] and a.events_dropped == 0


def test_root_motion_moves_the_character(fox):
    a = fox.instance()
    a.enable_root_motion()
    assert a.root_motion_joint == fox.joint_names()[0]  # the skin's root joint by default
    a.enable_root_motion(joint="b_Hip_01")  # the Fox's hips carry its motion
    assert a.root_motion_joint == "b_Hip_01"
    a.play("Run")
    total = np.zeros(3)
    for _ in range(30):
        a.update(1 / 30)
        step = a.root_motion()
        assert step["translation"][1] == 0.0 and isinstance(step["yaw"], float)
        total += step["translation"]
    np.testing.assert_allclose(a.accumulated_root_motion()["translation"], total, rtol=1e-4, atol=1e-4)
    assert np.linalg.norm(total) > 1.0
    # Accumulated from 0 to t, it is the offset taken out of the pose at t (no wrap yet).
    b = fox.instance()
    b.enable_root_motion(joint="b_Hip_01")
    b.play("Run")
    b.update(0.5)
    np.testing.assert_allclose(b.accumulated_root_motion()["translation"], b.root_motion_offset()["translation"],
                               atol=1e-4)
    a.disable_root_motion()
    assert a.root_motion_joint is None
    with pytest.raises(KeyError):
        a.enable_root_motion(joint="NoSuchBone")


def test_R1_a_z_up_file_moves_across_its_up_axis(assets):
    # AnimatedDrawings' jump is Z-up: read with up=(0, 0, 1) its motion has no z, its jump stays
    # in the pose; read as Y-up (the default) the jump would count as ground motion.
    m = marrow.load(str(assets / "bvh" / "animateddrawings" / "jumping.bvh"))
    a = m.instance()
    a.enable_root_motion(yaw=True, up=(0, 0, 1))
    a.play(0)
    for _ in range(60):
        a.update(1 / 30)
        assert a.root_motion()["translation"][2] == 0.0
    assert abs(a.accumulated_root_motion()["translation"][1]) > 1.0  # it jumps forward (-y)
    b = m.instance()
    b.enable_root_motion(yaw=True)
    b.play(0)
    b.update(2.0)
    assert b.accumulated_root_motion()["translation"][1] == 0.0
    with pytest.raises(ValueError, match="up axis"):
        a.enable_root_motion(up=(0, 0, 0))
    with pytest.raises(ValueError, match="up axis"):
        a.enable_root_motion(up=(float("nan"), 0, 1))


def test_two_bone_ik_reaches_a_target(fox):
    a = fox.instance()
    a.play("Walk")
    chain = a.add_two_bone_ik("b_LeftLeg01_015", "b_LeftLeg02_016", "b_LeftFoot01_017")
    assert a.two_bone_ik(chain)["weight"] == 0.0
    a.update(0.1)
    foot = fox.joint_names(None).index("b_LeftFoot01_017")
    before = np.array(a.world_transforms()[foot, :3, 3])
    target = before + np.array([0.0, 5.0, 2.0], np.float32)
    a.set_two_bone_ik(chain, target, weight=1.0)
    a.update(0)
    assert a.two_bone_ik(chain)["reached"]
    np.testing.assert_allclose(a.world_transforms()[foot, :3, 3], target, atol=1e-2)
    with pytest.raises(KeyError):
        a.add_two_bone_ik("b_LeftLeg01_015", "nope", "b_LeftFoot01_017")
    with pytest.raises(ValueError):
        a.add_two_bone_ik("b_LeftLeg01_015", "b_LeftFoot01_017", "b_LeftLeg02_016")
    with pytest.raises(ValueError):
        a.set_two_bone_ik(chain, target, weight=2.0)
    with pytest.raises(IndexError):
        a.set_two_bone_ik(5, target)
    aim = a.add_aim_ik("b_Head_05")
    a.set_aim_ik(aim, (0.0, 50.0, 200.0), weight=1.0)
    a.update(0)
    assert a.aim_ik(aim)["node"] == "b_Head_05"


def test_instances_in_threads(fox):
    """Each thread owns its instance; the GIL serialises the calls, the results are one thread's."""
    results = {}

    def run(name):
        a = fox.instance()
        a.play(name)
        for _ in range(20):
            a.update(1 / 30)
        results[name] = a.positions()

    threads = [threading.Thread(target=run, args=(n,)) for n in fox.animations]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for name in fox.animations:
        a = fox.instance()
        a.play(name)
        for _ in range(20):
            a.update(1 / 30)
        np.testing.assert_array_equal(results[name], a.positions())


def test_bounds_hold_every_posed_vertex(fox):
    a = fox.instance()
    a.play("Run")
    for step in range(12):
        a.update(0.07)
        lo, hi = (np.array(c, np.float32) for c in a.bounds())
        p = a.positions()
        slack = 1e-5 * float(np.max(hi - lo))
        assert np.all(p >= lo - slack) and np.all(p <= hi + slack)
    assert np.all(hi - lo > 0)
