#pragma once
// The one exception a refused input file throws. Every code is documented in docs/errors.md;
// the message names the offending object and number, e.g.
// "accessor 12: byteOffset 4096 + count 300 * stride 12 exceeds bufferView 3 (2048 bytes)".
#include <stdexcept>
#include <string>
#include <string_view>

namespace marrow {

enum class ImportErrorCode {
  IoError,               // the file cannot be opened or read
  UnsupportedFormat,     // not a format marrow reads (e.g. a PNG named .glb: its signature is named)
  InvalidContainer,      // GLB header, chunk lengths or alignment; native-format framing
  InvalidJson,           // not well-formed JSON
  InvalidDocument,       // a required property is missing or has the wrong type or value
  InvalidUri,            // a URI scheme marrow refuses, or a path that leaves the file's folder
  UnsupportedExtension,  // an extension in extensionsRequired that marrow does not implement
  IndexOutOfRange,       // an index that names no object
  AccessorOutOfBounds,   // accessor or bufferView data beyond its buffer
  InvalidAccessor,       // component type, type, stride or sparse layout not allowed
  InvalidNodeGraph,      // a cycle, or a node with two parents
  InvalidSkin,           // duplicate joint, joint chain leaving the joint set, JOINTS beyond joints
  PaletteLimit,          // a skin with more joints than max_palette
  InvalidAnimation,      // non-finite or non-increasing key times, mismatched sampler sizes
  InvalidMesh,           // primitive attributes of different counts, bad indices
  LimitExceeded,         // an ImportOptions resource limit
  VersionMismatch,       // a file version marrow cannot read
  ExternalImporter,      // Assimp refused the file
  EmptyFile,             // the file has no bytes at all
};

std::string_view to_string(ImportErrorCode code) noexcept;

class ImportError : public std::runtime_error {
 public:
  ImportError(ImportErrorCode code, const std::string& message);
  ImportErrorCode code() const noexcept { return code_; }
  // The message without the "[code] " prefix that what() carries.
  const std::string& detail() const noexcept { return detail_; }

 private:
  ImportErrorCode code_;
  std::string detail_;
};

}  // namespace marrow
