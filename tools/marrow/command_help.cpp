#include "command_help.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace marrow::cli {

namespace {

// What every loading command takes (loaded_file.hpp).
#define MARROW_LOAD_OPTIONS                                                                            \
  "loading options:\n"                                                                                 \
  "  --scene N                the file's scene N (default: its default scene)\n"                     \
  "  --max-palette N          joints one skin may have (default 72; see --palette)\n"                 \
  "  --palette refuse|static|split   a skin over --max-palette is refused (default), loads\n"        \
  "                           unskinned, or has its parts split into sub-palettes of at most\n"    \
  "                           --max-palette joints each (posed exactly as unsplit)\n"              \
  "  --ticks-per-second T     the key rate of formats that count in ticks (Assimp's; default: the\n" \
  "                           file's, else 25)\n"

constexpr std::array<std::pair<std::string_view, std::string_view>, 8> kHelp{{
    {"demo",
     "usage: marrow demo [FILE] [--out DIR] [loading options]\n"
     "Plays every clip of FILE (default: the built-in character, written with marrow's glTF writer\n"
     "and imported back) through one Animator and prints a table per clip: time, three joints'\n"
     "world positions, the morph weights and the box around the posed vertices.\n"
     "options:\n"
     "  --out DIR                also write DIR/demo.png, a contact sheet of every clip (and, for the\n"
     "                           built-in character, DIR/demo.glb); without it nothing is written\n"
     "  -h, --help               this text\n" MARROW_LOAD_OPTIONS
     "example:\n"
     "  marrow demo ../shared/assets/gltf/Fox/Fox.gltf --out /tmp/fox\n"},
    {"info",
     "usage: marrow info FILE [--json] [loading options]\n"
     "What marrow imported: scenes, the node tree (joints marked), meshes (vertices, triangles,\n"
     "materials), skins with their palette order and both index maps, clips (duration, target\n"
     "space, tracks), morph targets and diagnostics.\n"
     "options:\n"
     "  --json                   one JSON object on stdout\n"
     "  -h, --help               this text\n" MARROW_LOAD_OPTIONS
     "example:\n"
     "  marrow info ../shared/assets/gltf/CesiumMan/cesium_man.gltf\n"},
    {"pose",
     "usage: marrow pose FILE [--clip NAME|INDEX] [--time SECONDS] [--json] [--no-normals] [options]\n"
     "The pose at that time, clamped to the clip (no looping): node world transforms, joint\n"
     "matrices, posed vertices and morph weights. --time without --clip plays the file's only clip\n"
     "(a file with several clips needs --clip); without --time, the clip's start; with neither,\n"
     "the loaded pose.\n"
     "options:\n"
     "  --clip NAME|INDEX        the clip (a name, or its index as listed by marrow info)\n"
     "  --time SECONDS           the time in the clip (>= 0; clamped to its duration)\n"
     "  --json                   the schema of ../shared/tools/oracle, in the file's index spaces\n"
     "  --no-normals             leave normals out of the JSON\n"
     "  --layer CLIP@SECONDS=WEIGHT[/NODE]     a blended layer (repeatable; instead of --clip/--time),\n"
     "                           masked to NODE's subtree when given\n"
     "  --additive CLIP@SECONDS=WEIGHT[/NODE]  an additive layer: the clip's delta from its first frame\n"
     "  --two-bone-ik START,MID,END=X,Y,Z[,PX,PY,PZ]   a two-bone IK chain, target and pole in scene space\n"
     "  --root-motion | --root-motion-yaw      take the root joint's motion out of the pose, report it\n"
     "  --root-joint NODE        the root joint for --root-motion (default: the first skin's root)\n"
     "  --root-up X,Y,Z          the scene's up axis for --root-motion (default 0,1,0; 0,0,1 for a Z-up file)\n"
     "  --graph G.json           an animation graph (docs/graph.md) played from 0 to --time instead\n"
     "                           of a clip, in steps of 1/60 s; the report adds its state and the\n"
     "                           weight of each clip it plays (JSON: \"state\", \"clip_weights\")\n"
     "  --script \"T:NAME=V; T:fire NAME\"   with --graph: set a parameter (a number, true or false)\n"
     "                           or fire a trigger at T seconds, before the first step from T on\n"
     "  -h, --help               this text\n" MARROW_LOAD_OPTIONS
     "example:\n"
     "  marrow pose ../shared/assets/gltf/Fox/Fox.gltf --clip Run --time 0.5 --json\n"},
    {"render",
     "usage: marrow render FILE [--clip C] [--time T] [--out F.png] [options]\n"
     "A picture of a pose drawn by marrow's software renderer (default render.png), a contact sheet\n"
     "of N frames over a clip (over every clip without --clip; default sheet.png), or a looping GIF\n"
     "of a clip. A file without meshes is drawn as its skeleton. --time and --gif without --clip\n"
     "play the file's only clip (a file with several clips needs --clip).\n"
     "options:\n"
     "  --clip NAME|INDEX        the clip\n"
     "  --time SECONDS           the time in the clip (>= 0; clamped to its duration)\n"
     "  --out F.png              the picture or contact sheet to write (PNG)\n"
     "  --frames N               a contact sheet of N frames spread over the clip(s)\n"
     "  --gif F.gif              an animated GIF of the clip; --fps R frames per second (default 12)\n"
     "  --fade A:B:SECONDS       with --gif: clip A, a cross-fade to B over SECONDS, then B\n"
     "  --size WxH               pixels (default 512x512; 256x256 tiles for --frames and --gif)\n"
     "  --view front|side|top|iso, --yaw DEG, --pitch DEG   the camera (default iso)\n"
     "  --skeleton, --bounds     draw the skeleton, the animated bounds\n"
     "  --aa N                   N x N samples per pixel (default 2)\n"
     "  --no-caption             no caption\n"
     "  --layer, --additive, --two-bone-ik, --root-motion   one frame of a blend (see marrow pose -h)\n"
     "  --graph G.json, --script S   an animation graph under a script (see marrow pose -h): one\n"
     "                           frame at --time, or with --gif a GIF of --seconds S (default: the\n"
     "                           script's last time + 2 s)\n"
     "  -h, --help               this text\n" MARROW_LOAD_OPTIONS
     "Progress is shown on stderr when it is a terminal.\n"
     "example:\n"
     "  marrow render ../shared/assets/gltf/Fox/Fox.gltf --clip Walk --gif walk.gif --size 200x200\n"},
    {"convert",
     "usage: marrow convert IN... OUT [--format marrow|glb|gltf] [--meshopt] [--unit-scale S] [--compress TOL [--segmented]]\n"
     "                      [--jobs N]\n"
     "Converts models to marrow's native format (.marrow) or glTF (.glb binary, .gltf embedded JSON).\n"
     "One input: OUT is a file whose extension names the format (or an existing folder). Several\n"
     "inputs: OUT is a folder (created when missing) that receives <name>.<format> for each,\n"
     "converted in parallel; inputs that would write the same file are refused before anything\n"
     "is converted.\n"
     "options:\n"
     "  --format marrow|glb|gltf the format written into a folder (default marrow); with one output\n"
     "                           file it must agree with OUT's extension\n"
     "  --meshopt                glTF output compressed with EXT_meshopt_compression\n"
     "  --unit-scale S           scale translations, translation keys and morph position deltas (G18)\n"
     "  --compress TOL           compress skeletal clips (lossy): points 100 TOL from every joint move\n"
     "                           at most TOL, in the model's units (1 mm at 10 cm: 0.001 in metres,\n"
     "                           0.1 in centimetres, as BVH and FBX files often are)\n"
     "  --segmented              with --compress: the animated channels as segments of samples, which\n"
     "                           play with no per-instance state (docs/clip-compression.md)\n"
     "  --jobs N                 convert N files at a time (default: one per core)\n"
     "  -h, --help               this text\n" MARROW_LOAD_OPTIONS
     "Progress is shown on stderr when it is a terminal.\n"
     "examples:\n"
     "  marrow convert ../shared/assets/dae/seymour.dae seymour.glb\n"
     "  marrow convert ../shared/assets/gltf/*/*.gltf converted --format glb --jobs 2\n"},
    {"retarget",
     "usage: marrow retarget SOURCE TARGET OUT [--clip NAME]... [--map auto|FILE.json] [--source-rest CLIP@S]\n"
     "                       [--target-rest CLIP@S] [--feet-ik] [--prefix P] [--json]\n"
     "Plays SOURCE's clips on TARGET's rig (humanoids of any format) and writes OUT (.glb, .gltf or\n"
     ".marrow, by its extension): TARGET's nodes, meshes, skins and clips plus each retargeted clip\n"
     "under its source name. Rotations transfer as model-space deltas from rest, the target keeps its\n"
     "bone lengths and the hips' motion is scaled by the ratio of the hips' heights (docs/retargeting.md).\n"
     "options:\n"
     "  --clip NAME              retarget this clip (repeatable; default: every clip of SOURCE)\n"
     "  --map auto|FILE.json     bone pairs: found from the names (auto, the default) or a JSON object\n"
     "                           {\"target node\": \"source node or humanoid bone\", ...}\n"
     "  --source-rest CLIP@S     SOURCE's rest pose: that clip at S seconds (e.g. a T-pose clip of an\n"
     "                           A-pose rig); tpose: a T-pose made from the bind pose; bind (default)\n"
     "  --target-rest CLIP@S     TARGET's rest pose, likewise\n"
     "  --feet-ik                pin the feet to the source's (scaled) foot positions with two-bone IK\n"
     "  --prefix P               name the new clips P + source name\n"
     "  --json                   print {\"map\": {target: source}, \"root_scale\": S, \"clips\": [...]}\n"
     "  -h, --help               this text\n" MARROW_LOAD_OPTIONS
     "example:\n"
     "  marrow retarget ../shared/assets/bvh/bandai-locomotion/dataset-2_walk_normal_001.bvh \\\n"
     "      ../shared/assets/gltf/KayKitRigMedium/manny_med_mod.gltf walk.glb --feet-ik\n"},
    {"match",
     "usage: marrow match build MODEL... --out DB.marrow [--rate HZ] [--weights W,W,W,W,W] [--unit-scale S]\n"
     "                          [--mirror]\n"
     "       marrow match demo DB.marrow [--path circle|zigzag|stop-and-go] [--seconds S] [--json]\n"
     "                                   [--gif F.gif [--size WxH] [--fps F]] [--no-foot-lock]\n"
     "Motion matching (docs/motion-matching.md). build samples every clip of the models (one rig; a\n"
     "BVH file holds one clip) into a searchable database and writes the clips with it to a native\n"
     "file. demo plays a scripted gamepad path through the controller (foot lock on) at 60 frames a\n"
     "second and prints the trajectory error, the foot sliding in contact, searches and switches\n"
     "per second and the mean controller frame time; the same file and path give the same figures.\n"
     "options (build):\n"
     "  --out DB.marrow          the file to write (required)\n"
     "  --rate HZ                frames per second sampled (default 60)\n"
     "  --weights W,W,W,W,W      the feature groups' weights: foot positions, foot velocities, hip\n"
     "                           velocity, trajectory positions, trajectory directions (default 1s)\n"
     "  --unit-scale S           scale the models to metres (default: 0.01 when the hips stand\n"
     "                           higher than 10 units, else 1)\n"
     "  --mirror                 add every clip mirrored across the character's sagittal plane (left\n"
     "                           and right bones from the humanoid map; MM5): twice the frames\n"
     "options (demo):\n"
     "  --path P                 circle (3 m radius), zigzag (45 degrees each way every 3 s) or\n"
     "                           stop-and-go (3 s walking, 2 s standing), at 1.4 m/s (default circle)\n"
     "  --seconds S              how long (default 20)\n"
     "  --json                   one JSON object: trajectory_error_cm, foot_sliding_cm_per_s,\n"
     "                           searches_per_s, switches_per_s, mean_cost, frame_us, ...\n"
     "  --gif F.gif              the skeleton following the path; --size WxH (default 320x240),\n"
     "                           --fps F (default 15)\n"
     "  --no-foot-lock           play without foot locking (to see what it holds)\n"
     "  -h, --help               this text\n" MARROW_LOAD_OPTIONS
     "example:\n"
     "  marrow match build ../shared/assets/bvh/bandai-locomotion/*.bvh --out bandai.marrow\n"
     "  marrow match demo bandai.marrow --path zigzag --seconds 20 --gif zigzag.gif\n"},
    {"version",
     "usage: marrow version   (or marrow --version)\n"
     "marrow's version, build type, the SIMD level its kernels use on this processor (MARROW_SIMD=\n"
     "sse2|avx2|avx512 lowers it) and the versions of the libraries it was built with.\n"},
}};

#undef MARROW_LOAD_OPTIONS

}  // namespace

std::string_view general_usage() noexcept {
  return "usage: marrow <command> [options]   (marrow <command> --help: its options and an example)\n"
         "commands:\n"
         "  info FILE [--json]             what marrow imported: nodes, meshes, skins, clips, diagnostics\n"
         "  pose FILE [--clip C] [--time T] [--json]\n"
         "                                 the pose at that time (clamped, no looping); --json uses the\n"
         "                                 oracle's schema; layers, IK and root motion: pose --help\n"
         "  render FILE [--clip C] [--time T] [--out F.png] [--frames N] [--gif F.gif]\n"
         "                                 a picture of a pose, a contact sheet or an animated GIF\n"
         "  convert IN... OUT [--format marrow|glb|gltf]\n"
         "                                 to marrow's native format or glTF; several inputs into a folder\n"
         "  retarget SOURCE TARGET OUT [--clip NAME]... [--map auto|FILE.json] [--feet-ik] [--json]\n"
         "                                 SOURCE's clips on TARGET's humanoid rig, written to OUT\n"
         "  match build MODEL... --out DB.marrow | match demo DB.marrow [--path P] [--gif F.gif]\n"
         "                                 motion matching: a database of clips, a controller on a path\n"
         "  demo [FILE] [--out DIR]        play every clip of a model (default: the built-in character)\n"
         "  version                        version, build, SIMD level, library versions (also --version)\n"
         "  help [COMMAND]                 this text, or a command's\n"
         "FILE may be glTF (.gltf/.glb), native (.marrow), BVH (.bvh) or any format Assimp reads (.fbx, .dae, ...).\n"
         "Errors are one line on stderr; exit code 2 for usage, 1 for a refused file.\n";
}

std::string_view command_help(std::string_view command) noexcept {
  const auto it = std::find_if(kHelp.begin(), kHelp.end(), [&](const auto& h) { return h.first == command; });
  return it == kHelp.end() ? std::string_view{} : it->second;
}

bool asks_for_help(const Args& args) noexcept {
  return std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "-h" || a == "--help"; });
}

}  // namespace marrow::cli
