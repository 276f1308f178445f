#pragma once
// marrow's memory as numpy arrays. Matrices are indexed [row, column] with column vectors, as
// glTF writes them (M @ [x, y, z, 1]); marrow stores them column-major, so a view of a stored
// mat4 has strides (64, 4, 16) and its transpose(0, 2, 1) is a C-contiguous view of the stored
// bytes (what a GPU takes).
//
// Views (matrix_view, float_view) are read-only and keep `owner` (a Python object owning the
// memory) alive through their base. Vertex arrays are new float32 (N, 3) arrays, or the
// caller's own array (checked_vec3_out) so a frame loop need not allocate.
#include <cstddef>
#include <span>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

namespace marrow::python {

namespace py = pybind11;

// A read-only (n, 4, 4) float32 view of mats, [i, row, column].
py::array matrix_view(std::span<const glm::mat4> mats, py::handle owner);
// A read-only (n,) float32 view.
py::array float_view(std::span<const float> values, py::handle owner);

// A new C-contiguous (n, 4, 4) float32 copy of mats, [i, row, column].
py::array_t<float> matrix_copy(std::span<const glm::mat4> mats);
// Writes m into 16 floats, row-major: [row, column] of a C-contiguous (4, 4) array.
void store_row_major(const glm::mat4& m, float* out) noexcept;

// `out` when it is a writable C-contiguous float32 array of shape (n, 3) (ValueError naming
// `what` otherwise), a new one when out is None.
py::array_t<float> checked_vec3_out(const py::object& out, std::size_t n, const char* what);
// The (n, 3) float32 C-contiguous array as glm vectors (12 bytes each).
std::span<glm::vec3> vec3_span(py::array_t<float>& array);

}  // namespace marrow::python
