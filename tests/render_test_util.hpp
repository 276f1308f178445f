#pragma once
// Helpers shared by the renderer's tests: render one pose, and measure the shape in a picture
// (coverage in pixels, centroid, colour) against the flat background it was drawn on.
#include <cstddef>
#include <span>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "marrow/model/model.hpp"
#include "marrow/render/camera.hpp"
#include "marrow/render/image.hpp"
#include "marrow/render/model_renderer.hpp"

namespace marrow::test {

// The model at `seconds` of clip `clip` (-1: the loaded pose), drawn with settings.
render::Image render_pose(const Model& model, int clip, double seconds, const render::Camera& camera,
                          const render::RenderSettings& settings);

struct ShapeMeasure {
  double area = 0.0;          // pixels, partial coverage counted by its fraction
  glm::dvec2 centroid{0.0};   // pixel units, (0, 0) the top-left corner of the picture
  std::size_t touched = 0;    // pixels that differ from the background at all
  int min_x = 0, max_x = -1, min_y = 0, max_y = -1;  // bounding box of touched pixels
};

// Coverage of each pixel from its colour, between background (0) and shape colour (1), in
// linear light, where the supersampled average is linear.
ShapeMeasure measure_shape(const render::Image& image, const glm::vec3& background_linear, const glm::vec3& shape_linear);

// Pixels that differ from the background by more than `tolerance` in some channel.
ShapeMeasure touched_pixels(const render::Image& image, render::Rgba8 background, int tolerance = 2);

// Area and centroid of a simple polygon (shoelace), in the units of its points.
double polygon_area(std::span<const glm::dvec2> points);
glm::dvec2 polygon_centroid(std::span<const glm::dvec2> points);

// Where a model-space point lands in the picture, in pixels.
glm::dvec2 project_to_pixels(const render::Camera& camera, int width, int height, const glm::vec3& point);

}  // namespace marrow::test
