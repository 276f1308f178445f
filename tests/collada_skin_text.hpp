#pragma once
// Test helper: the end of a hand-written Collada skin controller, shared by the Assimp tests that
// write Collada files in code.
#include <cstddef>
#include <ostream>
#include <sstream>
#include <utility>
#include <vector>

namespace marrow::test {

// Per vertex, its (joint, weight) influences.
using ColladaInfluences = std::vector<std::vector<std::pair<int, float>>>;

// Closes the inverse binds' float_array (the caller wrote `joints` matrices into it), then writes
// the weights source, the joints element and the vertex weights, up to </vertex_weights>.
inline void write_collada_skin_weights(std::ostream& x, int joints, const ColladaInfluences& influences) {
  std::vector<float> weights;
  std::ostringstream vcount, pairs;
  for (const auto& list : influences) {
    vcount << list.size() << ' ';
    for (const auto& [joint, weight] : list) {
      pairs << joint << ' ' << weights.size() << ' ';
      weights.push_back(weight);
    }
  }
  x << R"(</float_array><technique_common><accessor source="#skin-binds-array" count=")" << joints
    << R"(" stride="16"><param name="TRANSFORM" type="float4x4"/></accessor></technique_common></source>
<source id="skin-weights"><float_array id="skin-weights-array" count=")"
    << weights.size() << "\">";
  for (float w : weights) x << w << ' ';
  x << R"(</float_array><technique_common><accessor source="#skin-weights-array" count=")" << weights.size()
    << R"(" stride="1"><param name="WEIGHT" type="float"/></accessor></technique_common></source>
<joints><input semantic="JOINT" source="#skin-joints"/><input semantic="INV_BIND_MATRIX" source="#skin-binds"/></joints>
<vertex_weights count=")"
    << influences.size()
    << R"("><input semantic="JOINT" source="#skin-joints" offset="0"/><input semantic="WEIGHT" source="#skin-weights" offset="1"/>
<vcount>)"
    << vcount.str() << "</vcount><v>" << pairs.str() << "</v></vertex_weights>";
}

}  // namespace marrow::test
