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
    with pytest.raises(IndexError):
        db.frame_of(len(db))


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
