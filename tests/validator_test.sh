#!/usr/bin/env bash
# Every file `marrow convert` writes from the shared assets (GLB output) passes the Khronos
# glTF-Validator with no error, and without the hints marrow used to cause
# (BUFFER_VIEW_TARGET_MISSING, UNUSED_OBJECT). Installs the validator first
# (scripts/install-test-tools, pinned by tests/validator/package-lock.json).
# Usage: validator_test.sh MARROW_BINARY SHARED_ASSETS_DIR TOOLS_DIR
set -u
marrow=$(readlink -f "$1") assets=$2 tools=$3
root=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -d "$assets" ]; then
  echo "SKIP: the shared assets ($assets) are absent"
  exit 77
fi
"$root/scripts/install-test-tools" "$tools" || { echo "FAIL: could not install the validator"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
converted=0 refused=()
while IFS= read -r -d '' file; do
  name=${file#"$assets"/}
  name=${name//\//_}
  # --max-palette: the 200-joint perf asset is written too.
  if "$marrow" convert "$file" "$work/${name%.*}.glb" --max-palette 256 >/dev/null 2>"$work/err"; then
    converted=$((converted + 1))
  else
    refused+=("$name: $(cat "$work/err")")
  fi
done < <(find "$assets" -type f \( -name '*.gltf' -o -name '*.glb' -o -name '*.dae' -o -name '*.fbx' \) -print0 | sort -z)
printf 'not converted (refused by its reader): %s\n' "${refused[@]}"
# The one refusal expected: an FBX 6 file, which Assimp does not read.
if [ "${#refused[@]}" -gt 1 ] || [ "$converted" -lt 19 ]; then
  echo "FAIL: $converted files converted, ${#refused[@]} refused"; exit 1
fi
if node "$root/tests/validator/validate.mjs" "$tools/node_modules" "$work"/*.glb >"$work/report" \
   --refuse BUFFER_VIEW_TARGET_MISSING --refuse UNUSED_OBJECT; then
  grep -v ' 0 errors' "$work/report" || true
  echo "validator: $converted converted files, no errors"
  exit 0
fi
grep -E 'error|BUFFER_VIEW_TARGET_MISSING|UNUSED_OBJECT' "$work/report" | head -40
echo "FAIL: the validator found errors (above)"
exit 1
