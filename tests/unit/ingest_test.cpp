// Ingest: the folder walk finds the same files at any number of threads, and a file named twice
// (given directly and inside a given folder) keeps what its first naming made of it.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "analyzer/ingest/ingest.h"
#include "test_util.h"

using namespace ilint;
using namespace ilint::testing;
namespace fs = std::filesystem;

namespace {

// Every path of an IngestResult, one line each, with the list it is in: two results are the
// same ingest when these texts are equal.
std::string describe(const IngestResult& r) {
  std::string s;
  for (const auto& c : r.compiles)
    s += "compile " + c.dir.str() + " | " + c.output_code.str() + " | " + c.fx_graph_readable.str() + " | " +
         c.fx_graph_runnable.str() + " | " + c.fx_graph_transformed.str() + " | " + c.provenance_json.str() + " | " +
         c.fx_json.str() + " | " + c.run_dir.str() + "\n";
  for (auto [name, list] : {std::pair{"dynamo", &r.dynamo_debug_logs}, {"aot", &r.aot_debug_logs},
                            {"trace", &r.trace_logs}, {"torch", &r.torch_logs}, {"stdout", &r.capture_stdout},
                            {"user", &r.user_sources}})
    for (const auto& f : *list) s += std::string(name) + " " + f + "\n";
  return s;
}

std::string ingest(const std::vector<std::string>& paths, int jobs, size_t* diags = nullptr) {
  DiagSink d;
  std::string s = describe(ingest_paths(paths, d, jobs));
  if (diags) *diags = d.size();
  return s;
}

}  // namespace

TEST(Ingest, SameFilesAtAnyNumberOfThreads) {
  // Several captures side by side and nested at different depths, a symlink loop and a folder
  // too deep: enough folders that the threads share the walk.
  TempDir t;
  const char* captures[] = {"s2_cuda", "prec_cumsum_bf16", "clean_compiled_adam", "s1_cuda"};
  for (int copy = 0; copy < 3; ++copy)
    for (const char* name : captures) {
      if (!fs::exists(fixture(name))) continue;
      fs::path to = t.path / ("run" + std::to_string(copy)) / std::string(copy, 'n') / name;
      fs::create_directories(to);
      fs::copy(fixture(name), to, fs::copy_options::recursive);
    }
  fs::create_directory_symlink(t.path, t.path / "run0" / "loop");
  fs::path deep = t.path / "deep";
  for (int i = 0; i < 70; ++i) deep /= "d";
  fs::create_directories(deep);
  write_all(deep / "stderr.txt", "x\n");
  size_t diags1 = 0;
  const std::string one = ingest({t.path.string()}, 1, &diags1);
  ASSERT_NE(one.find("compile "), std::string::npos);
  EXPECT_EQ(diags1, 1u);  // the folder too deep
  for (int jobs : {2, 3, 8}) {
    size_t diags = 0;
    EXPECT_EQ(ingest({t.path.string()}, jobs, &diags), one) << jobs << " threads";
    EXPECT_EQ(diags, diags1) << jobs << " threads";
  }
}

TEST(Ingest, AWalkTakesMoreThreadsOnlyWhenFoldersWait) {
  // With folders_per_thread, the walk starts on one thread and a further one joins at each
  // multiple of folders waiting to be listed: the same files either way.
  TempDir t;
  for (int copy = 0; copy < 3; ++copy)
    for (const char* name : {"s2_cuda", "clean_compiled_adam"}) {
      fs::path to = t.path / ("run" + std::to_string(copy)) / name;
      fs::create_directories(to);
      fs::copy(fixture(name), to, fs::copy_options::recursive);
    }
  DiagSink d;
  IngestResult all = ingest_paths({t.path.string()}, d, 3);
  EXPECT_EQ(all.walk_threads, 3);
  const std::string expected = describe(all);
  ASSERT_NE(expected.find("compile "), std::string::npos);
  // The top folder lists three run folders at once: few, against 1000 a thread.
  IngestResult lazy = ingest_paths({t.path.string()}, d, 3, 1000);
  EXPECT_EQ(lazy.walk_threads, 1);
  EXPECT_EQ(describe(lazy), expected);
  // Two a thread: the first listing leaves three waiting, enough for one more thread; the
  // third joins when four wait, which the depth-first walk reaches inside a capture.
  IngestResult eager = ingest_paths({t.path.string()}, d, 3, 2);
  EXPECT_GE(eager.walk_threads, 2);
  EXPECT_EQ(describe(eager), expected);
  // A file given alone is no walk.
  EXPECT_EQ(ingest_paths({fixture("s2_cuda") + "/stdout.txt"}, d, 3, 1).walk_threads, 0);
}

TEST(Ingest, AFileNamedTwiceKeepsItsFirstNaming) {
  // A capture's stdout.txt found in its folder is what the run printed; named on the command
  // line it is read as a TORCH_LOGS text. Whichever comes first decides, at any thread count.
  const std::string dir = fixture("clean_compiled_adam");
  const std::string out = dir + "/stdout.txt";
  ASSERT_TRUE(fs::exists(out));
  for (int jobs : {1, 2}) {
    std::string folder_first = ingest({dir, out}, jobs), file_first = ingest({out, dir}, jobs);
    EXPECT_NE(folder_first.find("stdout " + out + "\n"), std::string::npos) << jobs;
    EXPECT_EQ(folder_first.find("torch " + out + "\n"), std::string::npos) << jobs;
    EXPECT_NE(file_first.find("torch " + out + "\n"), std::string::npos) << jobs;
    EXPECT_EQ(file_first.find("stdout " + out + "\n"), std::string::npos) << jobs;
  }
}

TEST(Ingest, PathsAreSpelledAsStdFilesystemSpellsThem) {
  // The walk joins and splits paths by string operations; what it finds must read as
  // std::filesystem reads it, however the user spelled the folder: the compile folder is its
  // files' parent_path(), the run folder two levels above it, a trailing '/' changes nothing.
  const std::string root = fixture("s2_cuda");
  const std::string plain = ingest({root}, 2);
  ASSERT_NE(plain.find("compile "), std::string::npos);
  EXPECT_EQ(ingest({root + "/"}, 2), plain);
  for (const std::string& spelled : {root + "//", root + "/.", root + "/./torch_compile_debug/..",
                                     root + "//torch_compile_debug"}) {
    DiagSink d;
    IngestResult r = ingest_paths({spelled}, d, 2);
    ASSERT_FALSE(r.compiles.empty()) << spelled;
    for (const auto& c : r.compiles) {
      ASSERT_FALSE(c.output_code.empty()) << spelled;
      const fs::path code(c.output_code.str());
      EXPECT_EQ(c.output_code.str().rfind(spelled, 0), 0u) << c.output_code.str();
      EXPECT_EQ(c.dir.str(), code.parent_path().string()) << spelled;
      EXPECT_EQ(c.run_dir.str(), code.parent_path().parent_path().parent_path().string()) << spelled;
      EXPECT_EQ(code.parent_path().parent_path().filename(), "torchinductor") << spelled;
    }
  }
}

// A folder is a compile folder when output_code.py or fx_graph_readable.py is there, as stat(2)
// sees it: the walk decides it from the folder's own listing, and must answer what a stat of each
// name answered (a link to a file counts and is read, a dangling link does not count, a folder
// of that name counts but is not read). Listed in a folder of many compiles and alone.
TEST(Ingest, ACompileFolderIsWhatItsListingHolds) {
  TempDir t;
  const fs::path src = fs::path(compile_dir("s2_cuda", "forward"));
  ASSERT_TRUE(fs::exists(src / "output_code.py"));
  fs::path root = t.path / "run" / "torchinductor";
  auto make = [&](const std::string& name) {
    fs::path d = root / name;
    fs::create_directories(d);
    return d;
  };
  // Real files.
  fs::path plain = make("model__0_forward_1");
  fs::copy_file(src / "output_code.py", plain / "output_code.py");
  fs::copy_file(src / "fx_graph_readable.py", plain / "fx_graph_readable.py");
  // output_code.py a link to a file elsewhere: a compile folder, and the link is its output_code.
  fs::path linked = make("model__1_forward_2");
  fs::create_symlink(src / "output_code.py", linked / "output_code.py");
  // Only a dangling link of that name, with a runnable beside it: not a compile folder.
  fs::path dangling = make("model__2_forward_3");
  fs::create_symlink(t.path / "nowhere.py", dangling / "output_code.py");
  write_all(dangling / "fx_graph_runnable.py", "# torch version: 2.11\n");
  // A folder named fx_graph_readable.py: a compile folder (stat finds it), its runnable taken.
  fs::path odd = make("model__3_forward_4");
  fs::create_directories(odd / "fx_graph_readable.py");
  write_all(odd / "fx_graph_runnable.py", "# torch version: 2.11\n");
  // fx_graph_readable.py a link to a folder: counts, is not read as a file.
  fs::path to_dir = make("model__4_forward_5");
  fs::create_directory_symlink(t.path / "run", to_dir / "fx_graph_readable.py");
  write_all(to_dir / "fx_graph_runnable.py", "# torch version: 2.11\n");

  for (int jobs : {1, 2}) {
    SCOPED_TRACE(jobs);
    DiagSink d;
    IngestResult r = ingest_paths({t.path.string()}, d, jobs);
    std::map<std::string, const CompileFiles*> by_name;
    for (const auto& c : r.compiles) by_name[fs::path(c.dir.str()).filename().string()] = &c;
    ASSERT_EQ(by_name.size(), 4u) << describe(r);
    EXPECT_EQ(by_name.count("model__2_forward_3"), 0u) << describe(r);
    EXPECT_EQ(by_name["model__0_forward_1"]->output_code.str(), (plain / "output_code.py").string());
    EXPECT_EQ(by_name["model__0_forward_1"]->fx_graph_readable.str(), (plain / "fx_graph_readable.py").string());
    EXPECT_EQ(by_name["model__1_forward_2"]->output_code.str(), (linked / "output_code.py").string());
    EXPECT_TRUE(by_name["model__3_forward_4"]->fx_graph_readable.empty());
    EXPECT_EQ(by_name["model__3_forward_4"]->fx_graph_runnable.str(), (odd / "fx_graph_runnable.py").string());
    EXPECT_TRUE(by_name["model__4_forward_5"]->fx_graph_readable.empty());
    EXPECT_EQ(by_name["model__4_forward_5"]->fx_graph_runnable.str(), (to_dir / "fx_graph_runnable.py").string());
  }
  // Each folder given alone walks the same way.
  DiagSink d;
  IngestResult alone = ingest_paths({linked.string()}, d, 1);
  ASSERT_EQ(alone.compiles.size(), 1u);
  EXPECT_EQ(alone.compiles[0].output_code.str(), (linked / "output_code.py").string());
  IngestResult none = ingest_paths({dangling.string()}, d, 1);
  EXPECT_TRUE(none.compiles.empty()) << describe(none);
}
