#pragma once
// A note about an accepted file: something marrow did not import or had to repair. Each code is
// an enum value with a stable kebab-case name (to_string; what JSON, the CLI, Python and the
// native format carry), listed with what it means in docs/errors.md beside ImportErrorCode.
// count says how many times it happened and message describes the first occurrence.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace marrow {

enum class DiagnosticCode : std::uint8_t {
  // glTF and every importer
  ChannelTargetOutsideScene,
  UnsupportedChannelPath,
  ChannelWithoutTarget,
  DuplicateChannel,
  WeightsChannelWithoutMorphTargets,
  SkinWeightsRenormalized,
  SkinWeightsZero,
  SkinWeightsNegative,
  SkinInfluencesReduced,
  PaletteLimitLoadedStatic,
  MorphWeightCountMismatch,
  IncompleteTriangleDropped,
  TangentsWithoutNormalsIgnored,
  MorphNormalsWithoutNormalsIgnored,
  ByteStrideOnNonVertexData,
  AccessorUnaligned,
  AccessorMinMaxIgnored,
  BufferLongerThanByteLength,
  BufferViewTargetUnknown,
  NodeMatrixAndTrs,
  MaterialAlphaModeUnknown,
  MeshTargetNamesIgnored,
  ClipNotCompressed,
  // Assimp (docs/formats.md, "Assimp")
  SkeletalDataNotLoaded,
  TicksPerSecondDefaulted,
  InvalidChannelKeys,
  ChannelKeysSorted,
  ChannelBehaviourIgnored,
  InvalidAnimationDuration,
  MeshChannelNotImported,
  MorphChannelNotImported,
  MorphTargetsNotImported,
  CamerasNotImported,
  LightsNotImported,
  TexturesNotImported,
  FbxPivotChannelRebased,
  BoneWithoutNode,
  InvalidBoneOffset,
  ConflictingBoneOffsets,
  SingularMeshNode,
  InvalidBoneWeight,
  BoneInfluencesLimited,
  UnweightedVertices,
  FacesDropped,
  NonFiniteNormals,
  MeshWithoutNode,
  AmbiguousNodeName,
  // glTF: VRM's humanoid map (Model::humanoid)
  VrmHumanoidEntryIgnored,
  VrmHumanoidDropped,
};

// The stable name, e.g. "channel-target-outside-scene".
std::string_view to_string(DiagnosticCode code) noexcept;
// The code with that name, or nothing (a name this version does not know).
std::optional<DiagnosticCode> diagnostic_code_from_string(std::string_view name) noexcept;

struct Diagnostic {
  DiagnosticCode code{};
  int count = 1;
  std::string message;
};

// Adds one occurrence of code: a new entry, or count + 1 on the existing one with that code.
void add_diagnostic(std::vector<Diagnostic>& list, DiagnosticCode code, std::string_view message, int count = 1);

// The entry with that code (or that code's name), or nullptr.
const Diagnostic* find_diagnostic(const std::vector<Diagnostic>& list, DiagnosticCode code) noexcept;
const Diagnostic* find_diagnostic(const std::vector<Diagnostic>& list, std::string_view name) noexcept;

}  // namespace marrow
