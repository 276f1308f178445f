#!/usr/bin/env bash
# Regenerates the oracle reference poses in this folder with the three.js oracle of
# ../shared/tools/oracle (Node.js 18+ and npm; the oracle is copied to a scratch folder because
# ../shared may be read-only):
#   - every glTF file under ../shared/assets/gltf;
#   - the synthetic conformance fixtures, written by build/release/tests/marrow_fixtures (run
#     `make test` or `make build` first);
#   - blended layers of the Fox and CesiumMan clips (make_blend_reference.mjs: B2, B3).
# Usage, from the project root:  tests/data/oracle/regenerate.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
shared="$root/../shared"
oracle="${ORACLE_DIR:-/tmp/marrow-oracle}"
if [ ! -f "$oracle/node_modules/three/package.json" ]; then
  rm -rf "$oracle"
  cp -r "$shared/tools/oracle" "$oracle"
  (cd "$oracle" && npm ci --silent)
fi
fixtures=$(mktemp -d)
trap 'rm -rf "$fixtures"' EXIT
mkdir -p "$fixtures/fixture"
"$root/build/release/tests/marrow_fixtures" "$fixtures/fixture" >/dev/null
cd "$shared/assets"
ORACLE_DIR="$oracle" node "$here/make_reference.mjs" "$shared/assets" "$here" $(find gltf -name '*.gltf' -o -name '*.glb' | sort)
ORACLE_DIR="$oracle" node "$here/make_blend_reference.mjs" "$shared/assets" "$here"
cd "$fixtures"
ORACLE_DIR="$oracle" node "$here/make_reference.mjs" "$fixtures" "$here" $(find fixture -name '*.glb' | sort)
