#include "assimp_mesh.hpp"

#include <assimp/material.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <glm/gtc/type_precision.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <string>
#include <utility>

#include "marrow/core/finite.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/core/vertex_access.hpp"
#include "marrow/runtime/offline/skin_influences.hpp"

namespace marrow::assimp {

namespace {

using A = VertexAttribute;

glm::vec3 vec3_of(const aiVector3D& v) { return glm::vec3(v.x, v.y, v.z); }

// Every vertex's influences (S1): rows of `slots` (a multiple of 4: sets of four, as glTF
// stores them) joints and weights, largest weight first, zeros after the vertex's own.
struct Influences {
  std::size_t slots = 4;
  std::vector<std::uint16_t> joints;
  std::vector<float> weights;
};

// Per vertex: every (joint, weight) pair of every bone, duplicates of one joint summed, sorted
// by weight (ties: lower palette index first), renormalised; at most `keep` of them
// (ImportOptions::max_influences, 0: all) and never more than kMaxInfluences.
Influences influences(const aiMesh& mesh, const std::vector<int>& bone_to_palette, std::uint32_t keep,
                      ImportBudget& budget, const std::string& here,
                      std::vector<Diagnostic>& diagnostics) {
  const std::size_t n = mesh.mNumVertices;
  // Two passes over the bones (count, then fill) keep every vertex's influences in one array.
  std::vector<std::uint32_t> start(n + 1, 0);
  std::size_t bad = 0;
  const auto valid = [&](const aiVertexWeight& w) { return w.mVertexId < n; };
  for (unsigned b = 0; b < mesh.mNumBones; ++b) {
    const aiBone* bone = mesh.mBones[b];
    if (bone == nullptr || bone->mWeights == nullptr || b >= bone_to_palette.size()) continue;
    for (unsigned k = 0; k < bone->mNumWeights; ++k) {
      if (valid(bone->mWeights[k])) ++start[bone->mWeights[k].mVertexId + 1];
    }
  }
  for (std::size_t v = 0; v < n; ++v) start[v + 1] += start[v];
  budget.charge(std::uint64_t{start[n]} * sizeof(std::pair<float, int>), here);
  std::vector<std::pair<float, int>> all(start[n]);
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (unsigned b = 0; b < mesh.mNumBones; ++b) {
    const aiBone* bone = mesh.mBones[b];
    if (bone == nullptr || bone->mWeights == nullptr || b >= bone_to_palette.size()) continue;
    for (unsigned k = 0; k < bone->mNumWeights; ++k) {
      const aiVertexWeight& w = bone->mWeights[k];
      if (!valid(w)) {
        ++bad;
        continue;
      }
      float weight = w.mWeight;
      if (!std::isfinite(weight) || weight < 0.f) {
        ++bad;
        weight = 0.f;
      }
      all[fill[w.mVertexId]++] = {weight, bone_to_palette[b]};
    }
  }
  if (bad > 0) {
    add_diagnostic(
        diagnostics, DiagnosticCode::InvalidBoneWeight,
        here + ": " + std::to_string(bad) + " bone weights name no vertex or are not finite and >= 0; ignored",
        static_cast<int>(bad));
  }

  // Per vertex: merged by joint, sorted by weight, zeros dropped.
  std::vector<std::uint32_t> count(n, 0);
  const auto merged = [&](std::size_t v) {
    const auto first = all.begin() + start[v], last = all.begin() + start[v + 1];
    std::sort(first, last, [](const auto& a, const auto& b) { return a.second < b.second; });
    auto out = first;
    for (auto it = first; it != last; ++it) {
      if (out != first && (out - 1)->second == it->second) {
        (out - 1)->first += it->first;
      } else {
        *out++ = *it;
      }
    }
    std::stable_sort(first, out, [](const auto& a, const auto& b) { return a.first > b.first; });
    while (out != first && (out - 1)->first <= 0.f) --out;
    return static_cast<std::uint32_t>(out - first);
  };
  const std::uint32_t cap = keep > 0 && keep < kMaxInfluences ? keep : kMaxInfluences;
  std::uint32_t widest = 1;
  std::size_t limited = 0, capped = 0;
  for (std::size_t v = 0; v < n; ++v) {
    count[v] = merged(v);
    if (count[v] > cap) {
      ++(keep > 0 && keep < kMaxInfluences ? limited : capped);
      count[v] = cap;
    }
    widest = std::max(widest, count[v]);
  }
  Influences out;
  out.slots = (widest + 3) / 4 * 4;
  budget.charge(std::uint64_t{n} * out.slots * (sizeof(std::uint16_t) + sizeof(float)), here);
  out.joints.assign(n * out.slots, 0);
  out.weights.assign(n * out.slots, 0.f);
  std::size_t renormalised = 0, unweighted = 0;
  for (std::size_t v = 0; v < n; ++v) {
    const auto first = all.begin() + start[v];
    float sum = 0.f;
    for (std::uint32_t k = 0; k < count[v]; ++k) sum += first[k].first;
    if (sum <= 0.f) {
      ++unweighted;
      out.weights[v * out.slots] = 1.f;  // rides on the first root joint
      continue;
    }
    if (weights_need_renormalising(sum)) ++renormalised;
    for (std::uint32_t k = 0; k < count[v]; ++k) {
      out.joints[v * out.slots + k] = static_cast<std::uint16_t>(first[k].second);
      out.weights[v * out.slots + k] = first[k].first / sum;
    }
  }
  if (limited > 0) {
    add_diagnostic(diagnostics, DiagnosticCode::SkinInfluencesReduced,
                   here + ": " + std::to_string(limited) + " vertices had more than " + std::to_string(keep) +
                       " nonzero weights; the " + std::to_string(keep) +
                       " largest are kept, renormalised (ImportOptions::max_influences)",
                   static_cast<int>(limited));
  }
  if (capped > 0) {
    add_diagnostic(diagnostics, DiagnosticCode::BoneInfluencesLimited,
                   here + ": " + std::to_string(capped) + " vertices had more than " + std::to_string(kMaxInfluences) +
                       " influences; the " + std::to_string(kMaxInfluences) + " largest are kept (marrow's cap)",
                   static_cast<int>(capped));
  }
  if (renormalised > 0) {
    add_diagnostic(diagnostics, DiagnosticCode::SkinWeightsRenormalized,
                   here + ": " + std::to_string(renormalised) + " vertices' weights did not sum to 1",
                   static_cast<int>(renormalised));
  }
  if (unweighted > 0) {
    add_diagnostic(diagnostics, DiagnosticCode::UnweightedVertices,
                   here + ": " + std::to_string(unweighted) + " vertices have no bone weight; bound to palette joint 0",
                   static_cast<int>(unweighted));
  }
  return out;
}

}  // namespace

std::vector<std::shared_ptr<Material>> make_materials(const aiScene& scene) {
  std::vector<std::shared_ptr<Material>> out;
  for (unsigned i = 0; i < scene.mNumMaterials; ++i) {
    auto material = std::make_shared<Material>();
    material->source_material = static_cast<int>(i);
    const aiMaterial* source = scene.mMaterials == nullptr ? nullptr : scene.mMaterials[i];
    if (source != nullptr) {
      aiString name;
      if (source->Get(AI_MATKEY_NAME, name) == aiReturn_SUCCESS) material->name = name.C_Str();
      aiColor4D color(1.f, 1.f, 1.f, 1.f);
      if (source->Get(AI_MATKEY_BASE_COLOR, color) == aiReturn_SUCCESS) {
        material->base_color = glm::vec4(color.r, color.g, color.b, color.a);
      } else if (source->Get(AI_MATKEY_COLOR_DIFFUSE, color) == aiReturn_SUCCESS) {
        float opacity = 1.f;
        if (source->Get(AI_MATKEY_OPACITY, opacity) != aiReturn_SUCCESS) opacity = color.a;
        material->base_color = glm::vec4(color.r, color.g, color.b, opacity);
      }
      if (!is_finite(material->base_color)) material->base_color = glm::vec4(1.f);
      int two_sided = 0;
      if (source->Get(AI_MATKEY_TWOSIDED, two_sided) == aiReturn_SUCCESS) material->double_sided = two_sided != 0;
    }
    out.push_back(std::move(material));
  }
  out.push_back(std::make_shared<Material>(Material{"default", glm::vec4(1.f), false, -1}));
  return out;
}

namespace {

void check_size(const aiMesh& mesh, const ImportLimits& limits, const std::string& here) {
  const std::size_t n = mesh.mNumVertices;
  if (n == 0 || mesh.mVertices == nullptr) throw ImportError(ImportErrorCode::InvalidMesh, here + ": has no vertices");
  if (n > limits.max_accessor_elements || mesh.mNumFaces > limits.max_accessor_elements) {
    throw ImportError(ImportErrorCode::LimitExceeded, here + ": " + std::to_string(n) + " vertices / " +
                                                          std::to_string(mesh.mNumFaces) +
                                                          " faces exceed ImportLimits::max_accessor_elements (" +
                                                          std::to_string(limits.max_accessor_elements) + ")");
  }
}

// One primitive kind per part (SortByPType split the meshes): the corners of its faces.
unsigned corners_of(const aiMesh& mesh) {
  const unsigned kinds = mesh.mPrimitiveTypes;
  return (kinds & aiPrimitiveType_TRIANGLE) ? 3 : (kinds & aiPrimitiveType_LINE) ? 2 : (kinds & aiPrimitiveType_POINT) ? 1 : 3;
}

// The faces of `corners` corners as indices, each checked to be below the vertex count; faces of
// any other kind are dropped (counted in a diagnostic).
std::vector<std::uint32_t> read_faces(const aiMesh& mesh, unsigned corners, const std::string& here, ImportBudget& budget,
                                      std::vector<Diagnostic>& diagnostics) {
  const std::size_t n = mesh.mNumVertices;
  std::size_t dropped = 0;
  std::vector<std::uint32_t> indices;
  if (mesh.mFaces != nullptr) {
    budget.charge(std::uint64_t{mesh.mNumFaces} * corners * sizeof(std::uint32_t), here);
    indices.reserve(std::size_t{mesh.mNumFaces} * corners);
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices != corners || face.mIndices == nullptr) {
        ++dropped;
        continue;
      }
      for (unsigned k = 0; k < corners; ++k) {
        if (face.mIndices[k] >= n) {
          throw ImportError(ImportErrorCode::InvalidMesh, here + ": face " + std::to_string(f) + " index " +
                                                              std::to_string(face.mIndices[k]) +
                                                              " is not below the vertex count " + std::to_string(n));
        }
        indices.push_back(face.mIndices[k]);
      }
    }
  }
  if (dropped > 0) {
    add_diagnostic(diagnostics, DiagnosticCode::FacesDropped,
                   here + ": " + std::to_string(dropped) + " faces with other than " + std::to_string(corners) +
                       " corners are not imported",
                   static_cast<int>(dropped));
  }
  return indices;
}

// marrow's attribute order over what the mesh has (tangents only with normals and bitangents).
VertexLayout layout_of(const aiMesh& mesh, bool skinned, std::size_t slots) {
  VertexLayout layout;
  layout.influences = static_cast<std::uint32_t>(slots);
  const bool normals = mesh.mNormals != nullptr;
  const bool tangents = normals && mesh.mTangents != nullptr && mesh.mBitangents != nullptr;
  const std::pair<A, bool> present[] = {{A::Position, true},
                                        {A::Normal, normals},
                                        {A::Tangent, tangents},
                                        {A::TexCoord0, mesh.mTextureCoords[0] != nullptr},
                                        {A::TexCoord1, mesh.mTextureCoords[1] != nullptr},
                                        {A::Color0, mesh.mColors[0] != nullptr},
                                        {A::Joints0, skinned},
                                        {A::Weights0, skinned}};
  std::uint32_t offset = 0;
  for (const auto& [attribute, on] : present) {
    if (!on) continue;
    layout.set(attribute, static_cast<std::int32_t>(offset));
    offset += layout.size(attribute);
  }
  layout.stride = offset;
  return layout;
}

// Every attribute but the skin's into part.vertex_bytes (sized for the layout): a position that
// is not finite is refused, a normal that is not finite becomes zero (counted in a diagnostic).
void write_vertices(const aiMesh& mesh, ModelMeshPart& part, const std::string& here, std::vector<Diagnostic>& diagnostics) {
  const std::span<std::byte> bytes(part.vertex_bytes);
  const bool normals = part.layout.has(A::Normal), tangents = part.layout.has(A::Tangent), color = part.layout.has(A::Color0);
  std::size_t bad_normals = 0;
  for (std::size_t v = 0; v < mesh.mNumVertices; ++v) {
    const glm::vec3 position = vec3_of(mesh.mVertices[v]);
    if (!is_finite(position)) {
      throw ImportError(ImportErrorCode::InvalidMesh, here + ": vertex " + std::to_string(v) + " position is not finite");
    }
    write_attribute(bytes, part.layout, v, A::Position, position);
    if (normals) {
      glm::vec3 normal = vec3_of(mesh.mNormals[v]);
      if (!is_finite(normal)) {
        ++bad_normals;
        normal = glm::vec3(0.f);
      }
      write_attribute(bytes, part.layout, v, A::Normal, normal);
      if (tangents) {
        glm::vec3 t = vec3_of(mesh.mTangents[v]);
        const glm::vec3 b = vec3_of(mesh.mBitangents[v]);
        if (!is_finite(t)) t = glm::vec3(0.f);
        // glTF: bitangent = cross(normal, tangent) * w.
        const float w = glm::dot(glm::cross(normal, t), b) < 0.f ? -1.f : 1.f;
        write_attribute(bytes, part.layout, v, A::Tangent, glm::vec4(t, w));
      }
    }
    for (unsigned channel = 0; channel < 2; ++channel) {
      if (mesh.mTextureCoords[channel] == nullptr) continue;
      const aiVector3D& uv = mesh.mTextureCoords[channel][v];
      write_attribute(bytes, part.layout, v, channel == 0 ? A::TexCoord0 : A::TexCoord1, glm::vec2(uv.x, uv.y));
    }
    if (color) {
      const aiColor4D& c = mesh.mColors[0][v];
      write_attribute(bytes, part.layout, v, A::Color0, glm::vec4(c.r, c.g, c.b, c.a));
    }
  }
  if (bad_normals > 0) {
    add_diagnostic(diagnostics, DiagnosticCode::NonFiniteNormals,
                   here + ": " + std::to_string(bad_normals) + " normals are not finite; set to zero",
                   static_cast<int>(bad_normals));
  }
}

// Every influence (S1), in rows of skin.slots, into the JOINTS and WEIGHTS of n vertices.
void write_skin(const Influences& skin, std::size_t n, ModelMeshPart& part) {
  std::byte* joint_slot = part.vertex_bytes.data() + part.layout.offset(A::Joints0);
  std::byte* weight_slot = part.vertex_bytes.data() + part.layout.offset(A::Weights0);
  for (std::size_t v = 0; v < n; ++v) {
    std::memcpy(joint_slot + v * part.layout.stride, &skin.joints[v * skin.slots], skin.slots * sizeof(std::uint16_t));
    std::memcpy(weight_slot + v * part.layout.stride, &skin.weights[v * skin.slots], skin.slots * sizeof(float));
  }
}

}  // namespace

ModelMeshPart build_part(const aiMesh& mesh, unsigned mesh_index, const std::vector<int>* bone_to_palette,
                         const ImportOptions& options, ImportBudget& budget, std::vector<Diagnostic>& diagnostics) {
  const std::string here = "mesh " + std::to_string(mesh_index) + " ('" + mesh.mName.C_Str() + "')";
  check_size(mesh, options.limits, here);
  const std::size_t n = mesh.mNumVertices;
  const unsigned corners = corners_of(mesh);
  std::vector<std::uint32_t> indices = read_faces(mesh, corners, here, budget, diagnostics);
  const bool skinned = bone_to_palette != nullptr;
  Influences skin;
  if (skinned) skin = influences(mesh, *bone_to_palette, options.max_influences, budget, here, diagnostics);
  ModelMeshPart part;
  part.layout = layout_of(mesh, skinned, skin.slots);
  budget.charge(std::uint64_t{n} * part.layout.stride, here);
  part.vertex_bytes.resize(n * part.layout.stride);
  write_vertices(mesh, part, here, diagnostics);
  if (skinned) write_skin(skin, n, part);
  part.indices = std::move(indices);
  part.mode = corners == 3 ? PrimitiveMode::Triangles : corners == 2 ? PrimitiveMode::Lines : PrimitiveMode::Points;
  part.source_primitive = 0;
  part.source_vertex_count = static_cast<std::uint32_t>(n);
  return part;
}

}  // namespace marrow::assimp
