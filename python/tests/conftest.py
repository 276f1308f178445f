"""Shared fixtures of the Python tests: where the sample assets and the marrow CLI are.

CTest (python/CMakeLists.txt) sets PYTHONPATH to the built package and MARROW_ASSETS,
MARROW_CLI and MARROW_SOURCE_DIR; run by hand, the defaults below find the source tree's
neighbours. Tests that need the assets skip, saying so, only when the folder is absent.
"""
import os
import pathlib

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("MARROW_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
ASSETS = pathlib.Path(os.environ.get("MARROW_ASSETS", SOURCE_DIR / ".." / "shared" / "assets"))


@pytest.fixture(scope="session")
def assets():
    if not (ASSETS / "gltf").is_dir():
        pytest.skip(f"the sample assets are absent ({ASSETS} has no gltf/ folder)")
    return ASSETS


@pytest.fixture(scope="session")
def fox_path(assets):
    return str(assets / "gltf" / "Fox" / "Fox.gltf")


@pytest.fixture(scope="session")
def fox(fox_path):
    import marrow

    return marrow.load(fox_path)


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("MARROW_CLI")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("the marrow command-line tool is not built (MARROW_CLI unset)")
    return path
