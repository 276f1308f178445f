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
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# Help per command (its usage, options and an example, exit 0) and the version.
for cmd in demo info pose render convert match; do
  for flag in --help -h; do
    check "$cmd $flag" 0 "$marrow" $cmd $flag
    head -1 "$work/out" | grep -q "^usage: marrow $cmd" && grep -q "^example" "$work/out" && grep -q -- "--max-palette" "$work/out" ||
      fail "$cmd $flag prints its usage, options and an example"
  done
done
check "help COMMAND" 0 "$marrow" help render
head -1 "$work/out" | grep -q "^usage: marrow render" || fail "help render"
# The README shows `marrow --help`, docs/native-format.md `marrow convert --help`.
root=$(dirname "$data")/..
for shown in "--help:README.md" "convert --help:docs/native-format.md"; do
  cmd=${shown%%:*}
  page=${shown#*:}
  "$marrow" $cmd >"$work/help.txt"
  awk -v marker="<!-- marrow $cmd -->" '$0 == marker {getline; p = 1; next} p && /^```/ {exit} p' "$root/$page" >"$work/readme_help.txt"
  [ -s "$work/readme_help.txt" ] && cmp -s "$work/help.txt" "$work/readme_help.txt" ||
    fail "$page's 'marrow $cmd' differs from the program's: $(diff "$work/help.txt" "$work/readme_help.txt" | head -5)"
done
check "help of an unknown command" 2 "$marrow" help frobnicate
check "help" 0 "$marrow" --help
grep -q "render" "$work/out" && grep -q -- "--help" "$work/out" || fail "marrow --help lists the commands"
for v in --version version; do
  check "marrow $v" 0 "$marrow" $v
  for want in "^marrow [0-9]*\.[0-9]*\.[0-9]* (.* build)" "^SIMD level: \(sse2\|avx2\|avx512\)" "glm  *[0-9]" "simdjson  *[0-9]" \
              "Assimp  *[0-9]" "libspng  *[0-9]" "giflib  *[0-9]"; do
    grep -q "$want" "$work/out" || fail "marrow $v shows $want"
  done
  grep -q "usage" "$work/out" && fail "marrow $v prints the usage"
done
# MARROW_SIMD chooses the kernels, and the version names the choice (emulated copies on any host).
for choice in sse2 avx2-emulated avx512-emulated; do
  MARROW_SIMD=$choice "$marrow" version >"$work/out"
  level=${choice%-emulated}
  if [ "$choice" = "$level" ]; then want="^SIMD level: $level"; else want="^SIMD level: $level (emulated through SIMDe)"; fi
  grep -q "$want" "$work/out" || fail "MARROW_SIMD=$choice: marrow version shows '$want': $(sed -n 2p "$work/out")"
done
check "missing file" 1 "$marrow" info "$work/nope.glb"
# Bytes of another kind are named, not parsed: one line, exit 1.
check "a PNG named .glb" 1 "$marrow" info "$data/malformed/png_named_glb.glb"
[ "$(wc -l <"$work/err")" = 1 ] && grep -q "not a glTF file (PNG signature)" "$work/err" || fail "a PNG named .glb is named as a PNG"
: >"$work/empty.fbx"
check "an empty file" 1 "$marrow" info "$work/empty.fbx"
grep -q "\[empty-file\] .*empty.fbx: empty file" "$work/err" || fail "an empty file is reported as empty"
check "malformed file" 1 "$marrow" info "$data/malformed/graph_cycle.gltf"
if [ "$(wc -l <"$work/err")" != 1 ] || ! grep -q "invalid-node-graph" "$work/err"; then
  echo "FAIL: a refused file gives one line naming the code"; cat "$work/err"; failures=$((failures + 1))
fi
# demo writes nothing where it runs unless asked: --out DIR gets demo.glb and demo.png.
mkdir -p "$work/here"
(cd "$work/here" && check "demo" 0 "$marrow" demo)
[ -z "$(ls -A "$work/here")" ] || fail "demo wrote into the current folder: $(ls -A "$work/here")"
check "demo --out" 0 "$marrow" demo --out "$work"
[ -s "$work/demo.glb" ] && [ -s "$work/demo.png" ] && grep -q "wrote $work/demo.png" "$work/out" ||
  fail "demo --out DIR writes demo.glb and demo.png there and says where"
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
grep -q "0 'Wave', 1 'Curl'" "$work/err" || fail "an unknown clip's error lists the clips"
# A time without a clip: the only clip, else a usage error listing the clips (pose and render agree).
for cmd in pose render; do
  check "$cmd --time without --clip, two clips" 2 "$marrow" $cmd "$work/demo.glb" --time 1
  [ "$(wc -l <"$work/err")" = 1 ] && grep -q "0 'Wave', 1 'Curl'" "$work/err" || fail "$cmd --time without --clip lists the clips"
  check "$cmd: negative time" 2 "$marrow" $cmd "$work/demo.glb" --clip Wave --time -1
done
check "render --gif without --clip, two clips" 2 "$marrow" render "$work/demo.glb" --gif "$work/x.gif"
# The palette limit: the error names the flag that lifts it; the flag takes a joint count.
check "a skin over the palette limit" 1 "$marrow" info "$data/malformed/skin_73_joints.glb"
grep -q -- "--max-palette N or --palette split" "$work/err" && grep -q "73 joints" "$work/err" && grep -q "limit of 72" "$work/err" &&
  ! grep -q "ImportOptions\|PalettePolicy" "$work/err" || fail "the palette error names the joints, the limit, --max-palette and --palette split"
check "--max-palette lifts it" 0 "$marrow" info "$data/malformed/skin_73_joints.glb" --max-palette 73
for bad in 0 -3 1.5 lots; do check "--max-palette $bad" 2 "$marrow" info "$data/malformed/skin_73_joints.glb" --max-palette $bad; done
check "--palette split lifts it" 0 "$marrow" info "$data/malformed/skin_73_joints.glb" --palette split
check "--palette static loads it" 0 "$marrow" info "$data/malformed/skin_73_joints.glb" --palette static
check "--palette sideways" 2 "$marrow" info "$data/malformed/skin_73_joints.glb" --palette sideways
check "a triangle no split palette holds" 1 "$marrow" info "$data/malformed/palette_split_triangle_over_limit.glb" --palette split
grep -q "triangle 0 uses 75 joints.*--max-palette N lifts it" "$work/err" || fail "the split refusal names the triangle and --max-palette"
# S4: pose --palette split reports what an unsplit import reports (positions, normals, joint
# matrices in the file's joint order), on a real asset split into palettes of 8 joints.
cesium="$assets/gltf/CesiumMan/cesium_man.gltf"
if [ -f "$cesium" ]; then
  check "pose unsplit" 0 "$marrow" pose "$cesium" --time 0.7 --json --max-palette 256
  cp "$work/out" "$work/unsplit.json"
  for command in pose render convert; do  # every loading command takes the flags
    case $command in
      pose) check "pose --palette split" 0 "$marrow" pose "$cesium" --time 0.7 --json --max-palette 8 --palette split ;;
      render) check "render --palette split" 0 "$marrow" render "$cesium" --time 0.7 --out "$work/split.png" --max-palette 8 --palette split ;;
      convert) check "convert --palette split" 0 "$marrow" convert "$cesium" "$work/split.glb" --max-palette 8 --palette split ;;
    esac
  done
  check "pose --palette split" 0 "$marrow" pose "$cesium" --time 0.7 --json --max-palette 8 --palette split
  python3 - "$work/unsplit.json" "$work/out" <<'PY' || fail "pose --palette split differs from the unsplit pose"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert len(a["meshes"]) == len(b["meshes"]) == 1, "one entry per file primitive"
def flat(x):
    return [v for u in x for v in flat(u)] if isinstance(x, list) else [x]
def close(x, y):
    x, y = flat(x), flat(y)
    return len(x) == len(y) and all(abs(p - q) <= 1e-4 * max(1.0, abs(p)) for p, q in zip(x, y))
for key in ("positions", "normals"):
    assert close(a["meshes"][0][key], b["meshes"][0][key]), key
assert a["skins"] == b["skins"] or all(
    close(s["jointMatrices"], t["jointMatrices"]) for s, t in zip(a["skins"], b["skins"])), "joint matrices"
PY
fi
# Poses past one clip (DESIGN.md's contract): layers, masks, additive layers, IK, root motion.
check "pose --layer" 0 "$marrow" pose "$work/demo.glb" --layer Wave@0.5=1 --layer Curl@1=1/Seg4 --additive Curl@2=0.5 --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["clip"] is None and len(d["meshes"][0]["positions"]) > 0' "$work/out" ||
  { echo "FAIL: pose --layer --json"; failures=$((failures + 1)); }
check "pose --clip" 0 "$marrow" pose "$work/demo.glb" --clip Wave --time 0.5 --json
cp "$work/out" "$work/single.json"
check "pose: one clip as two equal layers" 0 "$marrow" pose "$work/demo.glb" --layer Wave@0.5=1 --layer Wave@0.5=3 --json
python3 - "$work/single.json" "$work/out" <<'PY' || { echo "FAIL: two equal layers differ from the clip"; failures=$((failures + 1)); }
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
pa, pb = a["meshes"][0]["positions"], b["meshes"][0]["positions"]
assert len(pa) == len(pb) and max(abs(x - y) for x, y in zip(pa, pb)) < 1e-5
PY
check "pose --two-bone-ik" 0 "$marrow" pose "$work/demo.glb" --two-bone-ik Seg5,Seg6,Seg7=0.5,3.2,0.2,2,4,0 --json
python3 - "$work/out" <<'PY' || { echo "FAIL: the IK chain's end is not on its target"; failures=$((failures + 1)); }
import json, sys
d = json.load(open(sys.argv[1]))
end = next(n for n in d["nodes"] if n["name"] == "Seg7")["world"][12:15]
assert max(abs(x - y) for x, y in zip(end, (0.5, 3.2, 0.2))) < 1e-4, end
PY
check "pose --root-motion" 0 "$marrow" pose "$work/demo.glb" --clip Wave --time 1 --root-motion --json
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["rootMotion"]; assert isinstance(r["node"], int) and len(r["translation"]) == 3 and r["translation"][1] == 0 and "yaw" in r' "$work/out" ||
  { echo "FAIL: pose --root-motion"; failures=$((failures + 1)); }
check "pose --root-up" 0 "$marrow" pose "$work/demo.glb" --clip Wave --time 1 --root-motion-yaw --root-up 0,0,1 --json
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["rootMotion"]; assert r["translation"][2] == 0, r' "$work/out" ||
  { echo "FAIL: pose --root-up: nothing along the up axis"; failures=$((failures + 1)); }
check "pose: --root-up without --root-motion" 2 "$marrow" pose "$work/demo.glb" --clip 0 --root-up 0,0,1
check "pose: a zero --root-up" 2 "$marrow" pose "$work/demo.glb" --clip 0 --root-motion --root-up 0,0,0
check "pose: an infinite --root-up" 2 "$marrow" pose "$work/demo.glb" --clip 0 --root-motion --root-up 0,1e39,1
check "pose: negative layer weight" 2 "$marrow" pose "$work/demo.glb" --layer Wave@0.5=-1
check "pose: NaN layer weight" 2 "$marrow" pose "$work/demo.glb" --layer Wave@0.5=nan
check "pose: every layer weight zero" 2 "$marrow" pose "$work/demo.glb" --layer Wave@0.5=0 --layer Curl@1=0
check "pose: a layer of an unknown clip" 2 "$marrow" pose "$work/demo.glb" --layer Jump@0.5=1
check "pose: a mask of an unknown node" 2 "$marrow" pose "$work/demo.glb" --layer Wave@0.5=1/Tail
check "pose: a malformed layer" 2 "$marrow" pose "$work/demo.glb" --layer Wave=1
check "pose: --clip with --layer" 2 "$marrow" pose "$work/demo.glb" --clip Wave --layer Wave@0.5=1
check "pose: an IK chain that is not a chain" 2 "$marrow" pose "$work/demo.glb" --two-bone-ik Seg5,Seg7,Seg6=0,1,0
grep -q "parent -> child -> grandchild" "$work/err" || { echo "FAIL: the chain error names the rule"; failures=$((failures + 1)); }
check "pose: a malformed IK target" 2 "$marrow" pose "$work/demo.glb" --two-bone-ik Seg5,Seg6,Seg7=0,1
check "pose: --root-joint without --root-motion" 2 "$marrow" pose "$work/demo.glb" --clip 0 --root-joint Seg0
check "render --fade" 0 "$marrow" render "$work/demo.glb" --fade Wave:Curl:0.5 --gif "$work/fade.gif" --fps 6 --size 32x32
[ "$(head -c 6 "$work/fade.gif")" = GIF89a ] || { echo "FAIL: render --fade"; failures=$((failures + 1)); }
check "render --fade without --gif" 2 "$marrow" render "$work/demo.glb" --fade Wave:Curl:0.5
check "render a blend" 0 "$marrow" render "$work/demo.glb" --layer Wave@0.5=1 --layer Curl@1=1 --size 32x32 --out "$work/blend.png"
# render: one frame, a contact sheet, a GIF; bad input is a usage error, never a crash.
png_size() { python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); assert d[:8]==b"\x89PNG\r\n\x1a\n"; print("%dx%d" % struct.unpack(">II", d[16:24]))' "$1"; }
check "render one frame" 0 "$marrow" render "$work/demo.glb" --clip Wave --time 0.5 --size 96x64 --skeleton --bounds --out "$work/frame.png"
[ "$(png_size "$work/frame.png")" = 96x64 ] || { echo "FAIL: render --size"; failures=$((failures + 1)); }
check "render again" 0 "$marrow" render "$work/demo.glb" --clip Wave --time 0.5 --size 96x64 --skeleton --bounds --out "$work/frame2.png"
cmp -s "$work/frame.png" "$work/frame2.png" || { echo "FAIL: render is not deterministic across runs"; failures=$((failures + 1)); }
check "render a contact sheet" 0 "$marrow" render "$work/demo.glb" --clip Curl --frames 4 --size 40x40 --view side --out "$work/sheet.png"
[ "$(png_size "$work/sheet.png")" = "$((2 * 42 + 2))x$((2 * 42 + 2 + 11))" ] || { echo "FAIL: contact sheet size $(png_size "$work/sheet.png")"; failures=$((failures + 1)); }
check "render a gif" 0 "$marrow" render "$work/demo.glb" --clip 0 --gif "$work/anim.gif" --fps 5 --size 32x32 --yaw 30 --pitch 10
[ "$(head -c 6 "$work/anim.gif")" = GIF89a ] || { echo "FAIL: render --gif"; failures=$((failures + 1)); }
check "render: zero size" 2 "$marrow" render "$work/demo.glb" --size 0x10
check "render: absurd size" 2 "$marrow" render "$work/demo.glb" --size 100000x100000
check "render: size with --aa past the sample budget" 2 "$marrow" render "$work/demo.glb" --size 8000x8000 --aa 4
check "render: malformed size" 2 "$marrow" render "$work/demo.glb" --size big
check "render: unknown clip" 2 "$marrow" render "$work/demo.glb" --clip Jump
check "render: bad time" 2 "$marrow" render "$work/demo.glb" --clip 0 --time soon
check "render: negative time" 2 "$marrow" render "$work/demo.glb" --clip 0 --time -1
check "render: unknown view" 2 "$marrow" render "$work/demo.glb" --view below
check "render: pitch out of range" 2 "$marrow" render "$work/demo.glb" --pitch 120
check "render: absurd yaw" 2 "$marrow" render "$work/demo.glb" --yaw 1e300
check "render: --out with only --gif" 2 "$marrow" render "$work/demo.glb" --gif "$work/y.gif" --out "$work/y.png"
check "render: frames out of range" 2 "$marrow" render "$work/demo.glb" --frames 0
check "render: absurd frame count" 2 "$marrow" render "$work/demo.glb" --frames 1e300
check "render: --time with --frames" 2 "$marrow" render "$work/demo.glb" --frames 3 --time 1
check "render: bad fps" 2 "$marrow" render "$work/demo.glb" --gif "$work/x.gif" --fps 0
check "render: unwritable output" 1 "$marrow" render "$work/demo.glb" --out "$work/no/such/dir.png"
[ "$(wc -l <"$work/err")" = 1 ] || { echo "FAIL: an unwritable output gives one line"; cat "$work/err"; failures=$((failures + 1)); }
# info: vertices, triangles and materials per mesh.
check "info" 0 "$marrow" info "$work/demo.glb"
grep -q '^mesh 0 "Tentacle" (skin 0): 1 part, 592 vertices, 1152 triangles, 1 material "TentacleSkin"' "$work/out" ||
  fail "info shows vertices, triangles and materials per mesh"
# Progress: a bar redrawn with \r on a terminal only.
check "render --gif to a file" 0 "$marrow" render "$work/demo.glb" --clip 0 --gif "$work/p.gif" --fps 20 --size 16x16
! grep -q $'\r' "$work/err" || fail "render draws a progress bar into a file"
# (script gives the command a pseudo-terminal; skipped where it cannot.)
if command -v script >/dev/null && script -qec "test -t 2" /dev/null </dev/null >/dev/null 2>&1; then
  script -qec "'$marrow' render '$work/demo.glb' --clip 0 --gif '$work/p.gif' --fps 20 --size 16x16" /dev/null </dev/null >"$work/tty" 2>&1
  grep -q $'\rrender \[' "$work/tty" || fail "render --gif shows progress on a terminal"
fi
# convert: outputs decided and collisions refused before anything is written; OUT's extension
# names the format; --format for folders.
mkdir -p "$work/a" "$work/b"
cp "$work/demo.glb" "$work/a/tentacle.glb"; cp "$work/demo.glb" "$work/b/tentacle.glb"
check "convert: two inputs, one output name" 2 "$marrow" convert "$work/a/tentacle.glb" "$work/b/tentacle.glb" "$work/conv" --jobs 4
grep -q "would both write" "$work/err" && [ ! -e "$work/conv" ] || fail "colliding outputs are refused before anything is written"
check "convert: several inputs into OUT.glb" 2 "$marrow" convert "$work/a/tentacle.glb" "$work/demo.glb" "$work/out.glb"
[ ! -e "$work/out.glb" ] || fail "convert made out.glb for several inputs"
check "convert: OUT of no format" 2 "$marrow" convert "$work/demo.glb" "$work/out.xyz"
check "convert: OUT without extension" 2 "$marrow" convert "$work/demo.glb" "$work/out"
check "convert: --format disagrees with OUT" 2 "$marrow" convert "$work/demo.glb" "$work/out.glb" --format gltf
check "convert: unknown --format" 2 "$marrow" convert "$work/demo.glb" "$work/a/demo.glb" "$work/conv" --format obj
check "convert: bad --jobs" 2 "$marrow" convert "$work/demo.glb" "$work/a/demo.glb" "$work/conv" --jobs 0
check "convert: OUT over IN" 2 "$marrow" convert "$work/a/tentacle.glb" "$work/a" --format glb
cp "$work/demo.glb" "$work/kept.glb"
check "W1 retarget: OUT over the target" 2 "$marrow" retarget "$work/a/tentacle.glb" "$work/demo.glb" "$work/./demo.glb"
cmp -s "$work/demo.glb" "$work/kept.glb" && grep -q "would replace it" "$work/err" || fail "retarget refuses OUT over an input"
check "an option given twice" 2 "$marrow" pose "$work/demo.glb" --json --json
grep -q "given twice" "$work/err" || fail "a repeated option is named as given twice"
check "a negative --scene" 2 "$marrow" info "$work/demo.glb" --scene -1
check "convert --format glb into a folder" 0 "$marrow" convert "$work/a/tentacle.glb" "$work/demo.glb" "$work/conv" --format glb
[ "$(head -c 4 "$work/conv/tentacle.glb")" = glTF ] && [ -s "$work/conv/demo.glb" ] && grep -q "converted 2 of 2 files" "$work/out" ||
  fail "convert --format glb writes .glb files into the folder"
! grep -q $'\r' "$work/err" || fail "convert draws a progress bar on a file"
check "convert one file to .gltf" 0 "$marrow" convert "$work/demo.glb" "$work/one.gltf"
head -c 1 "$work/one.gltf" | grep -q '{' || fail "convert to .gltf writes JSON"
check "convert one file to .marrow" 0 "$marrow" convert "$work/demo.glb" "$work/one.marrow"
# convert --compress TOL: a positive finite tolerance, else a usage error; the file is smaller
# and plays (pose reads it back).
for tol in 0 -0.001 nan inf abc ""; do
  check "convert: --compress '$tol'" 2 "$marrow" convert "$work/demo.glb" "$work/bad.marrow" --compress "$tol"
done
[ ! -e "$work/bad.marrow" ] || fail "convert wrote a file for a bad --compress"
check "convert --compress" 0 "$marrow" convert "$work/demo.glb" "$work/small.marrow" --compress 0.001
[ "$(stat -c %s "$work/small.marrow")" -lt "$(stat -c %s "$work/one.marrow")" ] ||
  fail "convert --compress writes a smaller file"
check "pose of a compressed file" 0 "$marrow" pose "$work/small.marrow" --clip Wave --time 0.5 --json
# --segmented: only with --compress; the file plays, within the bound of the keyed one's pose.
check "convert: --segmented without --compress" 2 "$marrow" convert "$work/demo.glb" "$work/bad.marrow" --segmented
check "convert --compress --segmented" 0 "$marrow" convert "$work/demo.glb" "$work/segmented.marrow" --compress 0.001 --segmented
check "pose of a segmented file" 0 "$marrow" pose "$work/segmented.marrow" --clip Wave --time 0.5 --json
# render: the output's extension is the format written.
check "render --out x.jpg" 2 "$marrow" render "$work/demo.glb" --out "$work/x.jpg"
check "render --gif x.png" 2 "$marrow" render "$work/demo.glb" --clip 0 --gif "$work/x.png"
[ ! -e "$work/x.jpg" ] && [ ! -e "$work/x.png" ] || fail "render wrote a file of the wrong format"
if [ -d "$assets/gltf" ]; then
  check "pose of a shared asset" 0 "$marrow" pose "$assets/gltf/CesiumMan/cesium_man.gltf" --clip 0 --time 1
  cp "$work/out" "$work/clip0.txt"
  # CesiumMan has one clip: --time alone plays it, in pose and in render.
  check "pose --time of a one-clip file" 0 "$marrow" pose "$assets/gltf/CesiumMan/cesium_man.gltf" --time 1
  cmp -s "$work/out" "$work/clip0.txt" || fail "pose --time without --clip plays the only clip"
  check "render --time of a one-clip file" 0 "$marrow" render "$assets/gltf/CesiumMan/cesium_man.gltf" --time 1 --size 32x32 --out "$work/one.png"
  grep -q "clip 0 'animation_0' at 1.000 s" "$work/out" || fail "render --time without --clip plays the only clip"
  # A BVH file in centimetres: a tolerance meant in metres (10 um here) leaves a clip as it was,
  # with a word on units; the same bound in centimetres compresses it.
  bvh="$assets/bvh/bandai-locomotion/dataset-1_walk-right_normal_001.bvh"
  check "convert --compress of a file in centimetres" 0 "$marrow" convert "$bvh" "$work/walk.marrow" --compress 0.001
  grep -q "clip not compressed: .*cannot be met .*the tolerance is in the model's units" "$work/err" ||
    fail "convert --compress names the units when a tolerance cannot be met"
  check "convert --compress in the file's units" 0 "$marrow" convert "$bvh" "$work/walk.marrow" --compress 0.1
  ! grep -q "not compressed" "$work/err" || fail "convert --compress 0.1 compresses the clip of centimetres"
  check "info of a compressed BVH clip" 0 "$marrow" info "$work/walk.marrow" --json
  grep -q '"compressed_bytes"' "$work/out" || fail "info --json reports the compressed BVH clip's compressed_bytes"
  fox=$(readlink -f "$assets/gltf/Fox/Fox.gltf")
  check "demo of a shared asset" 0 "$marrow" demo "$fox" --out "$work/fox"
  [ -s "$work/fox/demo.png" ] && [ ! -e "$work/fox/demo.glb" ] || fail "demo FILE --out writes demo.png only"
  # Every help's example runs as printed (from a folder beside shared/, into a scratch folder).
  mkdir -p "$work/examples"
  for cmd in demo info pose render convert match; do
    "$marrow" $cmd --help | awk '/^example/ {p = 1; next} p {sub(/^  /, ""); print}' | while read -r example; do
      example=${example//..\/shared\/assets/$assets}
      example=${example//\/tmp\/fox/$work/examples/fox}
      (cd "$work/examples" && eval "\"$marrow\"${example#marrow}" >/dev/null 2>"$work/examples/err") ||
        echo "FAIL: the example of $cmd --help fails: $example: $(cat "$work/examples/err")" >>"$work/example_failures"
    done
  done
  [ ! -s "$work/example_failures" ] || { cat "$work/example_failures"; failures=$((failures + 1)); }
  # A skeleton-only file: demo watches its joints, not its cameras.
  check "demo of a skeleton-only file" 0 "$marrow" demo "$assets/fbx/pab/jog.fbx"
  grep -q "^ *time  Hips " "$work/out" && ! grep -q "^ *time .*Camera" "$work/out" || fail "demo watches the skeleton's joints"
  check "render of a shared asset" 0 "$marrow" render "$assets/gltf/CesiumMan/cesium_man.gltf" --clip 0 --time 1 --size 64x64 --out "$work/cesium.png"
  # Animation graphs (--graph, --script: tools/marrow/graph_script.hpp) on the example graph of
  # the Fox: the speed blends Walk and Run (AG1), the trigger jump switches to the state leap.
  graph="$(dirname "$data")/../docs/examples/fox_graph.json"
  check "pose --graph before the trigger" 0 "$marrow" pose "$fox" --graph "$graph" --script "0:speed=2; 1:fire jump" --time 0.9 --json
  python3 - "$work/out" <<'PY' || fail "pose --graph before the trigger: the state ground, Walk and Run by the speed"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["state"] == "ground" and d["clip"] is None, d["state"]
w = d["clip_weights"]
assert list(w) == ["Survey", "Walk", "Run"] and abs(w["Walk"] - 0.8) < 1e-5 and abs(w["Run"] - 0.2) < 1e-5, w
PY
  check "pose --graph after the trigger" 0 "$marrow" pose "$fox" --graph "$graph" --script "0:speed=2; 1:fire jump" --time 1.1 --json
  cp "$work/out" "$work/graph_pose.json"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["state"] == "leap" and abs(d["clip_weights"]["Run"] - 1) < 1e-5, d["state"]' "$work/out" ||
    fail "pose --graph after the trigger reports the destination state"
  check "pose --graph, the script out of order" 0 "$marrow" pose "$fox" --graph "$graph" --script " 1 : fire jump ;0:speed = 2;" --time 1.1 --json
  cmp -s "$work/out" "$work/graph_pose.json" || fail "a script's entries apply in time order, whatever order they are written in"
  check "pose --graph as text" 0 "$marrow" pose "$fox" --graph "$graph" --script "0:speed=2; 1:fire jump" --time 1.1
  grep -q 'graph at 1.1 s, state "leap"' "$work/out" || fail "pose --graph names the state in its summary"
  check "render --graph --gif" 0 "$marrow" render "$fox" --graph "$graph" --script "0:speed=2; 0.5:fire jump" --gif "$work/graph.gif" --fps 6 --size 32x32
  [ "$(head -c 6 "$work/graph.gif")" = GIF89a ] && grep -q "15 frames at 6 fps" "$work/out" ||
    fail "render --graph --gif writes a GIF of the script's last time + 2 s: $(cat "$work/out")"
  check "render --graph --gif --seconds" 0 "$marrow" render "$fox" --graph "$graph" --gif "$work/graph.gif" --fps 6 --size 32x32 --seconds 1
  grep -q "6 frames at 6 fps" "$work/out" || fail "render --graph --seconds sets the GIF's length"
  check "render --graph, one frame" 0 "$marrow" render "$fox" --graph "$graph" --script "0:speed=3" --time 1 --size 32x32 --out "$work/graph.png"
  grep -q "ground" "$work/out" && [ "$(png_size "$work/graph.png")" = 32x32 ] || fail "render --graph --time draws one frame"
  for script in "1:sped=2" "1 speed=2" "soon:speed=2" "-1:speed=2" "1:speed=fast" "1:fire speed" "1:jump=1" "1:fire" ";"; do
    check "pose --graph: bad script '$script'" 2 "$marrow" pose "$fox" --graph "$graph" --script "$script" --time 1
    [ "$(wc -l <"$work/err")" = 1 ] && grep -q -e "--script" "$work/err" || fail "a bad script '$script' is one line naming --script"
  done
  grep -q "entry ';'" "$work/err" || grep -q "no entries" "$work/err" || fail "an empty script says it has no entries"
  check "pose --graph: an unknown parameter" 2 "$marrow" pose "$fox" --graph "$graph" --script "0:speed=1; 1:sped=2"
  grep -q "entry '1:sped=2'.*speed, turn, jump" "$work/err" || fail "an unknown parameter's error names the entry and the parameters"
  check "render --graph: bad script" 2 "$marrow" render "$fox" --graph "$graph" --script "1:speed" --gif "$work/bad.gif"
  [ ! -e "$work/bad.gif" ] || fail "render wrote a GIF for a bad script"
  check "--script without --graph" 2 "$marrow" pose "$fox" --script "0:speed=1"
  check "--graph with --clip" 2 "$marrow" pose "$fox" --graph "$graph" --clip Run
  check "--graph with --layer" 2 "$marrow" render "$fox" --graph "$graph" --layer Run@0=1
  check "--seconds without --graph" 2 "$marrow" render "$fox" --clip Run --gif "$work/x.gif" --seconds 2
  check "--graph: a missing graph file" 1 "$marrow" pose "$fox" --graph "$work/no_graph.json"
  grep -q "io-error" "$work/err" || fail "a missing graph file is an io-error"
  printf '{"version": 1, "root": "a",' >"$work/broken_graph.json"
  check "--graph: a graph file that is not JSON" 1 "$marrow" render "$fox" --graph "$work/broken_graph.json" --gif "$work/x.gif"
  [ "$(wc -l <"$work/err")" = 1 ] && grep -q "invalid-json.*broken_graph.json" "$work/err" || fail "a broken graph file is one line naming it"
  printf '{"version": 1, "root": "a", "nodes": {"a": {"type": "clip", "clip": "Swim"}}}' >"$work/swim_graph.json"
  check "--graph: a graph the model cannot play" 1 "$marrow" pose "$fox" --graph "$work/swim_graph.json"
  grep -q 'swim_graph.json: graph node "a", field "clip"' "$work/err" || fail "a graph naming a missing clip names the file, node and field"
fi
# Motion matching (docs/motion-matching.md): a database of a few Bandai clips, the demo twice.
bandai="$assets/bvh/bandai-locomotion"
check "match without a subcommand" 2 "$marrow" match
check "match of an unknown subcommand" 2 "$marrow" match frob
check "match build without --out" 2 "$marrow" match build x.bvh
check "match demo of an unknown path" 2 "$marrow" match demo x.marrow --path square
if [ -d "$bandai" ]; then
  check "match build" 0 "$marrow" match build "$bandai"/dataset-2_walk_normal_001.bvh "$bandai"/dataset-2_walk-turn-left_normal_001.bvh \
    "$bandai"/dataset-2_walk-turn-right_normal_001.bvh "$bandai"/dataset-2_run_normal_001.bvh --out "$work/walks.marrow"
  grep -q "wrote .*walks.marrow: 4 clips.*candidate frames at 60 Hz" "$work/out" && grep -q "unit scale 0.01" "$work/out" ||
    fail "match build reports its clips, frames and unit scale: $(cat "$work/out")"
  cp "$work/walks.marrow" "$work/walks_kept.marrow"
  check "W1 match build over its own input" 2 "$marrow" match build "$work/walks.marrow" --out "$work/walks.marrow"
  grep -q "would replace it" "$work/err" && cmp -s "$work/walks.marrow" "$work/walks_kept.marrow" ||
    fail "match build refuses to write over an input, before writing"
  check "match build --mirror" 0 "$marrow" match build "$bandai"/dataset-2_walk-turn-left_normal_001.bvh --mirror --out "$work/mirrored.marrow"
  grep -q "wrote .*mirrored.marrow: 2 clips" "$work/out" || fail "match build --mirror adds the mirrored clip: $(cat "$work/out")"
  check "match demo of a mirrored database" 0 "$marrow" match demo "$work/mirrored.marrow" --path circle --seconds 2 --json
  for run in a b; do
    check "match demo --json ($run)" 0 "$marrow" match demo "$work/walks.marrow" --path zigzag --seconds 6 --json
    cp "$work/out" "$work/match_$run.json"
  done
  python3 - "$work/match_a.json" "$work/match_b.json" <<'PY' || fail "match demo --json: the same figures twice (MM7), every key"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
keys = {"trajectory_error_cm", "foot_sliding_cm_per_s", "searches_per_s", "switches_per_s", "frame_us"}
assert keys <= a.keys(), a
assert all(isinstance(a[k], (int, float)) and a[k] >= 0 for k in keys), a
assert a["frames"] == 360 and a["searches_per_s"] >= 10 and a["frame_us"] > 0, a
a.pop("frame_us"); b.pop("frame_us")
assert a == b, (a, b)
PY
  check "match demo --gif" 0 "$marrow" match demo "$work/walks.marrow" --path stop-and-go --seconds 2 --gif "$work/match.gif" --size 64x48
  [ -s "$work/match.gif" ] && grep -q "trajectory error" "$work/out" || fail "match demo --gif writes the GIF and prints the figures"
  check "match demo of a file without a database" 1 "$marrow" match demo "$bandai"/dataset-2_walk_normal_001.bvh
  [ "$(wc -l <"$work/err")" = 1 ] && grep -q "holds no motion database" "$work/err" || fail "match demo names the missing database"
fi
[ "$failures" = 0 ] && echo "cli_test: all passed"
exit "$failures"
