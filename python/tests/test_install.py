"""The two install routes give an importable package: `cmake --install` of the python component,
and `pip install .` into a virtual environment (packaging the module CTest built, through
python/build_backend.py, offline). Run by CTest, which says where the build tree is."""
import os
import subprocess
import sys
import venv

import pytest

from conftest import SOURCE_DIR

BUILD_DIR = os.environ.get("MARROW_BUILD_DIR")
CHECK = ("import marrow, sys; m = marrow.load(sys.argv[1]); a = m.instance(); a.play(0); a.update(0.1); "
         "assert a.positions().shape[1] == 3; print(marrow.__file__)")


@pytest.fixture(scope="module")
def build_dir():
    if not BUILD_DIR:
        pytest.skip("MARROW_BUILD_DIR unset (CTest sets it to the build tree)")
    return BUILD_DIR


# Collada and FBX go through Assimp in the worker program the package carries next to its extension.
ISOLATED = ("import marrow, os, sys; worker = os.path.join(os.path.dirname(marrow.__file__), 'marrow-assimp-worker'); "
            "assert os.access(worker, os.X_OK), worker; m = marrow.load(sys.argv[1]); assert m.info()['bones']")


def run(command, **kwargs):
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_cmake_install_puts_an_importable_package_under_the_prefix(build_dir, assets, fox_path, tmp_path):
    prefix = tmp_path / "prefix"
    run(["cmake", "--install", build_dir, "--component", "python", "--prefix", str(prefix)])
    packages = [p.parent for p in prefix.rglob("marrow/__init__.py")]
    assert len(packages) == 1 and list(packages[0].glob("_marrow*.so"))
    where = run([sys.executable, "-c", CHECK, fox_path], cwd=tmp_path,
                env={**os.environ, "PYTHONPATH": str(packages[0].parent)})
    assert where.strip().startswith(str(prefix))
    run([sys.executable, "-c", ISOLATED, str(assets / "dae" / "pab" / "walk.dae")], cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(packages[0].parent)})


def test_pip_install_builds_a_wheel_offline(build_dir, assets, fox_path, tmp_path):
    environment = tmp_path / "venv"
    try:
        venv.create(environment, system_site_packages=True, with_pip=True)  # numpy from Debian
    except (subprocess.CalledProcessError, OSError) as e:
        pytest.skip(f"no virtual environment with pip here (Debian: python3-venv, python3-pip): {e}")
    python = str(environment / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["MARROW_PYTHON_BUILD_DIR"] = build_dir
    run([python, "-m", "pip", "install", "--no-index", "--no-cache-dir", "--quiet", str(SOURCE_DIR)], env=env)
    where = run([python, "-c", CHECK, fox_path], cwd=tmp_path, env=env)
    assert where.strip().startswith(str(environment))
    run([python, "-c", ISOLATED, str(assets / "dae" / "pab" / "walk.dae")], cwd=tmp_path, env=env)
    listed = run([python, "-m", "pip", "show", "marrow"], env=env)
    assert "Name: marrow" in listed and "Version: 0.1.0" in listed
