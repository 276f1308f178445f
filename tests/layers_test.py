"""Dependencies point down (DESIGN.md "Layers"): no file of a layer includes a layer above it or
beside it. The CMake targets make the linker refuse most such uses; this catches the ones a
header-only include would slip past. Usage: layers_test.py <source dir>; exit 1 lists offenders."""
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
    if not (root / "src" / "model").is_dir():
        offences.append(f"{root} holds no src/model: wrong source folder")
    for offence in offences:
        print(offence)
    print(f"{len(offences)} include(s) of a layer above their own")
    return 1 if offences else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1])))
