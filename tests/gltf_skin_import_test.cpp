// glTF import: scene flattening and skins (G1-G8, M2, M3, M5), on fixtures written by marrow.
#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "gltf_fixture.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/core/vertex_access.hpp"
#include "marrow/model/animator.hpp"
#include "test_util.hpp"

namespace marrow {
namespace {

using test::Fixture;
using test::MeshData;
using test::near;

using test::translate;

template <class F>
ImportErrorCode import_error_code(F&& f, std::string* message = nullptr) {
  try {
    f();
  } catch (const ImportError& e) {
    if (message) *message = e.what();
    return e.code();
  }
  ADD_FAILURE() << "no ImportError";
  return ImportErrorCode::IoError;
}

// One triangle weighted fully to joint `joint` (the file's JOINTS_0 value).
MeshData skinned_triangle(std::uint16_t joint, glm::vec3 offset = glm::vec3(0.f)) {
  MeshData m;
  m.positions = {offset + glm::vec3(0, 0, 0), offset + glm::vec3(1, 0, 0), offset + glm::vec3(0, 1, 0)};
  m.joints.assign(3, glm::u16vec4(joint, 0, 0, 0));
  m.weights.assign(3, glm::vec4(1, 0, 0, 0));
  return m;
}

TEST(GltfImport, G1_SceneFlattensToBonesUnderASyntheticRoot) {
  Fixture f;
  const auto a = f.node("A", {1, 0, 0});
  const auto b = f.node("B", {0, 2, 0});
  const auto c = f.node("C");
  const auto outside = f.node("NotInScene");
  MeshData tri;
  tri.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  f.doc().nodes[c].mesh = f.mesh(tri);
  f.child(a, b);
  f.child(b, c);
  f.scene({a});
  f.scene({outside});
  const Model model = f.import();
  ASSERT_EQ(model.nodes.size(), 4u);  // synthetic root + A, B, C
  EXPECT_EQ(model.nodes[0].parent, -1);
  EXPECT_EQ(model.nodes[0].source_node, -1);
  EXPECT_EQ(model.nodes[1].name, "A");
  EXPECT_EQ(model.nodes[1].parent, 0);
  EXPECT_EQ(model.nodes[2].parent, 1);
  EXPECT_EQ(model.nodes[3].parent, 2);
  EXPECT_EQ(model.source.node_to_bone, std::vector<int>({1, 2, 3, -1}));
  // The mesh node keeps its own bone and the mesh hangs on it.
  ASSERT_EQ(model.meshes.size(), 1u);
  EXPECT_EQ(model.meshes[0].node, 3);
  EXPECT_TRUE(near(model.nodes[2].transform, translate(0, 2, 0)));
  // Another scene by option.
  ImportOptions second;
  second.scene = 1;
  const Model other = f.import(second);
  EXPECT_EQ(other.nodes.size(), 2u);
  EXPECT_EQ(other.nodes[1].name, "NotInScene");
  second.scene = 5;
  EXPECT_EQ(import_error_code([&] { f.import(second); }), ImportErrorCode::IndexOutOfRange);
}

TEST(GltfImport, G1_FileWithoutSceneUsesSceneZeroOrEveryRoot) {
  Fixture f;
  const auto a = f.node("A");
  const auto b = f.node("B");
  f.scene({b});
  f.doc().scene = gltf::kNone;  // scenes but no default: scene 0
  EXPECT_EQ(f.import().nodes[1].name, "B");
  f.doc().scenes.clear();  // no scenes at all: every root node
  const Model all = f.import();
  ASSERT_EQ(all.nodes.size(), 3u);
  EXPECT_EQ(all.nodes[1].source_node, static_cast<int>(a));
}

TEST(GltfImport, G1_CyclesAndTwoParentsAreRefused) {
  {
    Fixture f;
    const auto a = f.node("A"), b = f.node("B");
    f.child(a, b);
    f.child(b, a);
    f.scene({});
    std::string message;
    EXPECT_EQ(import_error_code([&] { f.import(); }, &message), ImportErrorCode::InvalidNodeGraph);
  }
  {
    Fixture f;
    const auto a = f.node("A"), b = f.node("B"), c = f.node("C");
    f.child(a, c);
    f.child(b, c);
    f.scene({a, b});
    std::string message;
    EXPECT_EQ(import_error_code([&] { f.import(); }, &message), ImportErrorCode::InvalidNodeGraph);
    EXPECT_NE(message.find("node 2 has two parents"), std::string::npos) << message;
  }
}

// G5: the only joint has identity bind and inverse bind, so the whole joint matrix is the
// cancellation of the mesh node's T(0, 0, 50): exactly -50 (0 = missing, -100 = applied twice).
TEST(GltfImport, G5_MeshNodeTransformIsCancelledExactlyOnce) {
  Fixture f;
  const auto mesh_node = f.node("MeshNode", {0, 0, 50});
  const auto joint = f.node("Joint");
  f.doc().nodes[mesh_node].mesh = f.mesh(skinned_triangle(0));
  f.doc().nodes[mesh_node].skin = f.skin({joint}, {glm::mat4(1.f)});
  f.scene({mesh_node, joint});
  const Model model = f.import();
  ASSERT_EQ(model.skins.size(), 1u);
  const Animator animator(model);
  EXPECT_EQ(animator.player(0).skin_transforms()[0][3], glm::vec4(0, 0, -50, 1));
  // The mesh node's bone still exists with its +50 and carries the mesh.
  const int bone = model.source.node_to_bone[mesh_node];
  EXPECT_EQ(model.nodes[static_cast<std::size_t>(bone)].transform[3], glm::vec4(0, 0, 50, 1));
  EXPECT_EQ(model.meshes[0].node, bone);
  // Posed vertices equal POSITION: the mesh node never moves skinned vertices.
  const auto posed = test::posed_positions(model, 0);
  EXPECT_TRUE(near(posed[1], {1, 0, 0}, 1e-6f));
  EXPECT_TRUE(near(posed[2], {0, 1, 0}, 1e-6f));
  // M2: the bind palette was installed on the skin's material at load.
  EXPECT_EQ(model.meshes[0].parts[0].skinned_material->bone_transforms()[0][3], glm::vec4(0, 0, -50, 1));
}

// G6 and G4: an armature ancestor (uniformly scaled) above the root joint, above skin.skeleton.
TEST(GltfImport, G6_ArmatureAncestorWithUniformScaleDoesNotCollapse) {
  Fixture f;
  const auto scene_root = f.node("Z_UP", glm::vec3(0.f), glm::angleAxis(glm::radians(-90.f), glm::vec3(1, 0, 0)));
  const auto armature = f.node("Armature", {0, 1, 0}, glm::quat(1, 0, 0, 0), glm::vec3(2.f));
  const auto root_joint = f.node("Root", {0, 0, 1});
  const auto tip = f.node("Tip", {0, 1, 0});
  const auto mesh_node = f.node("Body");
  f.child(scene_root, armature);
  f.child(armature, root_joint);
  f.child(root_joint, tip);
  f.scene({scene_root, mesh_node});
  const glm::mat4 w_root = test::node_world(f.doc(), root_joint), w_tip = test::node_world(f.doc(), tip);
  // Inverse binds as exporters write them: inverse of each joint's world at bind.
  f.doc().nodes[mesh_node].mesh = f.mesh(skinned_triangle(1, {0.5f, 0.5f, 0.5f}));
  f.doc().nodes[mesh_node].skin = f.skin({root_joint, tip}, {glm::inverse(w_root), glm::inverse(w_tip)}, root_joint);
  const Model model = f.import();
  const auto posed = test::posed_positions(model, 0);
  // At bind W_joint * IBM = identity: vertices stay where they are authored (no 1/2 collapse).
  EXPECT_TRUE(near(posed[0], {0.5f, 0.5f, 0.5f}, 1e-5f));
  EXPECT_TRUE(near(posed[1], {1.5f, 0.5f, 0.5f}, 1e-5f));
  // G4: the root's prefix is inverse(W_meshNode) * W(Armature), the full ancestry above the joint set.
  const glm::mat4 expected = test::node_world(f.doc(), armature);
  EXPECT_TRUE(near(model.skins[0].data.skeleton_root_prefix[0], expected, 1e-6f));
}

// G4: ancestry outside the selected scene still counts (the joints hang off a node that is not
// in scene 0; its transform reaches the palette through the whole node graph).
TEST(GltfImport, G4_RootPrefixReachesOutsideTheSelectedScene) {
  Fixture f;
  const auto rig = f.node("OffsceneRig", {5, 0, 0});
  const auto joint = f.node("Joint", {0, 1, 0});
  const auto mesh_node = f.node("Body");
  f.child(rig, joint);
  f.scene({mesh_node});
  f.scene({rig});
  f.doc().nodes[mesh_node].mesh = f.mesh(skinned_triangle(0));
  f.doc().nodes[mesh_node].skin = f.skin({joint}, {glm::mat4(1.f)});
  const Model model = f.import();
  ASSERT_EQ(model.skins.size(), 1u);
  EXPECT_EQ(model.skins[0].palette_to_scene[0], -1) << "the joint is not a bone of scene 0";
  const auto posed = test::posed_positions(model, 0);
  EXPECT_TRUE(near(posed[0], {5, 1, 0}, 1e-6f)) << "W(rig) * L(joint) * IBM * v";
}

// G2, G3, G7: joints listed child-first; palette order is breadth-first, JOINTS_0 rewritten,
// both maps kept, and the animation poses the right bones.
TEST(GltfImport, G7_ReversedJointOrderLoadsAndAnimatesRight) {
  Fixture f;
  const auto j0 = f.node("J0");
  const auto j1 = f.node("J1", {0, 1, 0});
  const auto j2 = f.node("J2", {0, 1, 0});
  const auto mesh_node = f.node("Body");
  f.child(j0, j1);
  f.child(j1, j2);
  f.scene({j0, mesh_node});
  const std::vector<std::uint32_t> joints = {j2, j1, j0};  // child first
  std::vector<glm::mat4> ibm;
  for (auto j : joints) ibm.push_back(glm::inverse(test::node_world(f.doc(), j)));
  MeshData m = skinned_triangle(0, {0, 2, 0});  // file joint 0 = J2, the tip
  f.doc().nodes[mesh_node].mesh = f.mesh(m);
  f.doc().nodes[mesh_node].skin = f.skin(joints, ibm);
  const auto anim = f.animation("Bend");
  const glm::quat bent = glm::angleAxis(glm::radians(90.f), glm::vec3(0, 0, 1));
  f.channel(anim, j1, "rotation", gltf::SamplerInterpolation::Linear, {0.f, 1.f},
            {0, 0, 0, 1, bent.x, bent.y, bent.z, bent.w});
  const Model model = f.import();
  const Skin& skin = model.skins[0];
  // G2: breadth-first palette: J0, J1, J2; parents precede children.
  EXPECT_EQ(skin.data.skeleton_hierarchy, std::vector<int>({-1, 0, 1}));
  EXPECT_EQ(skin.source_joints, std::vector<int>({2, 1, 0}));
  // G3: scene -> palette and palette -> scene.
  const int b0 = model.source.node_to_bone[j0], b2 = model.source.node_to_bone[j2];
  EXPECT_EQ(skin.palette_to_scene[0], b0);
  EXPECT_EQ(skin.palette_to_scene[2], b2);
  EXPECT_EQ(skin.scene_to_palette[static_cast<std::size_t>(b2)], 2);
  EXPECT_EQ(skin.scene_to_palette[static_cast<std::size_t>(model.source.node_to_bone[mesh_node])], -1);
  // JOINTS_0 value 0 (J2) became palette index 2.
  const ModelMeshPart& part = model.meshes[0].parts[0];
  EXPECT_EQ(read_attribute<glm::u16vec4>(part.vertex_bytes, part.layout, 0, VertexAttribute::Joints0).x, 2);
  // G7: at t = 1 J1 has turned 90 degrees about z: the tip's vertices swing to -x.
  const auto posed = test::posed_positions(model, 0, 0, 1.0);
  // v = (0,2,0) is at J2's origin; J2 is 1 up from J1, which is rotated: J2 at (-1, 1, 0).
  EXPECT_TRUE(near(posed[0], {-1, 1, 0}, 1e-5f));
  EXPECT_TRUE(near(posed[1], {-1, 2, 0}, 1e-5f));  // (1,2,0): 1 along x of J2, rotated to +y
}

// G3: scene -> palette and palette -> scene, with -1 where a node is no joint of the skin or a
// joint is not in the selected scene; the file's joint order is the third index space.
TEST(GltfImport, G3_BothIndexMapsAreKept) {
  Fixture f;
  const auto prop = f.node("Prop");
  const auto j0 = f.node("J0"), j1 = f.node("J1", {0, 1, 0});
  const auto offscene = f.node("Offscene", {0, 1, 0});
  const auto body = f.node("Body");
  f.child(j0, j1);
  f.scene({prop, j0, body});
  f.scene({offscene});
  f.doc().nodes[body].mesh = f.mesh(skinned_triangle(0));
  f.doc().nodes[body].skin = f.skin({j1, offscene, j0}, {});
  const Model model = f.import();
  const Skin& skin = model.skins[0];
  const auto bone = [&](std::uint32_t node) { return model.source.node_to_bone[node]; };
  // Breadth-first: the roots J0 (file joint 2) and Offscene (file joint 1) in file order among
  // roots (Offscene is listed first), then J1.
  EXPECT_EQ(skin.source_joints, std::vector<int>({1, 2, 0}));
  EXPECT_EQ(skin.palette_to_scene, std::vector<int>({-1, bone(j0), bone(j1)}));
  ASSERT_EQ(skin.scene_to_palette.size(), model.nodes.size());
  EXPECT_EQ(skin.scene_to_palette[static_cast<std::size_t>(bone(j0))], 1);
  EXPECT_EQ(skin.scene_to_palette[static_cast<std::size_t>(bone(j1))], 2);
  EXPECT_EQ(skin.scene_to_palette[static_cast<std::size_t>(bone(prop))], -1);
  EXPECT_EQ(skin.scene_to_palette[0], -1) << "the synthetic root";
  // The maps agree with each other wherever both are defined.
  for (std::size_t p = 0; p < skin.palette_to_scene.size(); ++p) {
    if (skin.palette_to_scene[p] >= 0) {
      EXPECT_EQ(skin.scene_to_palette[static_cast<std::size_t>(skin.palette_to_scene[p])], static_cast<int>(p));
    }
  }
}

TEST(GltfImport, G2_DuplicateJointAndBrokenChainAreRefused) {
  {
    Fixture f;
    const auto j = f.node("J"), body = f.node("Body");
    f.scene({j, body});
    f.doc().nodes[body].mesh = f.mesh(skinned_triangle(0));
    f.doc().nodes[body].skin = f.skin({j, j}, {});
    std::string message;
    EXPECT_EQ(import_error_code([&] { f.import(); }, &message), ImportErrorCode::InvalidSkin);
    EXPECT_NE(message.find("listed twice"), std::string::npos) << message;
  }
  {
    Fixture f;  // J0 -> Gap (not a joint) -> J1: the chain leaves and re-enters the joint set
    const auto j0 = f.node("J0"), gap = f.node("Gap"), j1 = f.node("J1"), body = f.node("Body");
    f.child(j0, gap);
    f.child(gap, j1);
    f.scene({j0, body});
    f.doc().nodes[body].mesh = f.mesh(skinned_triangle(0));
    f.doc().nodes[body].skin = f.skin({j0, j1}, {});
    std::string message;
    EXPECT_EQ(import_error_code([&] { f.import(); }, &message), ImportErrorCode::InvalidSkin);
    EXPECT_NE(message.find("leaves and re-enters"), std::string::npos) << message;
  }
  {
    Fixture f;  // a JOINTS_0 value beyond the joint list
    const auto j = f.node("J"), body = f.node("Body");
    f.scene({j, body});
    f.doc().nodes[body].mesh = f.mesh(skinned_triangle(3));
    f.doc().nodes[body].skin = f.skin({j}, {});
    std::string message;
    EXPECT_EQ(import_error_code([&] { f.import(); }, &message), ImportErrorCode::InvalidMesh);
    EXPECT_NE(message.find("JOINTS_0 value 3"), std::string::npos) << message;
  }
}

Fixture chain_of_joints(int count) {
  return test::joint_chain(count, skinned_triangle(static_cast<std::uint16_t>(count - 1)));
}

TEST(GltfImport, G8_PaletteLimitRefusesNamingTheJointCount) {
  Fixture f = chain_of_joints(73);
  std::string message;
  EXPECT_EQ(import_error_code([&] { f.import(); }, &message), ImportErrorCode::PaletteLimit);
  EXPECT_NE(message.find("73 joints"), std::string::npos) << message;
  EXPECT_NE(message.find("72"), std::string::npos) << message;
  Fixture fits = chain_of_joints(72);
  EXPECT_EQ(fits.import().skins[0].data.bone_count, 72);
  ImportOptions wider;
  wider.max_palette = 80;
  EXPECT_EQ(f.import(wider).skins[0].data.bone_count, 73);
  ImportOptions load_static;
  load_static.palette_policy = PalettePolicy::LoadStatic;
  const Model unskinned = f.import(load_static);
  EXPECT_TRUE(unskinned.skins.empty());
  EXPECT_EQ(unskinned.meshes[0].skin, -1);
  ASSERT_NE(find_diagnostic(unskinned.diagnostics, "palette-limit-loaded-static"), nullptr);
}

TEST(GltfImport, M5_EverySkinIsKeptWithExactlyTheMeshesItDrives) {
  Fixture f;
  const auto a = f.node("A"), b = f.node("B", {3, 0, 0}), unused_joint = f.node("U");
  const auto body_a = f.node("BodyA"), body_b = f.node("BodyB"), prop = f.node("Prop");
  f.scene({a, b, unused_joint, body_a, body_b, prop});
  MeshData tri;
  tri.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const auto shared_material = 0u;
  f.doc().materials.push_back(gltf::Material{});
  MeshData ta = skinned_triangle(0), tb = skinned_triangle(0);
  ta.material = tb.material = shared_material;
  tri.material = shared_material;
  f.doc().nodes[body_a].mesh = f.mesh(ta);
  f.doc().nodes[body_b].mesh = f.mesh(tb);
  f.doc().nodes[prop].mesh = f.mesh(tri);
  f.doc().nodes[body_a].skin = f.skin({a}, {});
  f.doc().nodes[body_b].skin = f.skin({b}, {glm::inverse(translate(3, 0, 0))});
  f.skin({unused_joint}, {});  // drives nothing, still kept
  const Model model = f.import();
  ASSERT_EQ(model.skins.size(), 3u);
  EXPECT_EQ(model.skins[0].meshes, std::vector<int>({0}));
  EXPECT_EQ(model.skins[1].meshes, std::vector<int>({1}));
  EXPECT_TRUE(model.skins[2].meshes.empty());
  EXPECT_EQ(model.meshes[2].skin, -1);
  // M3: one glTF material, but each skin gets its own palette; M2: each holds its own bind palette.
  const SkinnedMaterial* pa = model.meshes[0].parts[0].skinned_material.get();
  const SkinnedMaterial* pb = model.meshes[1].parts[0].skinned_material.get();
  ASSERT_NE(pa, nullptr);
  ASSERT_NE(pb, nullptr);
  EXPECT_NE(pa, pb);
  EXPECT_EQ(model.meshes[0].parts[0].material, model.meshes[1].parts[0].material) << "surface data is shared";
  EXPECT_EQ(model.meshes[2].parts[0].skinned_material, nullptr);
  EXPECT_TRUE(near(pb->bone_transforms()[0], glm::mat4(1.f)));
  EXPECT_NO_THROW(validate(model));
}

}  // namespace
}  // namespace marrow
