#pragma once
// The software renderer (marrow::render) in one include: it draws a Model and writes PNG.
#include "marrow/render/box_overlay.hpp"
#include "marrow/render/camera.hpp"
#include "marrow/render/draw_mesh_job.hpp"
#include "marrow/render/framebuffer.hpp"
#include "marrow/render/image.hpp"
#include "marrow/render/lighting.hpp"
#include "marrow/render/model_renderer.hpp"
#include "marrow/render/overlay_drawing.hpp"
#include "marrow/render/png_file.hpp"
#include "marrow/render/rasterizer.hpp"
#include "marrow/render/skeleton_overlay.hpp"
