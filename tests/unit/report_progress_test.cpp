// The progress line: drawn on a terminal, silent otherwise.
#include <gtest/gtest.h>

#include "analyzer/report/progress.h"
#include "report_test_util.h"

using namespace ilint;
using namespace ilint_test;

TEST(ReportProgress, DrawsOneRewrittenLineAndClearsIt) {
  std::ostringstream out;
  {
    Progress p(out, true);
    p.phase("parsing", 3);
    p.step("model__0_forward_1.0");
    p.step("model__0_backward_3.1");
  }
  std::string s = out.str();
  EXPECT_NE(s.find("\rparsing [1/3] model__0_forward_1.0\x1b[K"), std::string::npos) << s;
  EXPECT_NE(s.find("\rparsing [2/3] model__0_backward_3.1\x1b[K"), std::string::npos) << s;
  EXPECT_EQ(s.find('\n'), std::string::npos);  // never scrolls
  EXPECT_EQ(s.substr(s.size() - 4), "\r\x1b[K");  // cleared at the end
}

TEST(ReportProgress, SilentWhenDisabled) {
  std::ostringstream out;
  Progress p(out, false);
  p.phase("parsing", 3);
  p.step("x");
  p.finish();
  EXPECT_TRUE(out.str().empty());
}

TEST(ReportProgress, CliShowsItOnlyOnATerminal) {
  std::string cmd = shell_quote(binary()) + " --fail-on never -o /dev/null " + shell_quote(fixture("s2_cuda"));
  auto piped = run_cmd(cmd + " 2>&1");
  EXPECT_EQ(piped.exit_code, 0);
  EXPECT_EQ(piped.output.find('\r'), std::string::npos) << piped.output;
  EXPECT_EQ(piped.output.find("running rules"), std::string::npos) << piped.output;
  // Under a pseudo-terminal (util-linux `script`), stderr is a terminal.
  if (!have_command("script")) GTEST_SKIP() << "no `script` command to give the CLI a terminal";
  auto tty = run_cmd("TERM=xterm script -qec " + shell_quote(cmd) + " /dev/null");
  EXPECT_NE(tty.output.find("\rrunning rules"), std::string::npos) << tty.output;
}
