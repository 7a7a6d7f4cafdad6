// Rule stale-scalar, end to end (ilint::analyze) on the real captures, and on the model alone.
//
// Real stale-scalar captures (fixtures/stale_*) are tested below. The seed repro itself (s1_*) does
// not reproduce on 2.11, so a second positive uses a DERIVED fixture made at test time from the real s1_cuda capture by deleting, and only
// deleting, the lines that pin the `.item()` scalar in each compile: the EQUALS_MATCH / LAMBDA_GUARD
// guard lines on L['___stack0'] and the recompile-reason lines naming them, in both stderr.txt and
// the TORCH_TRACE payloads. Everything else (compile folders, kernels, literals, the ShapeEnv-only
// guards, the symbol specializations) is the real output. That is the state pytorch#185382
// describes on 2.12/2.13: the constant is baked and only a ShapeEnv guard, dropped before the
// Dynamo guard tree, protected it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "analyzer/dynamo/log_line.h"
#include "rule_test_util.h"

namespace fs = std::filesystem;
using namespace ilint;
using namespace ilint::testing;

namespace {
// The lines that pin the scalar ___stack0 to a value in some compile.
bool pins_stack0(const std::string& l) {
  if (l.find("EQUALS_MATCH: L['___stack0']") != std::string::npos) return true;
  if (l.find("LAMBDA_GUARD: ") != std::string::npos && l.find("L['___stack0']") != std::string::npos) return true;
  if (l.find(": ___stack0 == ") != std::string::npos) return true;
  if (l.find(": ___as_tensor(___stack0).item() == ") != std::string::npos) return true;
  return false;
}

// Copies fixtures/s1_cuda to a temp folder, minus the pinning lines (see the file comment).
fs::path derive_unpinned_s1_cuda(size_t& removed) {
  fs::path dst = fs::temp_directory_path() / ("ilint_derived_stale_s1_cuda_unpinned_" + std::to_string(::getpid()));
  fs::remove_all(dst);
  fs::copy(kFixtures + "/s1_cuda", dst, fs::copy_options::recursive);
  removed = 0;
  std::vector<fs::path> logs = {dst / "stderr.txt"};
  for (const auto& e : fs::directory_iterator(dst / "trace")) logs.push_back(e.path());
  for (const auto& p : logs) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream out;
    std::string l;
    while (std::getline(in, l)) {
      if (pins_stack0(l)) {
        ++removed;
        continue;
      }
      out << l << "\n";
    }
    in.close();
    std::ofstream o(p, std::ios::binary | std::ios::trunc);
    o << out.str();
  }
  return dst;
}
}  // namespace

TEST(StaleScalar, FiresOnDerivedUnpinnedS1Cuda) {
  size_t removed = 0;
  fs::path dir = derive_unpinned_s1_cuda(removed);
  EXPECT_GT(removed, 10u);
  auto a = run_path(dir.string());
  // The edits are visible: the trace payloads no longer match their md5.
  size_t mismatches = 0;
  for (const auto& d : a->diags.sorted()) mismatches += d.code == "trace-payload-mismatch";
  EXPECT_GT(mismatches, 0u);
  auto stale = by_rule(*a, "stale-scalar");
  ASSERT_EQ(stale.size(), 1u);  // the inductor session; the aot_eager session has no compiled code
  const Finding& f = *stale[0];
  EXPECT_EQ(f.severity, Severity::Error);
  // Points at the baked literal's line in output_code.py.
  EXPECT_TRUE(dynamo::ends_with(f.location.file, "/output_code.py")) << f.location.file;
  std::string lit = f.evidence["literal"];
  EXPECT_NE(line_of(f.location.file, f.location.line).find(lit), std::string::npos)
      << f.location.file << ":" << f.location.line;
  EXPECT_FALSE(f.kernel.empty());
  // Names the .item() origin and the user line that uses the value.
  ASSERT_GE(f.related.size(), 2u);
  EXPECT_EQ(f.related[0].loc.line, 10);
  EXPECT_NE(f.related[0].message.find("step_t.item()"), std::string::npos);
  bool user_use = false;
  for (const auto& r : f.related)
    user_use |= r.loc.line == 15 && r.message.find("addcdiv_") != std::string::npos;
  EXPECT_TRUE(user_use);
  EXPECT_NE(message_and_notes(f).find("no guard of that compile pins the scalar"), std::string::npos);
  expect_headline_with_notes(f);  // the unpinned case: no real capture gives it
  EXPECT_NE(f.fix.find("capture_scalar_outputs = True"), std::string::npos);
  // Without pins there is no per-value specialization to report.
  EXPECT_TRUE(by_rule(*a, "scalar-recompile").empty());
  fs::remove_all(dir);
}

// Real reproductions of the pytorch#185382 mechanism on torch 2.11 (tools/capture_scripts/stale_scalar.py,
// captured on the H200): a float argument becomes dynamic on its 2nd value, its clamp bound / norm eps
// is baked, and the artifact is reused; the captures' own runs measured eager-vs-inductor divergence
// from the 3rd value on. stale_clamp_nocache is the same program with caches disabled: every value
// recompiles under its own guard, no divergence (the run measured 4.8e-7), so only scalar-recompile.
TEST(StaleScalar, FiresOnRealStaleCaptures) {
  for (const char* c : {"stale_clamp", "stale_clamp_cpu", "stale_rms_norm"}) {
    auto a = run_path(kFixtures + "/" + c);
    auto stale = by_rule(*a, "stale-scalar");
    ASSERT_EQ(stale.size(), 1u) << c;
    const Finding& f = *stale[0];
    EXPECT_EQ(f.severity, Severity::Error);
    std::string lit = f.evidence["literal"];
    EXPECT_NE(line_of(f.location.file, f.location.line).find(lit), std::string::npos)
        << c << " " << f.location.file << ":" << f.location.line;
    // Compile 0/1 is guarded on the value it baked (`L['s'] == 2.0`); 0/2 gets its code from the caches.
    EXPECT_NE(message_and_notes(f).find("Compile 0/2 of"), std::string::npos) << message_and_notes(f);
    EXPECT_NE(message_and_notes(f).find("reuses the artifact of compile 0/1 (fx_graph_cache_hit,aotautograd_cache_hit)"),
              std::string::npos) << message_and_notes(f);
    EXPECT_EQ(f.evidence["case"], "cached-artifact");
    EXPECT_NE(message_and_notes(f).find("L['s']"), std::string::npos);
    bool user_line = false;
    for (const auto& r : f.related) user_line |= dynamo::ends_with(r.loc.file, "stale_scalar.py");
    EXPECT_TRUE(user_line) << c;
    EXPECT_TRUE(by_rule(*a, "scalar-recompile").empty()) << c;  // it went dynamic after the 2nd value
  }
  auto nc = run_path(kFixtures + "/stale_clamp_nocache");
  EXPECT_TRUE(by_rule(*nc, "stale-scalar").empty());
  EXPECT_EQ(by_rule(*nc, "scalar-recompile").size(), 1u);
}

// The single-compile path: the same derived fixture with the compile folders of 2/0 and 2/2 deleted,
// so compile 2/1 (scalar dynamic at first, zf2 = 2.0) is the only one with Inductor code and nothing
// can be aligned. Its literals are recognised as the Dynamo graph's Sym(...) values at the hint.
TEST(StaleScalar, FiresOnSingleDynamicCompileBySymbolicValue) {
  size_t removed = 0;
  fs::path dir = derive_unpinned_s1_cuda(removed);
  std::vector<fs::path> doomed;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_directory() && (e.path().filename() == "model__1_inference_1.1" || e.path().filename() == "model__4_inference_3.3"))
      doomed.push_back(e.path());
  size_t deleted = 0;
  for (const auto& p : doomed) deleted += fs::remove_all(p) > 0;
  ASSERT_EQ(deleted, 2u);
  // The trace holds their output code too (it would be read in their place): its events go as well.
  size_t events = 0;
  for (const auto& e : fs::directory_iterator(dir / "trace")) {
    std::istringstream in(ilint::testing::read_all(e.path()));
    std::ostringstream out;
    std::string l, event;
    auto flush = [&] {
      bool doomed_code = event.find("\"inductor_output_code\"") != std::string::npos &&
                         (event.find("# AOT ID: ['1_inference']") != std::string::npos ||
                          event.find("# AOT ID: ['4_inference']") != std::string::npos);
      if (doomed_code) ++events;
      else out << event;
      event.clear();
    };
    while (std::getline(in, l)) {
      if (l.empty() || l[0] != '\t') flush();
      event += l + "\n";
    }
    flush();
    ilint::testing::write_all(e.path(), out.str());
  }
  ASSERT_EQ(events, 2u);
  auto a = run_path(dir.string());
  auto stale = by_rule(*a, "stale-scalar");
  ASSERT_EQ(stale.size(), 1u);
  const Finding& f = *stale[0];
  EXPECT_EQ(f.evidence["derived_by"], "sym_expr");
  EXPECT_NE(f.location.file.find("model__3_inference_2.2"), std::string::npos) << f.location.file;
  std::string lit = f.evidence["literal"];
  EXPECT_NE(line_of(f.location.file, f.location.line).find(lit), std::string::npos);
  EXPECT_NE(std::string(f.evidence["sym_expr"]).find("zf2=2.0"), std::string::npos);
  EXPECT_NE(message_and_notes(f).find("2.0 when compiled"), std::string::npos) << message_and_notes(f);
  fs::remove_all(dir);
}

// The cached-artifact case, on the model alone: compile 2/1 (value 2.0) is served the artifact of
// compile 2/0 (value 1.0), whose literal derives from the scalar.
TEST(StaleScalar, CachedArtifactServingSeveralValues) {
  Program p;
  ScalarCrossing sc;
  sc.local_name = "___stack0";
  sc.source = "L['___stack0']";
  sc.produced_by = ".item()";
  sc.origin = {"/u/seed1.py", 10, 0};
  sc.origin_code = "step = step_t.item()";
  sc.into_function = "torch_dynamo_resume_in_adam_step_at_10";
  sc.into_frame = 2;
  ScalarUse a;
  a.compile_id = "2/0";
  a.value = "1.0";
  a.pinned_by_guard = true;
  a.guards_logged = true;
  a.treatment = "specialized";
  DerivedLiteral d;
  d.where = "kernel";
  d.text = "-0.010000000000000002";
  d.node = "triton_poi_fused_0";
  d.key = "inference|triton_poi_fused_0/2#1";
  d.loc = {"/c/model__1_inference_1.1/output_code.py", 91, 0};
  d.compile_id = "model__1_inference_1.1";
  a.literals.push_back(d);
  ScalarUse b;
  b.compile_id = "2/1";
  b.value = "2.0";
  b.pinned_by_guard = true;
  b.guards_logged = true;
  b.treatment = "specialized";
  b.same_artifact_as = "2/0";
  b.cache_event = "aotautograd_cache_hit";
  sc.uses = {a, b};
  p.dynamo.scalars.push_back(sc);
  register_all_rules();
  auto rule = RuleRegistry::instance().create("stale-scalar");
  ASSERT_TRUE(rule);
  std::vector<Finding> out;
  rule->check(p, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].location.line, 91);
  EXPECT_EQ(out[0].evidence["case"], "cached-artifact");
  EXPECT_NE(message_and_notes(out[0]).find("reuses the artifact of compile 2/0"), std::string::npos);
  // Without the shared artifact, two pinned compiles are fine.
  p.dynamo.scalars[0].uses[1].same_artifact_as.clear();
  out.clear();
  rule->check(p, out);
  EXPECT_TRUE(out.empty());
  // And a compile whose guards were never logged is not called unpinned.
  p.dynamo.scalars[0].uses[0].pinned_by_guard = false;
  p.dynamo.scalars[0].uses[0].guards_logged = false;
  out.clear();
  rule->check(p, out);
  EXPECT_TRUE(out.empty());
}
