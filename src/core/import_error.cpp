#include "marrow/core/import_error.hpp"

namespace marrow {

std::string_view to_string(ImportErrorCode code) noexcept {
  switch (code) {
    case ImportErrorCode::IoError: return "io-error";
    case ImportErrorCode::UnsupportedFormat: return "unsupported-format";
    case ImportErrorCode::InvalidContainer: return "invalid-container";
    case ImportErrorCode::InvalidJson: return "invalid-json";
    case ImportErrorCode::InvalidDocument: return "invalid-document";
    case ImportErrorCode::InvalidUri: return "invalid-uri";
    case ImportErrorCode::UnsupportedExtension: return "unsupported-extension";
    case ImportErrorCode::IndexOutOfRange: return "index-out-of-range";
    case ImportErrorCode::AccessorOutOfBounds: return "accessor-out-of-bounds";
    case ImportErrorCode::InvalidAccessor: return "invalid-accessor";
    case ImportErrorCode::InvalidNodeGraph: return "invalid-node-graph";
    case ImportErrorCode::InvalidSkin: return "invalid-skin";
    case ImportErrorCode::PaletteLimit: return "palette-limit";
    case ImportErrorCode::InvalidAnimation: return "invalid-animation";
    case ImportErrorCode::InvalidMesh: return "invalid-mesh";
    case ImportErrorCode::LimitExceeded: return "limit-exceeded";
    case ImportErrorCode::VersionMismatch: return "version-mismatch";
    case ImportErrorCode::ExternalImporter: return "external-importer";
    case ImportErrorCode::EmptyFile: return "empty-file";
  }
  return "unknown";
}

namespace {

std::string prefixed(ImportErrorCode code, const std::string& message) {
  std::string out;
  out.reserve(message.size() + 32);
  out.append(1, '[').append(to_string(code)).append("] ").append(message);
  return out;
}

}  // namespace

ImportError::ImportError(ImportErrorCode code, const std::string& message)
    : std::runtime_error(prefixed(code, message)), code_(code), detail_(message) {}

}  // namespace marrow
