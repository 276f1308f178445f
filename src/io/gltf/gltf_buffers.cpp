// Buffer bytes of a document: the GLB BIN chunk, base64 data: URIs, or files next to the .gltf.
// A URI is hostile input: only data: and relative paths inside the file's folder are read, and
// every size is checked against byteLength and the limits before anything is allocated.
#include "marrow/io/gltf/detail/gltf_buffers.hpp"

#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <string>
#include <system_error>
#include <vector>

#include "marrow/core/import_error.hpp"
#include "marrow/io/file_bytes.hpp"
#include "marrow/io/gltf/detail/glb.hpp"
#include "marrow/io/gltf/detail/gltf_json.hpp"

namespace marrow::gltf {
namespace {

[[noreturn]] void fail(ImportErrorCode code, const std::string& message) { throw ImportError(code, message); }

std::string num(std::uint64_t v) { return std::to_string(v); }

// A URI for a message, cut short so a megabyte of base64 does not end up in it.
std::string show_uri(std::string_view uri) {
  if (uri.size() <= 60) return "'" + std::string(uri) + "'";
  return "'" + std::string(uri.substr(0, 60)) + "...'";
}

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) noexcept {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != prefix[i]) return false;
  }
  return true;
}

// RFC 3986 scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":". Empty when there is none.
std::string_view uri_scheme(std::string_view uri) noexcept {
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (uri.empty() || !alpha(uri[0])) return {};
  for (std::size_t i = 1; i < uri.size(); ++i) {
    const char c = uri[i];
    if (c == ':') return uri.substr(0, i);
    if (!alpha(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.') return {};
  }
  return {};
}

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decode(std::string_view text, const std::string& where) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    const int high = i + 1 < text.size() ? hex_value(text[i + 1]) : -1;
    const int low = i + 2 < text.size() ? hex_value(text[i + 2]) : -1;
    if (high < 0 || low < 0) {
      fail(ImportErrorCode::InvalidUri,
           where + ": bad percent-escape at character " + num(i) + " of URI " + show_uri(text));
    }
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

// The relative path of a URI as folder components, refusing anything that is not plainly a file
// inside the glTF's folder.
std::filesystem::path safe_relative_path(std::string_view uri, const std::string& where) {
  // A query or fragment is not part of the file name.
  const std::string_view path_part = uri.substr(0, uri.find_first_of("?#"));
  std::string decoded = percent_decode(path_part, where);
  if (decoded.find('\0') != std::string::npos) {
    fail(ImportErrorCode::InvalidUri, where + ": URI " + show_uri(uri) + " holds a NUL character");
  }
  // Windows exporters write backslashes; treating them as separators also keeps "..\\" from
  // sneaking past the check below.
  for (char& c : decoded) {
    if (c == '\\') c = '/';
  }
  if (!decoded.empty() && decoded[0] == '/') {
    fail(ImportErrorCode::InvalidUri, where + ": absolute path " + show_uri(decoded) + " is not allowed");
  }
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= decoded.size()) {
    std::size_t end = decoded.find('/', start);
    if (end == std::string::npos) end = decoded.size();
    const std::string part = decoded.substr(start, end - start);
    if (part == "..") {
      if (parts.empty()) {
        fail(ImportErrorCode::InvalidUri,
             where + ": path " + show_uri(decoded) + " leaves the folder of the glTF file");
      }
      parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    start = end + 1;
  }
  if (parts.empty()) fail(ImportErrorCode::InvalidUri, where + ": URI " + show_uri(uri) + " names no file");
  std::filesystem::path out;
  for (const std::string& part : parts) out /= part;
  return out;
}

void note_longer(std::vector<Diagnostic>& diagnostics, const std::string& where, const char* source,
                 std::uint64_t available, std::uint64_t byte_length) {
  // Up to 3 bytes of padding are normal for a GLB chunk; more means the lengths disagree.
  if (available > byte_length + 3) {
    add_diagnostic(diagnostics, DiagnosticCode::BufferLongerThanByteLength,
                   where + ": " + source + " holds " + num(available) + " bytes, byteLength is " + num(byte_length) +
                       "; the first byteLength bytes are used");
  }
}

std::vector<std::byte> glb_buffer(const Buffer& buffer, const BufferSources& sources, const std::string& where,
                                  std::vector<Diagnostic>& diagnostics) {
  if (sources.glb_bin.size() < buffer.byte_length) {
    fail(ImportErrorCode::AccessorOutOfBounds, where + ": GLB BIN chunk has " + num(sources.glb_bin.size()) +
                                                   " bytes, byteLength is " + num(buffer.byte_length));
  }
  note_longer(diagnostics, where, "the GLB BIN chunk", sources.glb_bin.size(), buffer.byte_length);
  if (sources.borrow_glb_bin) return {};
  const auto first = sources.glb_bin.first(static_cast<std::size_t>(buffer.byte_length));
  return std::vector<std::byte>(first.begin(), first.end());
}

std::vector<std::byte> data_uri_buffer(const Buffer& buffer, const std::string& where,
                                       std::vector<Diagnostic>& diagnostics) {
  const std::string_view uri = buffer.uri;
  const std::size_t comma = uri.find(',');
  if (comma == std::string_view::npos) {
    fail(ImportErrorCode::InvalidUri, where + ": data: URI " + show_uri(uri) + " has no ','");
  }
  const std::string_view header = uri.substr(0, comma);  // data:<mime>;base64
  if (header.size() < 12 || !starts_with_ignoring_case(header.substr(header.size() - 7), ";base64")) {
    fail(ImportErrorCode::InvalidUri,
         where + ": data: URI " + show_uri(uri) + " is not base64 (only ';base64,' data is read)");
  }
  std::vector<std::byte> bytes;
  try {
    bytes = decode_base64(uri.substr(comma + 1));
  } catch (const ImportError& e) {
    fail(ImportErrorCode::InvalidUri, where + ": data: URI " + e.detail());
  }
  if (bytes.size() < buffer.byte_length) {
    fail(ImportErrorCode::AccessorOutOfBounds,
         where + ": data: URI holds " + num(bytes.size()) + " bytes, byteLength is " + num(buffer.byte_length));
  }
  note_longer(diagnostics, where, "the data: URI", bytes.size(), buffer.byte_length);
  bytes.resize(static_cast<std::size_t>(buffer.byte_length));
  return bytes;
}

std::vector<std::byte> file_buffer(const Buffer& buffer, const BufferSources& sources, const std::string& where,
                                   std::vector<Diagnostic>& diagnostics) {
  if (sources.base_dir == nullptr) {
    fail(ImportErrorCode::InvalidUri,
         where + ": external file " + show_uri(buffer.uri) + " cannot be read (no folder for relative URIs)");
  }
  const std::filesystem::path path = *sources.base_dir / safe_relative_path(buffer.uri, where);
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::is_regular_file(status)) {
    fail(ImportErrorCode::IoError,
         where + ": cannot read '" + path.string() + "': " + (ec ? ec.message() : std::string("not a regular file")));
  }
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) fail(ImportErrorCode::IoError, where + ": cannot read '" + path.string() + "': " + ec.message());
  if (size < buffer.byte_length) {
    fail(ImportErrorCode::AccessorOutOfBounds, where + ": file '" + path.string() + "' has " + num(size) +
                                                   " bytes, byteLength is " + num(buffer.byte_length));
  }
  note_longer(diagnostics, where, "the file", size, buffer.byte_length);
  ImportLimits file_limits;
  file_limits.max_file_bytes = std::max<std::uint64_t>(size, buffer.byte_length);  // checked above against max_total_bytes
  const FileBytes file = read_file(path, file_limits);
  if (file.size() < buffer.byte_length) {
    fail(ImportErrorCode::IoError,
         where + ": cannot read " + num(buffer.byte_length) + " bytes from '" + path.string() + "'");
  }
  std::vector<std::byte> bytes(file.data(), file.data() + buffer.byte_length);
  return bytes;
}

}  // namespace

std::vector<std::vector<std::byte>> load_gltf_buffers(const Document& document, const BufferSources& sources,
                                                      const ImportLimits& limits,
                                                      std::vector<Diagnostic>& diagnostics) {
  std::vector<std::vector<std::byte>> out;
  out.reserve(document.buffers.size());
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < document.buffers.size(); ++i) {
    const Buffer& buffer = document.buffers[i];
    const std::string where = "buffer " + num(i);
    // total never exceeds the limit, so the subtraction cannot wrap.
    if (buffer.byte_length > limits.max_total_bytes - total) {
      fail(ImportErrorCode::LimitExceeded, where + ": byteLength " + num(buffer.byte_length) + " after " + num(total) +
                                               " bytes of earlier buffers exceeds limit max_total_bytes " +
                                               num(limits.max_total_bytes));
    }
    if (buffer.meshopt_fallback) {
      // No bytes of its own: only the meshopt views decoded into its range are read (as buffers
      // of their own, gltf_meshopt.hpp); a plain view into it reads nothing and is refused.
      out.emplace_back();
      continue;
    }
    total += buffer.byte_length;
    if (buffer.uri.empty()) {
      if (i != 0 || !sources.has_glb_bin) {
        fail(ImportErrorCode::InvalidDocument,
             where + ": has no uri (only buffer 0 of a .glb with a BIN chunk may omit it)");
      }
      out.push_back(glb_buffer(buffer, sources, where, diagnostics));
    } else if (starts_with_ignoring_case(buffer.uri, "data:")) {
      out.push_back(data_uri_buffer(buffer, where, diagnostics));
    } else if (const std::string_view scheme = uri_scheme(buffer.uri); !scheme.empty()) {
      fail(ImportErrorCode::InvalidUri,
           where + ": URI scheme '" + std::string(scheme) + ":' is not read (only data: URIs and relative paths)");
    } else {
      out.push_back(file_buffer(buffer, sources, where, diagnostics));
    }
  }
  return out;
}

GltfAsset read_gltf_asset(std::span<const std::byte> bytes, BufferSources& sources, const ImportLimits& limits,
                          std::vector<Diagnostic>& diagnostics) {
  std::string_view json(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (is_glb(bytes)) {
    const GlbChunks chunks = parse_glb(bytes);
    json = chunks.json;
    sources.glb_bin = chunks.bin;
    sources.has_glb_bin = chunks.has_bin;
  }
  GltfAsset asset;
  asset.document = parse_gltf_json(json, limits, diagnostics);
  asset.buffers = load_gltf_buffers(asset.document, sources, limits, diagnostics);
  return asset;
}

}  // namespace marrow::gltf
