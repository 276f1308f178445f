"""Dependencies point down (DESIGN.md "Layers"): no file of a layer includes a layer above it or
beside it. The CMake targets make the linker refuse most such uses; this catches the ones a
header-only include would slip past. Inside io, the format folders (src/io/<format>/ and
include/marrow/io/<format>/) sit beside each other too: one format includes what all formats
share (io/ itself), never another format's headers, but for the exceptions listed in
FORMAT_EXCEPTIONS with their reason (docs/architecture.md, below the layers). Usage: layers_test.py
<source dir>; exit 1 lists offenders."""
import pathlib
import re
import sys

# Each layer and the layers it may include (itself included).
ALLOWED = {
    "core": {"core"},
    "runtime": {"core", "runtime"},
    "model": {"core", "runtime", "model"},
    "io": {"core", "runtime", "model", "io"},
    "render": {"core", "runtime", "model", "render"},
    "asset": {"core", "runtime", "model", "io", "asset"},
}
PUBLIC = re.compile(r'#\s*include\s*[<"]marrow/(\w+)/')
PRIVATE = re.compile(r'#\s*include\s*"(?:\.\./)+(\w+)/')
# Private headers named by their layer from src/ (the layers' private include folder).
PRIVATE_BY_LAYER = re.compile(r'#\s*include\s*"(core|runtime|model|io|render|asset)/')
UMBRELLA = re.compile(r'#\s*include\s*[<"]marrow/(marrow|render)\.hpp')

# io's format folders: each reads or writes one format and knows nothing of the others.
FORMATS = ("gltf", "assimp", "native", "bvh")
# (file, format it includes): why. Anything else crossing from one format folder to another fails,
# and so does an exception no file needs any more.
FORMAT_EXCEPTIONS = {
    ("src/io/assimp/assimp_worker_protocol.cpp", "native"):
        "the Assimp worker sends its model across the process boundary in marrow's native format "
        "(write_native in the worker, read_native in the caller): the native format is the wire format",
}
# runtime's load-time builders (ozz's offline/ beside its runtime/): same target, one way only.
OFFLINE = ("src/runtime/offline", "include/marrow/runtime/offline")
QUOTED = re.compile(r'#\s*include\s*"([^"]+)"')
ANGLED = re.compile(r'#\s*include\s*<(marrow/[^>]+)>')


def main(root):
    offences = []
    for layer, allowed in ALLOWED.items():
        for folder in (root / "include" / "marrow" / layer, root / "src" / layer):
            for path in sorted(folder.rglob("*")):
                if path.suffix not in (".hpp", ".cpp", ".inl", ".h"):
                    continue
                for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                    for pattern in (PUBLIC, PRIVATE, PRIVATE_BY_LAYER):
                        match = pattern.search(line)
                        if match and match.group(1) in ALLOWED and match.group(1) not in allowed:
                            offences.append(f"{path.relative_to(root)}:{number}: {layer} includes {match.group(1)}: {line.strip()}")
                    if UMBRELLA.search(line):
                        offences.append(f"{path.relative_to(root)}:{number}: {layer} includes an umbrella header: {line.strip()}")
    offences += format_offences(root)
    offences += offline_offences(root)
    if not (root / "src" / "model").is_dir():
        offences.append(f"{root} holds no src/model: wrong source folder")
    for offence in offences:
        print(offence)
    print(f"{len(offences)} include(s) of a layer above their own, of another format's folder or of "
          "runtime/offline from the per-frame runtime")
    return 1 if offences else 0


def format_of(root, header):
    """The io format folder a header path (relative to root) lies in, or None."""
    for base in (root / "src" / "io", root / "include" / "marrow" / "io"):
        try:
            parts = header.relative_to(base).parts
        except ValueError:
            continue
        if len(parts) > 1 and parts[0] in FORMATS:
            return parts[0]
    return None


def included_paths(root, path, line):
    """Where an include line may land: beside the file, in src/ (the layers' private folder) or
    in include/. Only paths inside the source tree matter; system headers name none of them."""
    quoted = QUOTED.search(line)
    if quoted:
        name = quoted.group(1)
        return [(path.parent / name).resolve(), (root / "src" / name).resolve(), (root / "include" / name).resolve()]
    angled = ANGLED.search(line)
    if angled:
        return [(root / "include" / angled.group(1)).resolve()]
    return []


def format_offences(root):
    root = root.resolve()
    offences, used = [], set()
    for fmt in FORMATS:
        for folder in (root / "include" / "marrow" / "io" / fmt, root / "src" / "io" / fmt):
            for path in sorted(folder.rglob("*")):
                if path.suffix not in (".hpp", ".cpp", ".inl", ".h"):
                    continue
                name = path.relative_to(root).as_posix()
                for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                    others = {format_of(root, target) for target in included_paths(root, path, line)} - {None, fmt}
                    for other in sorted(others):
                        if (name, other) in FORMAT_EXCEPTIONS:
                            used.add((name, other))
                            print(f"allowed: {name}:{number}: io/{fmt} includes io/{other}: {FORMAT_EXCEPTIONS[(name, other)]}")
                        else:
                            offences.append(f"{name}:{number}: io/{fmt} includes another format, io/{other}: {line.strip()}")
    for name, other in sorted(FORMAT_EXCEPTIONS.keys() - used):
        offences.append(f"{name}: listed as allowed to include io/{other}, but no longer does: remove it from FORMAT_EXCEPTIONS")
    return offences


def in_offline(root, target):
    return any(target.is_relative_to(root / folder) for folder in OFFLINE)


def offline_offences(root):
    """The per-frame runtime (src/runtime/, include/marrow/runtime/, kernels included) including
    what is built at load (runtime/offline/)."""
    root = root.resolve()
    offences = []
    for folder in (root / "include" / "marrow" / "runtime", root / "src" / "runtime"):
        for path in sorted(folder.rglob("*")):
            if path.suffix not in (".hpp", ".cpp", ".inl", ".h") or in_offline(root, path):
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if any(in_offline(root, target) for target in included_paths(root, path, line)):
                    offences.append(f"{path.relative_to(root).as_posix()}:{number}: the per-frame runtime includes "
                                    f"runtime/offline (built at load): {line.strip()}")
    if not all((root / folder).is_dir() for folder in OFFLINE):
        offences.append(f"{root} holds no {' or '.join(OFFLINE)}: the load-time builders moved; update OFFLINE")
    return offences


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1])))
