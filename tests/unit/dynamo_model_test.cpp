// The joined Dynamo model of real captures: frames, compiles joined to compile folders, the
// `.item()` scalar crossing into the resumed frame, and the literals derived from it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "analyzer/dynamo/dump.h"
#include "analyzer/dynamo/literals.h"
#include "analyzer/dynamo/log_line.h"
#include "analyzer/pipeline.h"
#include "analyzer/report/dump_model.h"
#include "test_util.h"

using namespace ilint;
using ilint::testing::line_of;

namespace {
const std::string kFixtures = ILINT_FIXTURES_DIR;

// Analysis holds a mutex (DiagSink): it cannot move, so it lives on the heap.
std::unique_ptr<Analysis> run(const std::string& capture) {
  AnalyzeOptions o;
  o.paths = {kFixtures + "/" + capture};
  auto a = std::make_unique<Analysis>();
  analyze(o, *a);
  return a;
}
const ScalarCrossing* crossing_into(const Program& p, int session, const std::string& fn) {
  for (const auto& s : p.dynamo.scalars)
    if (s.session == session && s.into_function == fn) return &s;
  return nullptr;
}
}  // namespace

TEST(DynamoModel, S1CudaFramesAndJoins) {
  auto a = run("s1_cuda");
  const DynamoModel& dm = a->program.dynamo;
  EXPECT_EQ(dm.sessions, 2);
  EXPECT_EQ(dm.recompile_limit, 8);
  const Frame* resume = dm.frame(0, 2);
  ASSERT_NE(resume, nullptr);
  EXPECT_EQ(resume->function, "torch_dynamo_resume_in_adam_step_at_10");
  EXPECT_TRUE(resume->is_resume);
  EXPECT_EQ(resume->resumed_function, "adam_step");
  EXPECT_EQ(resume->resume_line, 10);
  EXPECT_EQ(resume->code_loc.line, 10);
  const Frame* loop = dm.frame(0, 0);
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->function, "train_loop");
  EXPECT_TRUE(loop->fell_back_to_eager);
  // 2/1 restarted (TensorifyScalarRestartAnalysis) as 2/1_1, which produced model__3_inference_2.2.
  const FrameCompile* c21 = nullptr;
  const FrameCompile* c211 = nullptr;
  for (const auto& c : resume->compiles) {
    if (c.compile_id == "2/1") c21 = &c;
    if (c.compile_id == "2/1_1") c211 = &c;
  }
  ASSERT_NE(c21, nullptr);
  ASSERT_NE(c211, nullptr);
  EXPECT_TRUE(c21->superseded);
  EXPECT_FALSE(c211->superseded);
  ASSERT_EQ(c211->inductor_compiles.size(), 1u);
  EXPECT_EQ(c211->inductor_compiles[0], "model__3_inference_2.2");
  EXPECT_EQ(c211->backend_hint, "inductor");
  // The aot_eager session compiles the same frames without Inductor folders.
  const Frame* resume1 = dm.frame(1, 2);
  ASSERT_NE(resume1, nullptr);
  for (const auto& c : resume1->compiles) EXPECT_TRUE(c.inductor_compiles.empty());
}

TEST(DynamoModel, S1CudaItemScalarCrossing) {
  auto a = run("s1_cuda");
  const ScalarCrossing* sc = crossing_into(a->program, 0, "torch_dynamo_resume_in_adam_step_at_10");
  ASSERT_NE(sc, nullptr);
  EXPECT_EQ(sc->local_name, "___stack0");
  EXPECT_EQ(sc->produced_by, ".item()");
  EXPECT_EQ(sc->origin.line, 10);
  EXPECT_TRUE(dynamo::ends_with(sc->origin.file, "seed1.py"));
  EXPECT_EQ(sc->origin_code, "step = step_t.item()  # graph break");
  EXPECT_EQ(sc->from_frame, 1);
  EXPECT_EQ(sc->into_frame, 2);
  ASSERT_EQ(sc->uses.size(), 3u);  // 2/0, 2/1_1, 2/2 (2/1 was restarted)
  const char* ids[] = {"2/0", "2/1_1", "2/2"};
  const char* values[] = {"1.0", "2.0", "3.0"};
  for (size_t i = 0; i < 3; ++i) {
    const ScalarUse& u = sc->uses[i];
    EXPECT_EQ(u.compile_id, ids[i]);
    EXPECT_EQ(u.value, values[i]);
    EXPECT_TRUE(u.pinned_by_guard);
    EXPECT_EQ(u.treatment, "specialized");
    ASSERT_TRUE(u.guard_user_loc);
    EXPECT_EQ(u.guard_user_loc->line, 11);                                // bc1 = 1 - 0.9 ** step
    EXPECT_TRUE(dynamo::ends_with(u.guard_user_loc->file, "/seed1.py"));  // resolved from the cut comment path
    // Literals derived from the scalar: the FX div/mul constants and the kernel constants.
    bool fx_mul = false, kernel = false;
    for (const auto& d : u.literals) {
      ASSERT_TRUE(d.loc.valid());
      // The literal is on the line the model says.
      EXPECT_NE(line_of(d.loc.file, d.loc.line).find(d.text), std::string::npos) << d.loc.file << ":" << d.loc.line;
      if (d.where == "fx" && d.target == "torch.ops.aten.mul.Tensor") {
        fx_mul = true;
        ASSERT_TRUE(d.user_loc);
        EXPECT_EQ(d.user_loc->line, 15);  // param.addcdiv_(m, denom, value=-step_size)
        EXPECT_EQ(d.other_values.size(), 2u);
      }
      if (d.where == "kernel") kernel = true;
    }
    EXPECT_TRUE(fx_mul) << u.compile_id;
    EXPECT_TRUE(kernel) << u.compile_id;
  }
  EXPECT_EQ(sc->uses[1].literals.size(), sc->uses[0].literals.size());
  // 1e-08 (denom's epsilon) does not change with the scalar: not derived.
  for (const auto& u : sc->uses)
    for (const auto& d : u.literals) EXPECT_NE(d.text, "1e-08");
}

TEST(DynamoModel, DynamicFloatCaptureSymbolsAndValues) {
  auto a = run("s1_dynfloat_dyn");
  const ScalarCrossing* sc = crossing_into(a->program, 0, "torch_dynamo_resume_in_adam_step_at_10");
  ASSERT_NE(sc, nullptr);
  ASSERT_EQ(sc->uses.size(), 5u);
  for (size_t i = 0; i < sc->uses.size(); ++i) {
    EXPECT_TRUE(sc->uses[i].pinned_by_guard);
    EXPECT_EQ(sc->uses[i].symbol, "zf2");
    char buf[16];
    std::snprintf(buf, sizeof buf, "%zu.0", i + 1);
    EXPECT_EQ(sc->uses[i].value, buf);
  }
}

TEST(DynamoModel, CaptureScalarOutputsHasNoCrossing) {
  auto a = run("s1_cuda_capture");
  EXPECT_TRUE(a->program.dynamo.graph_breaks.empty());
  EXPECT_TRUE(a->program.dynamo.scalars.empty());
  EXPECT_FALSE(a->program.dynamo.frames.empty());
}

TEST(DynamoModel, CleanCapturesHaveNoCrossing) {
  for (const char* c : {"s2_cuda", "s2_cpu", "prec_cumsum_bf16", "clean_resnet", "clean_compiled_adam"}) {
    auto a = run(c);
    EXPECT_TRUE(a->program.dynamo.scalars.empty()) << c;
    EXPECT_FALSE(a->program.dynamo.frames.empty()) << c;
  }
}

TEST(DynamoModel, DumpIsReadable) {
  auto a = run("s1_cuda");
  std::ostringstream os;
  dump_dynamo_model(a->program, os);
  std::string s = os.str();
  EXPECT_NE(s.find("frame 2: torch_dynamo_resume_in_adam_step_at_10"), std::string::npos);
  EXPECT_NE(s.find("compile 2/1_1 restart: <class 'torch._dynamo.exc.TensorifyScalarRestartAnalysis'>"),
            std::string::npos);
  EXPECT_NE(s.find("graphs: model__3_inference_2.2"), std::string::npos);
  EXPECT_NE(s.find("scalar L['___stack0'] (.item())"), std::string::npos);
  EXPECT_NE(s.find("2/1_1: specialized = 2.0"), std::string::npos);
  EXPECT_NE(s.find("derived literal -0.005263157894736844"), std::string::npos);
  EXPECT_NE(s.find("== session 1"), std::string::npos);
}

// At -j2 and up the Dynamo logs are read on a thread of their own while the C++ kernels are read
// (pipeline.cpp): the Dynamo model, the compiles, the diagnostics and the findings must be what
// one thread gives. Checked on every fixture at once (several captures, whose sessions are
// numbered across them) and on a CPU capture whose trace is cut and whose TORCH_LOGS text holds
// bytes that are not UTF-8.
TEST(DynamoModel, LogsReadBesideTheCppKernelsGiveTheSameAnalysis) {
  auto analysis = [](const std::vector<std::string>& paths, int jobs) { return ilint::testing::analysis_text(paths, jobs); };
  std::vector<std::string> every;
  for (auto& e : std::filesystem::directory_iterator(kFixtures))
    if (e.is_directory()) every.push_back(e.path().string());
  std::sort(every.begin(), every.end());
  const std::string one = analysis(every, 1);
  EXPECT_NE(one.find("== session 2"), std::string::npos);  // several captures' sessions
  EXPECT_EQ(analysis(every, 2), one);
  EXPECT_EQ(analysis(every, 3), one);

  ilint::testing::TempDir tmp;
  std::filesystem::copy(kFixtures + "/s1_cpu", tmp.path / "s1_cpu", std::filesystem::copy_options::recursive);
  std::filesystem::path trace;
  for (auto& e : std::filesystem::directory_iterator(tmp.path / "s1_cpu" / "trace")) trace = e.path();
  std::string t = ilint::testing::read_all(trace);
  ilint::testing::write_all(trace, t.substr(0, t.size() / 2));
  std::string err = ilint::testing::read_all(tmp.path / "s1_cpu" / "stderr.txt");
  ilint::testing::write_all(tmp.path / "s1_cpu" / "stderr.txt", err.substr(0, err.size() / 3) + "\xff\xfe\x80" + err.substr(err.size() / 3));
  const std::string broken = analysis({(tmp.path / "s1_cpu").string()}, 1);
  EXPECT_NE(broken.find(trace.string()), std::string::npos) << broken;  // the cut trace is reported
  EXPECT_NE(broken.find("stderr.txt"), std::string::npos) << broken;
  EXPECT_EQ(analysis({(tmp.path / "s1_cpu").string()}, 2), broken);
}
