// The C++ side of confirmation: the subprocess protocol (timeouts, bad answers, a missing
// interpreter) and attaching answers. The numbers themselves come from real GPU runs recorded
// under tests/gpu/results/ (see confirm_results_test.cpp).
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <thread>

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
  EXPECT_EQ(ans["verdict"], "not-reproduced") << ans.dump();
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

// One deadline bounds the whole exchange, and the tool's process group goes with it: a tool that
// never reads a request larger than the pipe (the write blocked), one that closes its output and
// lingers (waitpid waited), one that writes 70 MB and lingers, and a child left behind by a tool that
// answered and exited. Each comes back within a few seconds of --timeout 1, none outlives the call.
TEST(ConfirmProtocol, OneDeadlineCoversTheWholeExchange) {
  TempDir t;
  ConfirmOptions o;
  o.python = "/bin/sh";
  o.timeout_s = 1;
  nlohmann::json big{{"protocol", 1}, {"finding", {{"kernel", std::string(1 << 20, 'k')}}}};
  auto timed = [&](const std::string& body, const nlohmann::json& request) {
    o.tool = tool_script(t, body);
    auto t0 = std::chrono::steady_clock::now();
    auto ans = run_confirm_tool(request, o);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(s, 5.0) << body;
    return ans;
  };
  EXPECT_EQ(timed("sleep 30\n", big)["reason"], "timeout");
  EXPECT_EQ(timed("cat >/dev/null; exec >&-; sleep 30\n", big)["reason"], "timeout");
  auto flood = timed("cat >/dev/null; head -c 70000000 /dev/zero; sleep 30\n", nlohmann::json{{"protocol", 1}});
  EXPECT_EQ(flood["reason"], "run-failed");
  EXPECT_NE(flood["detail"].get<std::string>().find("64 MiB"), std::string::npos);
  // A tool that answers and leaves a child: the answer is taken, the child is killed with the group.
  std::string pidfile = (t.path / "child.pid").string();
  auto ans = timed("cat >/dev/null; sleep 30 >/dev/null 2>&1 & echo $! >" + pidfile +
                       "; echo '{\"protocol\": 1, \"verdict\": \"not-reproduced\", \"detail\": \"x\"}'\n",
                   nlohmann::json{{"protocol", 1}});
  EXPECT_EQ(ans["verdict"], "not-reproduced") << ans.dump();
  int child = std::stoi(read_all(pidfile));
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {  // the kill is sent; the child's exit is the kernel's
    gone = kill(child, 0) != 0 || read_all("/proc/" + std::to_string(child) + "/stat").find(") Z ") != std::string::npos;
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(gone) << "child " << child << " outlived the tool";
}
