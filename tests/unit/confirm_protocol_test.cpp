// The C++ side of confirmation: the subprocess protocol (timeouts, bad answers, a missing
// interpreter) and attaching answers. The numbers themselves come from real GPU runs recorded
// under tests/gpu/results/ (see confirm_results_test.cpp).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include "analyzer/confirm/confirm.h"
#include "test_util.h"

using namespace ilint;
using namespace ilint::testing;

namespace {
// A stand-in tool: a shell script run by /bin/sh in place of python, to exercise the protocol.
std::string tool_script(const TempDir& t, const std::string& body) {
  std::string p = (t.path / "tool.sh").string();
  write_all(p, body);
  chmod(p.c_str(), 0755);
  return p;
}
}  // namespace

TEST(ConfirmProtocol, RequestCarriesTheFindingAndTheCompileFolder) {
  Analysis a;
  run_analysis({fixture("s2_cuda")}, a);
  ASSERT_FALSE(a.findings.empty());
  ConfirmOptions o;
  const Compile* c = a.program.compile(a.findings[0].compile_id);
  ASSERT_NE(c, nullptr);
  auto r = confirm_request(a.findings[0], c, o);
  EXPECT_EQ(r["protocol"], 1);
  EXPECT_EQ(r["compile_dir"], c->files.dir.str());
  EXPECT_EQ(r["finding"]["rule"], "reduced-precision-scan");
  EXPECT_EQ(r["device"], "cuda");
}

TEST(ConfirmProtocol, TimeoutKillsTheToolAndSaysSo) {
  TempDir t;
  ConfirmOptions o;
  o.python = "/bin/sh";
  o.tool = tool_script(t, "sleep 30\n");
  o.timeout_s = 1;
  auto ans = run_confirm_tool(nlohmann::json{{"protocol", 1}}, o);
  EXPECT_EQ(ans["verdict"], "skipped");
  EXPECT_EQ(ans["reason"], "timeout");
}

TEST(ConfirmProtocol, GarbageAnswerIsSkippedAsBadAnswer) {
  TempDir t;
  ConfirmOptions o;
  o.python = "/bin/sh";
  o.tool = tool_script(t, "cat >/dev/null; echo not json\n");
  auto ans = run_confirm_tool(nlohmann::json{{"protocol", 1}}, o);
  EXPECT_EQ(ans["verdict"], "skipped");
  EXPECT_EQ(ans["reason"], "run-failed");  // docs/confirm-protocol.md: no parsable answer
  Finding f;
  attach_confirmation(f, nlohmann::json{{"verdict", "definitely"}});
  EXPECT_EQ(f.confirmation["verdict"], "skipped");
  EXPECT_EQ(f.confirmation["reason"], "bad-answer");
}

TEST(ConfirmProtocol, AnswerIsReadFromStdout) {
  TempDir t;
  ConfirmOptions o;
  o.python = "/bin/sh";
  o.tool = tool_script(t, "cat >/dev/null; echo '{\"protocol\": 1, \"verdict\": \"not-reproduced\", \"detail\": \"x\"}'\n");
  auto ans = run_confirm_tool(nlohmann::json{{"protocol", 1}}, o);
  EXPECT_EQ(ans["verdict"], "not-reproduced");
}

TEST(ConfirmProtocol, MissingInterpreterIsSkippedNotFatal) {
  TempDir t;
  ConfirmOptions o;
  o.python = "/nonexistent/python3";
  o.tool = tool_script(t, "");
  auto ans = run_confirm_tool(nlohmann::json{{"protocol", 1}}, o);
  EXPECT_EQ(ans["verdict"], "skipped");
  EXPECT_EQ(ans["reason"], "no-python");
}
