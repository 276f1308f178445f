#include "numpy_arrays.hpp"

#include <string>

namespace marrow::python {

static_assert(sizeof(glm::vec3) == 3 * sizeof(float), "vec3 spans alias (N, 3) float32 arrays");
static_assert(sizeof(glm::mat4) == 16 * sizeof(float), "mat4 views stride 64 bytes");

namespace {

py::array read_only(py::array array) {
  array.attr("setflags")(py::arg("write") = false);
  return array;
}

}  // namespace

py::array matrix_view(std::span<const glm::mat4> mats, py::handle owner) {
  constexpr auto f = static_cast<py::ssize_t>(sizeof(float));
  const auto n = static_cast<py::ssize_t>(mats.size());
  // Column-major storage: element [row, column] at column * 4 + row.
  return read_only(py::array(py::dtype::of<float>(), {n, py::ssize_t{4}, py::ssize_t{4}}, {16 * f, f, 4 * f},
                             mats.empty() ? nullptr : &mats[0][0][0], owner));
}

py::array float_view(std::span<const float> values, py::handle owner) {
  const auto n = static_cast<py::ssize_t>(values.size());
  return read_only(py::array(py::dtype::of<float>(), {n}, {static_cast<py::ssize_t>(sizeof(float))},
                             values.empty() ? nullptr : values.data(), owner));
}

void store_row_major(const glm::mat4& m, float* out) noexcept {
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) out[r * 4 + c] = m[c][r];
  }
}

py::array_t<float> matrix_copy(std::span<const glm::mat4> mats) {
  py::array_t<float> out({static_cast<py::ssize_t>(mats.size()), py::ssize_t{4}, py::ssize_t{4}});
  float* data = out.mutable_data();
  for (std::size_t i = 0; i < mats.size(); ++i) store_row_major(mats[i], data + 16 * i);
  return out;
}

py::array_t<float> checked_vec3_out(const py::object& out, std::size_t n, const char* what) {
  const auto rows = static_cast<py::ssize_t>(n);
  if (out.is_none()) return py::array_t<float>({rows, py::ssize_t{3}});
  const auto bad = [&](const std::string& why) {
    return py::value_error(std::string(what) + ": out must be a writable C-contiguous float32 array of shape (" +
                           std::to_string(n) + ", 3); " + why);
  };
  if (!py::isinstance<py::array>(out)) throw bad("got " + std::string(py::str(py::type::of(out))));
  const auto array = out.cast<py::array>();
  if (!py::isinstance<py::array_t<float>>(out)) throw bad("its dtype is " + std::string(py::str(array.dtype())));
  if (array.ndim() != 2 || array.shape(0) != rows || array.shape(1) != 3) throw bad("its shape differs");
  if (!py::isinstance<py::array_t<float, py::array::c_style>>(out)) throw bad("it is not C-contiguous");
  if (!array.writeable()) throw bad("it is read-only");
  return py::reinterpret_borrow<py::array_t<float>>(array);
}

std::span<glm::vec3> vec3_span(py::array_t<float>& array) {
  return {reinterpret_cast<glm::vec3*>(array.mutable_data()), static_cast<std::size_t>(array.shape(0))};
}

}  // namespace marrow::python
