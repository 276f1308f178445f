// The worker-process isolation used for Assimp imports: a worker that runs out of memory,
// crashes, says nothing or says nonsense becomes an ImportError; a model it imports comes back
// intact through the native format; every option reaches it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "../src/core/address_sanitizer.hpp"
#include "../src/io/assimp/assimp_isolation.hpp"
#include "marrow/core/import_error.hpp"
#include "marrow/io/assimp/assimp_importer.hpp"
#include "demo/demo_character.hpp"
#include "marrow/model/animator.hpp"

namespace marrow {
namespace {

// The worker used by these tests speaks the real protocol and misbehaves on request (the
// extension hint says how: tests/fake_assimp_worker.cpp).
Model import_with_fake(std::string_view act, AssimpOptions options = {}) {
  if (options.worker_executable.empty()) options.worker_executable = MARROW_FAKE_ASSIMP_WORKER;
  const std::string bytes = "payload";
  return import_assimp(std::as_bytes(std::span(bytes.data(), bytes.size())), act, options);
}

ImportError error_of(std::string_view act, AssimpOptions options = {}) {
  try {
    (void)import_with_fake(act, options);
  } catch (const ImportError& e) {
    return e;
  }
  ADD_FAILURE() << act << ": no error";
  return ImportError(ImportErrorCode::IoError, "none");
}

TEST(AssimpIsolation, ModelsComeBackThroughTheNativeFormat) {
  if (!detail::can_isolate()) GTEST_SKIP() << "no worker processes here";
  const Model model = import_with_fake("demo");
  const Model original = make_demo_character();
  ASSERT_EQ(model.nodes.size(), original.nodes.size());
  Animator a(model), b(original);
  a.play("Wave");
  b.play("Wave");
  a.update(ticks_from_seconds(0.7));
  b.update(ticks_from_seconds(0.7));
  for (std::size_t i = 0; i < model.nodes.size(); ++i) {
    EXPECT_EQ(a.absolute_bone_transforms()[i], b.absolute_bone_transforms()[i]);
  }
}

TEST(AssimpIsolation, ErrorsOfTheWorkerKeepTheirCodeAndMessage) {
  if (!detail::can_isolate()) GTEST_SKIP() << "no worker processes here";
  const ImportError e = error_of("error");
  EXPECT_EQ(e.code(), ImportErrorCode::InvalidMesh);
  EXPECT_EQ(e.detail(), "x: mesh 3 is bad");
  // A code this build does not know is the importer's failure, with the worker's message.
  const ImportError future = error_of("future-code");
  EXPECT_EQ(future.code(), ImportErrorCode::ExternalImporter);
  EXPECT_EQ(future.detail(), "a code from a newer marrow");
}

TEST(AssimpIsolation, EveryOptionTravelsToTheWorker) {
  if (!detail::can_isolate()) GTEST_SKIP() << "no worker processes here";
  AssimpOptions o;
  o.worker_memory_bytes = 123456789;
  o.worker_cpu_seconds = 17;
  o.import.scene = 0;
  o.import.max_palette = 33;
  o.import.palette_policy = PalettePolicy::LoadStatic;
  o.import.union_only = true;
  o.import.curve_tolerance = 0.25;
  o.import.unit_scale = 0.5f;
  o.import.max_influences = 6;
  o.import.compression = ClipCompression{0.002f, 0.25f};
  o.import.limits = {11, 1u << 20, 13, 14, 15, 16};  // (the answer must fit max_total_bytes)
  o.max_bones = 9;
  o.ticks_per_second = 30.0;
  o.load_skeletal_data = false;
  o.skeleton_meshes = true;
  const ImportError e = error_of("echo", o);
  EXPECT_EQ(e.detail(), "<memory>.echo|7|123456789|17|0|33|1|1|0.250000|0.500000|6|0.002000/0.250000|11|1048576|13|14|15|16|9|30.000000|0|1");
}

TEST(AssimpIsolation, ACrashInTheWorkerIsAnImportError) {
  if (!detail::can_isolate()) GTEST_SKIP() << "no worker processes here";
  const ImportError e = error_of("crash");
  EXPECT_EQ(e.code(), ImportErrorCode::ExternalImporter);
#if !defined(MARROW_ASAN)
  // (AddressSanitizer catches the signal itself and exits with status 1: still an error, no signal.)
  EXPECT_NE(std::string(e.what()).find("signal"), std::string::npos) << e.what();
#endif
  EXPECT_NE(std::string(e.what()).find("<memory>.crash"), std::string::npos) << e.what();
}

TEST(AssimpIsolation, AWorkerThatSaysNothingOrNonsenseIsAnImportError) {
  if (!detail::can_isolate()) GTEST_SKIP() << "no worker processes here";
  const ImportError mute = error_of("mute");
  EXPECT_EQ(mute.code(), ImportErrorCode::ExternalImporter);
  EXPECT_NE(std::string(mute.what()).find("without an answer"), std::string::npos) << mute.what();
  const ImportError junk = error_of("junk");
  EXPECT_EQ(junk.code(), ImportErrorCode::ExternalImporter);
  EXPECT_NE(std::string(junk.what()).find("cannot read"), std::string::npos) << junk.what();
}

TEST(AssimpIsolation, AWorkerThatCannotStartIsAnImportErrorNamingIt) {
  if (!detail::can_isolate()) GTEST_SKIP() << "no worker processes here";
  AssimpOptions options;
  options.worker_executable = "/nonexistent/marrow-assimp-worker";
  const ImportError e = error_of("demo", options);
  EXPECT_EQ(e.code(), ImportErrorCode::ExternalImporter);
  EXPECT_NE(std::string(e.what()).find("cannot start the Assimp worker /nonexistent/marrow-assimp-worker"),
            std::string::npos)
      << e.what();
}

// The worker is a program of its own (posix_spawn), found without configuration in the build tree.
TEST(AssimpIsolation, TheWorkerIsFoundWithoutConfiguration) {
  if (!detail::can_isolate()) GTEST_SKIP() << "no worker processes here";
  if (std::getenv("MARROW_ASSIMP_WORKER") != nullptr) GTEST_SKIP() << "MARROW_ASSIMP_WORKER is set";
  const auto worker = detail::find_assimp_worker({});
  ASSERT_FALSE(worker.empty());
  EXPECT_EQ(worker.filename(), "marrow-assimp-worker");
  EXPECT_EQ(detail::find_assimp_worker("/given/path"), "/given/path");
}

// The reason the worker is not a fork of the caller: imports from many threads at once.
TEST(AssimpIsolation, ImportsFromManyThreadsAtOnceEachGetTheirModel) {
  if (!detail::can_isolate()) GTEST_SKIP() << "no worker processes here";
  const std::filesystem::path file = std::filesystem::path(MARROW_SHARED_ASSETS) / "dae/pab/walk.dae";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "shared assets not found at " << file;
  AssimpOptions in_process;
  in_process.isolation = AssimpOptions::Isolation::InProcess;
  const Model expected = import_assimp(file, in_process);
  std::vector<std::size_t> bones(4, 0);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < bones.size(); ++t) {
    threads.emplace_back([&, t] { bones[t] = import_assimp(file).nodes.size(); });
  }
  for (auto& thread : threads) thread.join();
  for (const std::size_t count : bones) EXPECT_EQ(count, expected.nodes.size());
}

// Fuzz finding (minimised): Debian's Assimp aborts on an assertion (ColladaParser: fewer
// primitives than <triangles count>) for this 127-byte file. In process that ends the caller;
// isolated it is an ImportError naming the file.
TEST(AssimpIsolation, ColladaThatAbortsAssimpIsAnImportError) {
  if (!detail::can_isolate()) GTEST_SKIP() << "no worker processes here";
  const std::string dae =
      "<COLLADA><library_geometries><geometry><mesh><triangles count=\"1\"></triangles></mesh></geometry>"
      "</library_geometries></COLLADA>";
  try {
    (void)import_assimp(std::as_bytes(std::span(dae.data(), dae.size())), "dae", AssimpOptions{});
    ADD_FAILURE() << "accepted";
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), ImportErrorCode::ExternalImporter) << e.what();
    EXPECT_NE(std::string(e.what()).find("worker process"), std::string::npos) << e.what();
  }
}

#if !defined(MARROW_ASAN)
// Fuzz finding: one non-digit byte in a Collada <p> index list makes Assimp 5.2.5 allocate
// gigabytes (in process it grows until the machine runs out). Isolated, it is an ImportError.
TEST(AssimpIsolation, ColladaIndexGarbageThatMakesAssimpAllocateWithoutBoundIsRefused) {
  if (!detail::can_isolate()) GTEST_SKIP() << "no worker processes here";
  const std::string dae =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
      "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
      "<library_geometries><geometry id=\"tri\"><mesh>\n"
      "<source id=\"pos\"><float_array id=\"pos-array\" count=\"9\">0 0 0 1 0 0 0 1 0</float_array>\n"
      "<technique_common><accessor source=\"#pos-array\" count=\"3\" stride=\"3\">\n"
      "<param name=\"X\" type=\"float\"/><param name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/>\n"
      "</accessor></technique_common></source>\n"
      "<vertices id=\"vtx\"><input semantic=\"POSITION\" source=\"#pos\"/></vertices>\n"
      "<triangles count=\"1\"><input semantic=\"VERTEX\" source=\"#vtx\" offset=\"0\"/>\n"
      "<p>0 1 2\xb7</p></triangles>\n"
      "</mesh></geometry></library_geometries>\n"
      "<library_visual_scenes><visual_scene id=\"s\"><node id=\"n\"><instance_geometry url=\"#tri\"/></node>"
      "</visual_scene></library_visual_scenes>\n"
      "<scene><instance_visual_scene url=\"#s\"/></scene></COLLADA>\n";
  AssimpOptions options;
  options.worker_memory_bytes = 512u << 20;
  try {
    (void)import_assimp(std::as_bytes(std::span(dae.data(), dae.size())), "dae", options);
    ADD_FAILURE() << "accepted";
  } catch (const ImportError& e) {
    EXPECT_EQ(e.code(), ImportErrorCode::ExternalImporter) << e.what();
  }
}
#endif

}  // namespace
}  // namespace marrow
