"""<marrow/marrow.hpp> is the public API in one include (docs/architecture.md): it names every
public header but the renderer's (<marrow/render.hpp>) and the detail/ folders, so a program
that includes it can use every type the docs show. Prints what it misses; exit 1 then."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1]) / "include"
umbrella = (root / "marrow" / "marrow.hpp").read_text()
named = set(re.findall(r'#include "([^"]+)"', umbrella))
missing = []
for header in sorted(root.rglob("*.hpp")):
    name = header.relative_to(root).as_posix()
    if name in ("marrow/marrow.hpp", "marrow/render.hpp") or name.startswith("marrow/render/") or "/detail/" in name:
        continue
    if name not in named:
        missing.append(name)
for name in missing:
    print(f"marrow.hpp does not include {name}")
print(f"{len(named)} headers included, {len(missing)} missing")
sys.exit(1 if missing else 0)
