#pragma once
// The native reader's MMDB section (docs/native-format.md): motion matching's database over the
// model's animations (Model::motion_database). Private to src/io/native.
#include "marrow/model/model.hpp"
#include "native_section_reader.hpp"

namespace marrow::native {

// Reads MMDB into model.motion_database (ANIM read): counts checked against the limits and the
// bytes before allocating, then every value by MotionDatabase's stored-form constructor and the
// ranges against the animations (validate(MotionDatabase, Model)); refusals name the field.
void read_motion_database(SectionReader& r, Model& model);

}  // namespace marrow::native
