"""`pip install .` for marrow: a PEP 517 build backend that builds the Python module with CMake.

It uses Python's standard library only, so pyproject.toml asks pip for no build requirement
and nothing is downloaded: Debian's cmake, compiler and the packages scripts/install-deps
installs are all it needs (scikit-build-core is not packaged by Debian 12, and setuptools would
have to be fetched into pip's isolated build environment).

build_wheel configures the project into build/pip (kept, so the next install is incremental)
with the tests, benchmarks and tools off, builds the target marrow_python, and zips the package
into a wheel for this interpreter. MARROW_PYTHON_BUILD_DIR names a build tree where the module
is built already, to package as it is without building (the Python.install test packages the
tree CTest runs in, while other tests may use it). No sdist and no editable install: for
development, put <build>/python on PYTHONPATH.
"""
import base64
import hashlib
import os
import pathlib
import re
import subprocess
import sys
import sysconfig
import zipfile

SOURCE_DIR = pathlib.Path(__file__).resolve().parent.parent
NAME = "marrow"


def _version():
    text = (SOURCE_DIR / "CMakeLists.txt").read_text()
    match = re.search(r"project\(marrow VERSION ([0-9.]+)", text)
    if not match:
        raise RuntimeError("marrow build backend: no version in CMakeLists.txt's project()")
    return match.group(1)


def _tag():
    interpreter = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{interpreter}-{interpreter}-{platform}"


def _dist_info():
    return f"{NAME}-{_version()}.dist-info"


def _metadata_files():
    metadata = (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\n"
                "Summary: Skinned, animated and morphing 3D models: load, play, pose, render\n"
                "Requires-Python: >=3.9\nRequires-Dist: numpy\n")
    wheel = f"Wheel-Version: 1.0\nGenerator: marrow build_backend\nRoot-Is-Purelib: false\nTag: {_tag()}\n"
    return {"METADATA": metadata, "WHEEL": wheel}


def _run(command):
    print("marrow build backend:", " ".join(command), file=sys.stderr, flush=True)
    subprocess.run(command, check=True, stdout=sys.stderr)


def _build_module():
    """Builds marrow_python; returns the folder holding the package (marrow/)."""
    given = os.environ.get("MARROW_PYTHON_BUILD_DIR")
    if given:
        return pathlib.Path(given).resolve() / "python"
    build = SOURCE_DIR / "build" / "pip"
    _run(["cmake", "-S", str(SOURCE_DIR), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
          "-DMARROW_BUILD_TESTS=OFF", "-DMARROW_BUILD_BENCH=OFF", "-DMARROW_BUILD_TOOLS=OFF",
          f"-DPython_EXECUTABLE={sys.executable}"])
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
    _run(["cmake", "--build", str(build), "--target", "marrow_python", "--parallel", jobs])
    return build / "python"


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


# PEP 517 hooks.

def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    folder = pathlib.Path(metadata_directory) / _dist_info()
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in _metadata_files().items():
        (folder / name).write_text(text)
    return folder.name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    package_root = _build_module()
    folder = package_root / NAME
    worker = "marrow-assimp-worker"  # the isolated Assimp importer, next to the extension
    files = sorted(p for p in folder.glob("*") if (p.suffix in (".py", ".so") or p.name == worker) and p.is_file())
    if not any(p.suffix == ".so" for p in files):
        raise RuntimeError(f"marrow build backend: no extension module in {package_root / NAME} "
                           "(build the target marrow_python there first)")
    wheel_name = f"{NAME}-{_version()}-{_tag()}.whl"
    path = pathlib.Path(wheel_directory) / wheel_name
    records = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
        def add(arcname, data, executable=False):
            info = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o100755 if executable else 0o100644) << 16  # pip keeps the mode
            wheel.writestr(info, data)
            records.append(_record_line(arcname, data))

        for file in files:
            add(f"{NAME}/{file.name}", file.read_bytes(), executable=file.name == worker)
        for name, text in _metadata_files().items():
            add(f"{_dist_info()}/{name}", text.encode())
        record = f"{_dist_info()}/RECORD"
        wheel.writestr(record, "\n".join(records + [f"{record},,"]) + "\n")
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    raise RuntimeError("marrow ships no source distribution: install from a checkout (pip install .), "
                       "or build with CMake (docs/python.md)")
