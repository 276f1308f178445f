#pragma once
// The public API of marrow in one include.
#include "marrow/core/diagnostic.hpp"
#include "marrow/core/finite.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/core/slerp.hpp"
#include "marrow/core/strided_span.hpp"
#include "marrow/core/ticks.hpp"
#include "marrow/core/trs.hpp"
#include "marrow/core/vertex_layout.hpp"

#include "marrow/anim/animation_clip.hpp"
#include "marrow/anim/animation_player.hpp"
#include "marrow/anim/bone_track.hpp"
#include "marrow/anim/keyframe.hpp"
#include "marrow/anim/track_sampler.hpp"

#include "marrow/skin/skinning_data.hpp"
#include "marrow/skin/skinning_job.hpp"

#include "marrow/morph/blend_morph_targets.hpp"
#include "marrow/morph/morph_target_data.hpp"
#include "marrow/morph/morph_weight_track.hpp"

#include "marrow/model/absolute_bone_transforms.hpp"
#include "marrow/model/animator.hpp"
#include "marrow/model/apply_clip_to_bones.hpp"
#include "marrow/model/bind_pose_palette.hpp"
#include "marrow/model/draw_item.hpp"
#include "marrow/model/material.hpp"
#include "marrow/model/model.hpp"
#include "marrow/model/set_morph_weights.hpp"
#include "marrow/model/skin.hpp"
#include "marrow/model/skinned_material.hpp"
