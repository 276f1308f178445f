"""Motion matching's database from Python: MotionDatabase over the Bandai locomotion BVH files
(one clip each, one rig), its normalized features, frame_of, and the searches (MM1-MM3)."""
import numpy as np
import pytest

import marrow


@pytest.fixture(scope="module")
def bandai(assets):
    folder = assets / "bvh" / "bandai-locomotion"
    if not folder.is_dir():
        pytest.skip(f"the Bandai locomotion set is absent ({folder})")
    return [marrow.load(str(p)) for p in sorted(folder.glob("*.bvh"))]


@pytest.fixture(scope="module")
def db(bandai):
    return marrow.MotionDatabase(bandai, weights=[1, 0.5, 2, 1.5, 0.75])


def test_MM3_features_are_normalized_per_group(db):
    f = db.features()
    assert f.dtype == np.float32 and f.shape == (len(db), 27)
    assert np.allclose(f.mean(axis=0), 0, atol=1e-4)
    for (start, width), weight in zip([(0, 6), (6, 6), (12, 3), (15, 6), (21, 6)], [1, 0.5, 2, 1.5, 0.75]):
        assert f[:, start:start + width].astype(np.float64).std() == pytest.approx(weight, rel=1e-4)


def test_MM3_frame_of_names_the_clip_and_time(db, bandai):
    clip, seconds = db.frame_of(0)
    assert clip == bandai[0].animations[0] and seconds == 0
    clip, seconds = db.frame_of(30)
    assert seconds == pytest.approx(0.5)
    for bad in (len(db), -1):
        with pytest.raises(IndexError, match="row"):
            db.frame_of(bad)


def test_MM1_MM2_search_equals_brute_force_and_finds_a_frame_itself(db):
    f = db.features()
    rng = np.random.default_rng(29)
    for i in rng.integers(0, len(db), 200):
        index, cost = db.search(f[i])
        assert cost == 0 and (index == i or np.array_equal(f[index], f[i]))
        query = f[i] + rng.normal(0, 0.3, 27).astype(np.float32)
        assert db.search(query) == db.brute_force(query)
        index, cost = db.search(query, exclude=(int(i), 20))
        assert db.frame_of(index)[0] != db.frame_of(int(i))[0] or abs(index - i) > 20
    with pytest.raises(ValueError):
        db.search(np.zeros(26, np.float32))


def test_MM3_a_missing_clip_is_named(bandai):
    with pytest.raises(ValueError, match="no such clip"):
        marrow.MotionDatabase(bandai[:2], clips=["no such clip"])


def test_MM5_a_mirrored_query_finds_the_mirrored_frame(bandai):
    db = marrow.MotionDatabase(bandai[:4], mirror=True)
    plain = marrow.MotionDatabase(bandai[:4])
    assert len(db) == 2 * len(plain)
    f = db.features()
    # The feet swap and every x negates. The database's means are symmetric (each frame is there
    # on both sides), so this holds for the normalized features too, up to rounding.
    order = [3, 4, 5, 0, 1, 2, 9, 10, 11, 6, 7, 8] + list(range(12, 27))
    sign = np.ones(27, np.float32)
    sign[[0, 3, 6, 9, 12, 15, 17, 19, 21, 23, 25]] = -1
    for i in range(0, len(plain), 37):
        m = db.mirror_of(i)
        assert db.mirror_of(m) == i and db.frame_of(m)[0] == db.frame_of(i)[0] + " (mirrored)"
        index, cost = db.search(f[i][order] * sign)
        assert index == m and cost < 1e-4


# The controller: MotionMatcher on `marrow match build`'s file and on a MotionDatabase in metres.
WALKS = ["dataset-2_walk_normal_001.bvh", "dataset-2_walk-turn-left_normal_001.bvh",
         "dataset-2_walk-turn-right_normal_001.bvh", "dataset-1_walk_normal_002.bvh"]


@pytest.fixture(scope="module")
def match_file(assets, cli, tmp_path_factory):
    import subprocess
    folder = assets / "bvh" / "bandai-locomotion"
    if not folder.is_dir():
        pytest.skip(f"the Bandai locomotion set is absent ({folder})")
    out = tmp_path_factory.mktemp("match") / "walks.marrow"
    subprocess.run([cli, "match", "build", *[str(folder / w) for w in WALKS], "--out", str(out)], check=True,
                   capture_output=True)
    return out


def play(matcher, seconds=3.0):
    """Walks ahead, then turns left; the rows and the last world transforms."""
    rows = []
    for i in range(int(seconds * 60)):
        t = i / 60
        matcher.update(1 / 60, (np.sin(0.5 * max(t - 1, 0)) * 1.4, 0, np.cos(0.5 * max(t - 1, 0)) * 1.4))
        rows.append(matcher.row())
    return rows, matcher.world_transforms()


def test_MM7_a_matcher_on_a_match_file_is_deterministic(match_file):
    model = marrow.load(str(match_file))
    a, b = marrow.MotionMatcher(model), marrow.MotionMatcher(model)
    rows_a, worlds_a = play(a)
    rows_b, worlds_b = play(b)
    assert rows_a == rows_b and np.array_equal(worlds_a, worlds_b)
    assert worlds_a.dtype == np.float32 and worlds_a.shape == (len(a.node_names()), 4, 4)
    assert a.searches >= 25 and 0 < a.switches <= a.searches
    clip, seconds = a.frame()
    assert clip in model.animations and seconds >= 0


def test_MM4_the_character_walks_where_the_gamepad_says(match_file):
    m = marrow.MotionMatcher(marrow.load(str(match_file)))
    m.reset(0, (5, 0, -2), 0.0)
    for _ in range(180):
        m.update(1 / 60, (0, 0, 1.4))
    x, y, z = m.position()
    assert y == 0 and abs(x - 5) < 0.3 and 3.0 < z + 2 < 4.5  # about 1.4 m/s ahead, from rest
    hips = m.node_names().index("Hips")
    assert np.allclose(m.world_transforms()[hips][:3, 3][[0, 2]], [x, z], atol=0.3)  # the hips over it
    assert np.allclose(m.simulation_position(), m.position(), atol=0.16)


def test_a_matcher_on_a_database_and_refusals(assets, tmp_path):
    folder = assets / "bvh" / "bandai-locomotion"
    models = []
    for w in WALKS:  # the matcher works in metres: the BVH files are in centimetres
        marrow.convert(str(folder / w), str(tmp_path / (w + ".marrow")), unit_scale=0.01)
        models.append(marrow.load(str(tmp_path / (w + ".marrow"))))
    db = marrow.MotionDatabase(models)
    m = marrow.MotionMatcher(db, foot_lock=False)
    rows, worlds = play(m, 2.0)
    assert m.searches >= 15 and not m.foot_locked(0)
    assert len(set(rows)) > 60 and np.isfinite(worlds).all()
    with pytest.raises(ValueError, match="no motion database"):
        marrow.MotionMatcher(models[0])
    with pytest.raises(TypeError):
        marrow.MotionMatcher("walks.marrow")
    with pytest.raises(ValueError, match="dt"):
        m.update(0, (0, 0, 1))
    for bad in (len(db), -1):
        with pytest.raises(IndexError, match="row"):
            m.reset(bad)
    with pytest.raises(IndexError, match="foot"):
        m.foot_locked(-1)
    with pytest.raises(ValueError, match="velocity"):
        m.update(1 / 60, (float("nan"), 0, 1))
