#include "assimp_worker_protocol.hpp"

#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "marrow/core/import_error.hpp"
#include "marrow/io/native/native_format.hpp"

namespace marrow::detail {

namespace {

// Every field of the options travels; a new one must be added to put_options/get_options (and
// the version raised), which this reminds whoever adds it.
static_assert(sizeof(ImportLimits) == 6 * 8, "a new ImportLimits field must travel to the Assimp worker");
static_assert(std::is_same_v<decltype(ImportOptions{}.unit_scale), float>);
static_assert(std::is_same_v<decltype(ImportOptions{}.max_influences), std::uint32_t>);
static_assert(sizeof(ClipCompression) == 3 * sizeof(float), "a new ClipCompression field must travel to the Assimp worker");

constexpr char kMagic[4] = {'M', 'R', 'W', 'Q'};

class Out {
 public:
  template <class T>
  void scalar(T v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto at = bytes.size();
    bytes.resize(at + sizeof v);
    std::memcpy(bytes.data() + at, &v, sizeof v);
  }
  void text(const std::string& s) {
    scalar<std::uint64_t>(s.size());
    const auto at = bytes.size();
    bytes.resize(at + s.size());
    if (!s.empty()) std::memcpy(bytes.data() + at, s.data(), s.size());
  }
  std::vector<std::byte> bytes;
};

class In {
 public:
  explicit In(std::span<const std::byte> bytes) : rest_(bytes) {}
  template <class T>
  T scalar() {
    T v{};
    take(&v, sizeof v);
    return v;
  }
  std::string text() {
    const auto size = scalar<std::uint64_t>();
    if (size > rest_.size()) throw std::runtime_error("a string runs past the end of the request");
    std::string s(reinterpret_cast<const char*>(rest_.data()), static_cast<std::size_t>(size));
    rest_ = rest_.subspan(static_cast<std::size_t>(size));
    return s;
  }
  std::span<const std::byte> rest() const { return rest_; }

 private:
  void take(void* out, std::size_t size) {
    if (size > rest_.size()) throw std::runtime_error("the request is cut short");
    std::memcpy(out, rest_.data(), size);
    rest_ = rest_.subspan(size);
  }
  std::span<const std::byte> rest_;
};

void put_options(Out& out, const AssimpOptions& o) {
  const ImportOptions& i = o.import;
  out.scalar<std::int32_t>(i.scene);
  out.scalar<std::int32_t>(i.max_palette);
  out.scalar<std::uint8_t>(static_cast<std::uint8_t>(i.palette_policy));
  out.scalar<std::uint8_t>(i.union_only ? 1 : 0);
  out.scalar<double>(i.curve_tolerance);
  out.scalar<float>(i.unit_scale);
  out.scalar<std::uint32_t>(i.max_influences);
  out.scalar<std::uint8_t>(i.compression ? 1 : 0);
  out.scalar<float>(i.compression.value_or(ClipCompression{}).tolerance);
  out.scalar<float>(i.compression.value_or(ClipCompression{}).distance);
  out.scalar<std::uint8_t>(i.compression.value_or(ClipCompression{}).segmented ? 1 : 0);
  out.scalar(i.limits.max_file_bytes);
  out.scalar(i.limits.max_total_bytes);
  out.scalar(i.limits.max_nodes);
  out.scalar(i.limits.max_accessor_elements);
  out.scalar(i.limits.max_animation_keys);
  out.scalar(i.limits.max_json_depth);
  out.scalar<std::int32_t>(o.max_bones);
  out.scalar<std::uint8_t>(o.ticks_per_second ? 1 : 0);
  out.scalar<double>(o.ticks_per_second.value_or(0.0));
  out.scalar<std::uint8_t>(o.load_skeletal_data ? 1 : 0);
  out.scalar<std::uint8_t>(o.skeleton_meshes ? 1 : 0);
}

AssimpOptions get_options(In& in) {
  AssimpOptions o;
  ImportOptions& i = o.import;
  i.scene = in.scalar<std::int32_t>();
  i.max_palette = in.scalar<std::int32_t>();
  const auto policy = in.scalar<std::uint8_t>();
  if (policy > static_cast<std::uint8_t>(PalettePolicy::Split)) throw std::runtime_error("unknown palette policy");
  i.palette_policy = static_cast<PalettePolicy>(policy);
  i.union_only = in.scalar<std::uint8_t>() != 0;
  i.curve_tolerance = in.scalar<double>();
  i.unit_scale = in.scalar<float>();
  i.max_influences = in.scalar<std::uint32_t>();
  const bool compressed = in.scalar<std::uint8_t>() != 0;
  ClipCompression compression;
  compression.tolerance = in.scalar<float>();
  compression.distance = in.scalar<float>();
  compression.segmented = in.scalar<std::uint8_t>() != 0;
  if (compressed) i.compression = compression;
  i.limits.max_file_bytes = in.scalar<std::uint64_t>();
  i.limits.max_total_bytes = in.scalar<std::uint64_t>();
  i.limits.max_nodes = in.scalar<std::uint64_t>();
  i.limits.max_accessor_elements = in.scalar<std::uint64_t>();
  i.limits.max_animation_keys = in.scalar<std::uint64_t>();
  i.limits.max_json_depth = in.scalar<std::uint32_t>();
  o.max_bones = in.scalar<std::int32_t>();
  const bool has_rate = in.scalar<std::uint8_t>() != 0;
  const auto rate = in.scalar<double>();
  if (has_rate) o.ticks_per_second = rate;
  o.load_skeletal_data = in.scalar<std::uint8_t>() != 0;
  o.skeleton_meshes = in.scalar<std::uint8_t>() != 0;
  o.isolation = AssimpOptions::Isolation::InProcess;
  return o;
}

}  // namespace

std::vector<std::byte> encode_worker_request(const WorkerRequest& request) {
  Out payload;
  payload.text(request.where);
  payload.scalar<std::uint8_t>(request.from_memory ? 1 : 0);
  payload.text(request.from_memory ? request.extension_hint : request.path);
  put_options(payload, request.options);
  payload.scalar<std::uint64_t>(request.from_memory ? request.bytes.size() : 0);
  Out out;
  for (const char c : kMagic) out.scalar(c);
  out.scalar(kWorkerProtocolVersion);
  out.scalar(request.limits.memory_bytes);
  out.scalar<std::uint32_t>(request.limits.cpu_seconds);
  const std::uint64_t payload_bytes = payload.bytes.size() + (request.from_memory ? request.bytes.size() : 0);
  out.scalar(payload_bytes);
  out.bytes.insert(out.bytes.end(), payload.bytes.begin(), payload.bytes.end());
  return std::move(out.bytes);
}

bool decode_worker_header(std::span<const std::byte, kWorkerHeaderBytes> header, WorkerHeader& out) {
  In in(header);
  for (const char c : kMagic) {
    if (in.scalar<char>() != c) return false;
  }
  if (in.scalar<std::uint32_t>() != kWorkerProtocolVersion) return false;
  out.limits.memory_bytes = in.scalar<std::uint64_t>();
  out.limits.cpu_seconds = in.scalar<std::uint32_t>();
  out.payload_bytes = in.scalar<std::uint64_t>();
  return true;
}

void decode_worker_payload(std::span<const std::byte> payload, WorkerRequest& out) {
  In in(payload);
  out.where = in.text();
  out.from_memory = in.scalar<std::uint8_t>() != 0;
  (out.from_memory ? out.extension_hint : out.path) = in.text();
  out.options = get_options(in);
  const auto size = in.scalar<std::uint64_t>();
  if (size != in.rest().size()) throw std::runtime_error("the request's byte count does not match its payload");
  out.bytes = in.rest();
}

std::vector<std::byte> encode_model_answer(const Model& model) {
  std::vector<std::byte> native = write_native(model);
  std::vector<std::byte> answer;
  answer.reserve(1 + native.size());
  answer.push_back(std::byte{'M'});
  answer.insert(answer.end(), native.begin(), native.end());
  return answer;
}

std::vector<std::byte> encode_error_answer(std::uint32_t code, const std::string& message) {
  Out out;
  out.scalar('E');
  out.scalar(code);
  out.bytes.resize(out.bytes.size() + message.size());
  if (!message.empty()) std::memcpy(out.bytes.data() + 5, message.data(), message.size());
  return std::move(out.bytes);
}

Model decode_worker_answer(std::span<const std::byte> answer, const std::string& where, const ImportLimits& read_limits) {
  if (!answer.empty() && answer[0] == std::byte{'E'} && answer.size() >= 5) {
    std::uint32_t code = 0;
    std::memcpy(&code, answer.data() + 1, 4);
    // A code this build does not know (a newer worker) is reported as the importer's failure.
    if (to_string(static_cast<ImportErrorCode>(code)) == "unknown") {
      code = static_cast<std::uint32_t>(ImportErrorCode::ExternalImporter);
    }
    throw ImportError(static_cast<ImportErrorCode>(code),
                      std::string(reinterpret_cast<const char*>(answer.data() + 5), answer.size() - 5));
  }
  if (answer.empty() || answer[0] != std::byte{'M'}) {
    throw ImportError(ImportErrorCode::ExternalImporter, where + ": the Assimp worker process gave an answer marrow cannot read");
  }
  return read_native(answer.subspan(1), read_limits);
}

}  // namespace marrow::detail
