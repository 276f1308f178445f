// convert(): what `marrow convert IN OUT` does for one file: load any format, scale units when
// asked (G18), compress skeletal clips when asked, write glTF (.glb, .gltf) or marrow's native
// format (any other name).
#include <filesystem>
#include <optional>
#include <span>
#include <string>

#include <pybind11/stl.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "load_options.hpp"
#include "loaded_model.hpp"
#include "marrow/io/file_identity.hpp"
#include "marrow/io/model_file.hpp"
#include "marrow/model/compress_model_clips.hpp"
#include "marrow/model/unit_scale.hpp"

namespace marrow::python {

void bind_convert(py::module_& m) {
  m.def(
      "convert",
      [](const py::object& source, const py::object& destination, float unit_scale, std::optional<float> compress, bool segmented,
         std::optional<int> scene, int max_palette, const std::string& palette, std::optional<double> ticks_per_second,
         bool skeletal) {
        const std::string out = path_text(destination);
        std::shared_ptr<LoadedModel> loaded;
        std::string in;
        if (py::isinstance<LoadedModel>(source)) {
          loaded = source.cast<std::shared_ptr<LoadedModel>>();
          loaded->freeze();
        } else {
          in = path_text(source);
          const std::filesystem::path input(in);
          refuse_writing_over(out, std::span<const std::filesystem::path>(&input, 1));  // ValueError
        }
        if (segmented && !compress) throw py::value_error("convert: segmented=True applies to compress=TOL");
        const ModelFileOptions options = load_options(scene, max_palette, palette, ticks_per_second, skeletal);
        std::string uncompressed;  // clips compress left as they were, and why (empty: none)
        {
          py::gil_scoped_release unlocked;
          if (loaded && unit_scale == 1.f && !compress) {
            write_model_file(loaded->model(), out);
          } else {
            Model model = loaded ? loaded->model() : load_model_file(in, options);  // a copy: scaling changes it
            if (unit_scale != 1.f) apply_unit_scale(model, unit_scale);
            if (compress) {
              ClipCompression compression = ClipCompression::at_tolerance(*compress);
              compression.segmented = segmented;
              compress_model_clips(model, compression);  // ValueError for a bad tolerance
              uncompressed = uncompressed_clips(model);
            }
            write_model_file(model, out);
          }
        }
        // As the command line's warnings: the file is written and its clips play exactly, but
        // whoever asked for compression must see what was left.
        if (!uncompressed.empty() && PyErr_WarnEx(PyExc_UserWarning, uncompressed.c_str(), 1) != 0) throw py::error_already_set();
      },
      py::arg("source"), py::arg("destination"), py::kw_only(), py::arg("unit_scale") = 1.f, py::arg("compress") = py::none(), py::arg("segmented") = false,
      py::arg("scene") = py::none(), py::arg("max_palette") = 72, py::arg("palette") = "refuse",
      py::arg("ticks_per_second") = py::none(), py::arg("skeletal") = true,
      R"(Converts a file (any format marrow loads, or a loaded Model) to glTF (destination ending in
.glb or .gltf) or marrow's native format (any other name, e.g. .marrow), as `marrow convert`.
unit_scale multiplies translations (G18). compress=TOL compresses skeletal clips as
`marrow convert --compress TOL`: points 100 TOL from every joint move at most TOL, in the model's
units (after unit_scale); a clip that cannot be held to it is written as it was, with a
UserWarning saying why. segmented=True stores them as segments of samples (`--segmented`). The
loading keywords are load()'s.)");
}

}  // namespace marrow::python
