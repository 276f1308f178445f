#pragma once
// marrow's native runtime format: a versioned, little-endian binary image of a whole Model that
// loads with little more than bounds checks and memcpy (docs/native-format.md gives the layout
// byte by byte).
//
//   header   "MRRW", u32 version (kNativeVersion; 1 and 2 are read too), u32 flags, u32 section count,
//            u64 file length
//   sections {u32 tag, u32 flags, u64 payload length, payload}: MATL materials, SMAT skinned
//            materials, BONE, SKIN, PRFX skeleton-root prefixes (optional), CCLP compressed
//            clips (version 2), MESH, FBND frame bounds (optional), ANIM, DIAG, SRCE, HUMN
//            humanoid map (optional), MMDB motion-matching database (optional). A reader
//            skips sections it does not know unless their "required" flag is set. Version 2
//            also adds each vertex layout's influence count and each part's skinning mode;
//            version 3 each part's flat-normal flag and palette_joints map (S4).
//
// Compressed clips (Skin::compressed_clips, compress_model_clips) are stored compressed only:
// CCLP holds their quantised keys and SKIN omits their authored clips, which the reader rebuilds
// as what the compressed clip plays (decompress_clip), as compress_model_clips left them. The
// reader builds each through make_compressed_clip, which checks every count, bit width, index
// and range, after checking the counts against the bytes and limits before allocating.
//
// Everything in a Model round-trips exactly (floats bitwise): shared materials and skinned
// materials are written once and shared again after reading; skinned-material palettes are
// drawing state and are not stored: the reader reinstalls each skin's bind-pose palette
// (apply_bind_pose_bone_transforms, M2), as the glTF importer does.
//
// G21: a skin's bone_count (and the model's bone count) must lie in 0..100000. A file without the
// PRFX block (NativeWriteOptions::write_root_prefix = false, or an older writer) loads with
// every skeleton_root_prefix EMPTY, which the player reads as identity prefixes (P8): posing is
// exactly that of bone_count identity matrices.
//
// The reader treats every file as hostile: framing, counts (before allocating, against
// ImportLimits and against the bytes that remain), enum values, string lengths and every index
// are checked, then validate(Model) runs. Refusals throw ImportError:
//   InvalidContainer  bad magic or header, truncation, a section or count overrunning its bytes,
//                     a missing or duplicated section, bytes left over inside a section
//   VersionMismatch   a version outside kNativeOldestVersion..kNativeVersion, an unknown section
//                     marked required
//   LimitExceeded     an ImportLimits value or the format's own caps (bones, strings)
//   IndexOutOfRange   a parent, bone, skin, mesh or material index naming no object
//   InvalidDocument   inconsistent content (enum values, sizes, anything validate() refuses)
// Messages name the section, object, index and value, e.g.
// "native: section 'SKIN' skin 2: bone_count 200001 exceeds 100000".
//
// Thread safety: the functions share no state; the returned Model is like any loaded Model.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "marrow/io/import_options.hpp"
#include "marrow/model/model.hpp"

namespace marrow {

// Version 2 (S1, S3, compressed clips): a vertex layout records its influence count, a part its
// skinning mode, and CCLP holds compressed clips. Version 3 (S4): a part records whether its
// normals are computed flat normals and its palette_joints map. Files of versions 1 and 2 still
// load (version 1: four influences, linear blending, no compressed clips; both: no split parts,
// flat normals where a part has source_vertices); the writer writes version 3.
inline constexpr std::uint32_t kNativeVersion = 3;
inline constexpr std::uint32_t kNativeOldestVersion = 1;

// The format's own caps (besides ImportLimits): bones per model and per skin (G21, the seed's
// .cnj range), a skinned material's max_bones, and the bytes of one string.
inline constexpr std::uint32_t kNativeMaxBones = 100'000;
inline constexpr std::uint32_t kNativeMaxStringBytes = 65'536;

struct NativeWriteOptions {
  // false omits the skeleton-root-prefix block (PRFX), as files of older writers do (G21 tests).
  bool write_root_prefix = true;
};

// Serialises the model. Throws std::invalid_argument for a model that read_native would refuse:
// one validate() refuses, or beyond the caps above, or with index maps out of range, a skin clip
// that is not JointPalette or a scene clip that is not SceneNode.
std::vector<std::byte> write_native(const Model& model, const NativeWriteOptions& options = {});

// The same into a file (replaced if present). Throws ImportError(IoError) when it cannot be written.
void write_native_file(const Model& model, const std::filesystem::path& path, const NativeWriteOptions& options = {});

// True when bytes start with the native magic "MRRW" (says nothing about the rest).
bool is_native(std::span<const std::byte> bytes) noexcept;

// Reads a native file from memory. Throws ImportError (codes above); never reads outside bytes.
Model read_native(std::span<const std::byte> bytes, const ImportLimits& limits = {});

// Reads a native file; errors are prefixed with the file name. IoError when it cannot be read,
// LimitExceeded when it is larger than limits.max_file_bytes.
Model read_native_file(const std::filesystem::path& path, const ImportLimits& limits = {});

// The same, finished with options (finish_import, ImportSource::NativeFile): the limits, and the
// clips compressed when options.compression asks; the file's units and palette split stay as
// written. What load_model_file reads.
Model read_native(std::span<const std::byte> bytes, const ImportOptions& options);
Model read_native_file(const std::filesystem::path& path, const ImportOptions& options);

}  // namespace marrow
