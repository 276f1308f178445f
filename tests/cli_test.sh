#!/usr/bin/env bash
# The marrow command line: exit codes, one-line errors, JSON that parses and carries the file's
# index spaces. Usage: cli_test.sh MARROW_BINARY TEST_DATA_DIR SHARED_ASSETS_DIR
set -u
marrow=$(readlink -f "$1") data=$(readlink -f "$2") assets=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() {  # description, expected exit code, command...
  local what=$1 want=$2
  shift 2
  "$@" >"$work/out" 2>"$work/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: $what: exit $got, expected $want"; cat "$work/err"; failures=$((failures + 1))
  fi
}
check "usage without a command" 2 "$marrow"
check "unknown command" 2 "$marrow" frobnicate
check "pose without a file" 2 "$marrow" pose
check "unknown option" 2 "$marrow" pose x.glb --frob
check "missing file" 1 "$marrow" info "$work/nope.glb"
check "malformed file" 1 "$marrow" info "$data/malformed/graph_cycle.gltf"
if [ "$(wc -l <"$work/err")" != 1 ] || ! grep -q "invalid-node-graph" "$work/err"; then
  echo "FAIL: a refused file gives one line naming the code"; cat "$work/err"; failures=$((failures + 1))
fi
(cd "$work" && check "demo writes and re-imports demo.glb" 0 "$marrow" demo)
[ -s "$work/demo.glb" ] || { echo "FAIL: demo.glb was not written"; failures=$((failures + 1)); }
check "info --json" 0 "$marrow" info "$work/demo.glb" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["skins"][0]["jointCount"] == 9' "$work/out" ||
  { echo "FAIL: info --json"; failures=$((failures + 1)); }
check "pose --json" 0 "$marrow" pose "$work/demo.glb" --clip Wave --time 0.5 --json
python3 - "$work/out" <<'PY' || { echo "FAIL: pose --json schema"; failures=$((failures + 1)); }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["clip"]["name"] == "Wave" and d["sampledTime"] == 0.5
assert [n["index"] for n in d["nodes"]] == sorted(n["index"] for n in d["nodes"])
assert len(d["skins"][0]["jointMatrices"]) == len(d["skins"][0]["joints"]) == 9
mesh = d["meshes"][0]
assert mesh["skinned"] and len(mesh["positions"]) == 3 * mesh["vertexCount"]
assert len(d["morphWeights"][0]["weights"]) == 2
PY
check "pose clamps past the end" 0 "$marrow" pose "$work/demo.glb" --clip 1 --time 99 --json
grep -q '"sampledTime":3' "$work/out" || { echo "FAIL: sampledTime not clamped"; failures=$((failures + 1)); }
check "pose of an unknown clip" 2 "$marrow" pose "$work/demo.glb" --clip Jump
if [ -d "$assets/gltf" ]; then
  check "pose of a shared asset" 0 "$marrow" pose "$assets/gltf/CesiumMan/cesium_man.gltf" --clip 0 --time 1
  check "demo of a shared asset" 0 "$marrow" demo "$assets/gltf/Fox/Fox.gltf"
fi
[ "$failures" = 0 ] && echo "cli_test: all passed"
exit "$failures"
