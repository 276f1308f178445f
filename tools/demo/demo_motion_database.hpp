#pragma once
// A motion-matching database over the built-in character's clips (demo_character.hpp) without
// motion capture: made-up features (a smooth curve per column), stored form only. A fixture of
// the native format's tests, its malformed corpus and the motion_database fuzz target's seeds.
#include "marrow/model/model.hpp"
#include "marrow/model/motion_database.hpp"

namespace marrow {

// Every clip of `model` (model 0) sampled at `rate` as MotionDatabase's constructor counts
// frames; rows of made-up features, mean 0 and scale 1.
MotionDatabaseData demo_motion_database_data(const Model& model, double rate = 60.0);

// make_demo_character() holding that database as its motion_database.
Model make_demo_character_with_motion_database();

}  // namespace marrow
