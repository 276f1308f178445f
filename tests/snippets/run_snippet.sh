#!/usr/bin/env bash
# Runs one documentation snippet (marrow_doc_snippets ID) in a fresh folder holding a link to
# every shared asset under its own file name, so "Fox.gltf" or "cesium_man.gltf" in a snippet
# is the real file; what the snippet writes (run.png, sheet.png) lands there and is removed.
# Usage: run_snippet.sh BINARY ID SHARED_ASSETS_DIR
set -u
binary=$(readlink -f "$1") id=$2 assets=$3
if [ ! -d "$assets" ]; then
  echo "SKIP: the shared assets ($assets) are absent"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
find "$(readlink -f "$assets")" -type f \( -name '*.gltf' -o -name '*.glb' -o -name '*.bin' -o -name '*.dae' -o -name '*.fbx' -o -name '*.bvh' \) \
  -exec ln -sf {} "$work/" \;
cd "$work" && "$binary" "$id"
