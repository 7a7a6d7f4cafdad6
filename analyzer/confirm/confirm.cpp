#include "analyzer/confirm/confirm.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

#include "analyzer/report/json.h"
#include "analyzer/util/install_layout.h"
#include "analyzer/util/json_fields.h"

extern char** environ;

namespace ilint {

bool is_known_verdict(const std::string& v) {
  return v == "confirmed" || v == "precision-artifact" || v == "not-reproduced" || v == "skipped";
}

namespace {

nlohmann::json skipped(const std::string& reason, const std::string& detail) {
  return {{"protocol", 1}, {"verdict", "skipped"}, {"reason", reason}, {"detail", detail}};
}

std::string default_tool() { return companion_file("tools/confirm.py"); }

}  // namespace

nlohmann::json confirm_request(const Finding& f, const Compile* c, const ConfirmOptions& o) {
  nlohmann::json r;
  r["protocol"] = 1;
  r["compile_dir"] = c ? c->files.dir : "";
  r["finding"] = finding_json(f);
  r["device"] = o.device;
  r["seeds"] = o.seeds;
  r["timeout_s"] = o.timeout_s;
  if (!o.script.empty())
    r["script"] = {{"path", o.script}, {"args", o.script_args}, {"backends", {"eager", "aot_eager", "inductor"}}};
  return r;
}

nlohmann::json run_confirm_tool(const nlohmann::json& request, const ConfirmOptions& o) {
  const std::string& tool = o.tool;
  if (tool.empty())
    return skipped("no-tool", "the tool is neither installed beside the binary (" + executable_dir() +
                                  "/../tools) nor in its source tree; name one with --confirm-tool or --localize-tool");
  if (!std::filesystem::exists(tool)) return skipped("no-tool", "confirmation tool not found: " + tool);
  // Close-on-exec: the tool gets them as its stdin and stdout only (dup2 clears the flag there), so
  // no other copy of the answer pipe's write end lives in what the tool starts (a child it leaves
  // behind would otherwise hold the answer open until the deadline).
  int in_pipe[2], out_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) != 0) return skipped("spawn-failed", std::strerror(errno));
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    close(in_pipe[0]);
    close(in_pipe[1]);
    return skipped("spawn-failed", std::strerror(errno));
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out_pipe[1], 1);
  posix_spawn_file_actions_addclose(&fa, in_pipe[1]);
  posix_spawn_file_actions_addclose(&fa, out_pipe[0]);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);  // its own group: a timeout kills all of it
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<std::string> argv_s = {o.python, tool};
  std::vector<char*> argv;
  for (auto& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid;
  int rc = posix_spawnp(&pid, o.python.c_str(), &fa, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(in_pipe[0]);
  close(out_pipe[1]);
  if (rc != 0) {
    close(in_pipe[1]);
    close(out_pipe[0]);
    return skipped("no-python", "cannot run " + o.python + ": " + std::strerror(rc));
  }
  signal(SIGPIPE, SIG_IGN);
  // One deadline covers the whole exchange: writing the request (a tool that does not read would
  // block a plain write once the pipe is full), reading the answer, and the tool's exit (one that
  // closes its output and lingers would block a plain waitpid). Past it, the tool's process group
  // is killed. The group is killed after a normal exit too: nothing the tool started outlives it.
  const std::string req = request.dump();
  fcntl(in_pipe[1], F_SETFL, fcntl(in_pipe[1], F_GETFL) | O_NONBLOCK);
  fcntl(out_pipe[0], F_SETFL, fcntl(out_pipe[0], F_GETFL) | O_NONBLOCK);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(o.timeout_s);
  auto ms_left = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
  };
  std::string out;
  size_t off = 0;
  int to_tool = in_pipe[1], from_tool = out_pipe[0];
  bool timed_out = false, too_large = false;
  char buf[65536];
  while (from_tool >= 0) {
    long long left = ms_left();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p[2] = {{from_tool, POLLIN, 0}, {to_tool, POLLOUT, 0}};
    int n = poll(p, to_tool >= 0 ? 2 : 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) continue;
    if (to_tool >= 0 && (p[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t w = write(to_tool, req.data() + off, req.size() - off);
      if (w > 0) off += static_cast<size_t>(w);
      if (off == req.size() || (w < 0 && errno != EAGAIN && errno != EINTR)) {  // all sent, or the tool closed it
        close(to_tool);
        to_tool = -1;
      }
    }
    if (p[0].revents & (POLLIN | POLLERR | POLLHUP)) {
      ssize_t r = read(from_tool, buf, sizeof buf);
      if (r < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (r <= 0) {  // end of the answer
        close(from_tool);
        from_tool = -1;
        break;
      }
      out.append(buf, static_cast<size_t>(r));
      if (out.size() > (64u << 20)) {  // an answer that large is not an answer
        too_large = true;
        break;
      }
    }
  }
  if (to_tool >= 0) close(to_tool);
  if (from_tool >= 0) close(from_tool);
  // Its exit is watched without reaping it (WNOWAIT), so that its group id cannot be reused by
  // another process before the kill below.
  while (!timed_out && !too_large) {
    siginfo_t info{};
    if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) break;
    if (ms_left() <= 0) timed_out = true;
    else std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(-pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  if (timed_out) return skipped("timeout", "no answer within " + std::to_string(o.timeout_s) + " s");
  if (too_large) return skipped("run-failed", "the tool's answer passed 64 MiB; stopped");
  nlohmann::json ans = nlohmann::json::parse(out, nullptr, false);
  if (ans.is_discarded() || !ans.is_object())
    return skipped("run-failed", "the tool's output is not a JSON object (exit status " +
                                     std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
  return ans;
}

std::string recompute_graph_verdict(const nlohmann::json& answer) {
  // Recorded answers may come from a file a person edited: every member is read by type
  // (json_fields.h), and an output whose numbers are not numbers is left out, not guessed at.
  if (json_string(answer, "mode") != "graph" || !answer.contains("seeds") || !answer["seeds"].is_array())
    return "";
  // torch._dynamo.utils.same() with an fp64 reference, per floating output: outputs that agree with eager
  // (allclose) say nothing; one that differs passes when its fp64 RMSE is at most
  // multiplier * eager's fp64 RMSE + tol/10. Any failing output confirms the finding.
  bool any_differs = false, any_fails = false, any_output = false;
  for (const auto& seed : answer["seeds"]) {
    if (!seed.is_object() || !seed.contains("outputs") || !seed["outputs"].is_array()) continue;
    for (const auto& o : seed["outputs"]) {
      // An integer or boolean output is compared with eager exactly, dtype included: any
      // difference fails, float64 having nothing to add.
      if (o.is_object() && json_bool(o, "exact", false) && o.contains("agree") && o["agree"].is_boolean()) {
        any_output = true;
        if (!o["agree"].get<bool>()) any_differs = any_fails = true;
        continue;
      }
      if (!o.is_object() || !o.contains("eager_vs_fp64") || !o.contains("compiled_vs_fp64") ||
          !o["eager_vs_fp64"].is_object() || !o["compiled_vs_fp64"].is_object())
        continue;
      constexpr auto number = &nlohmann::json::is_number;
      if (json_member_mistyped(o, "allclose", &nlohmann::json::is_boolean) ||
          json_member_mistyped(o["eager_vs_fp64"], "rmse", number) ||
          json_member_mistyped(o["compiled_vs_fp64"], "rmse", number) || json_member_mistyped(o, "multiplier", number) ||
          json_member_mistyped(o, "tol", number))
        continue;
      any_output = true;
      if (json_bool(o, "allclose", false)) continue;
      any_differs = true;
      double eager = json_number(o["eager_vs_fp64"], "rmse", 0.0);
      double compiled = json_number(o["compiled_vs_fp64"], "rmse", 0.0);
      double mult = json_number(o, "multiplier", 2.0);
      double tol = json_number(o, "tol", 1e-4);
      if (compiled > mult * eager + tol / 10) any_fails = true;
    }
  }
  if (!any_output) return "";
  if (any_fails) return "confirmed";
  return any_differs ? "precision-artifact" : "not-reproduced";
}

void attach_confirmation(Finding& f, const nlohmann::json& answer) {
  if (!answer.is_object() || !answer.contains("verdict") || !answer["verdict"].is_string() ||
      !is_known_verdict(answer["verdict"].get<std::string>())) {
    f.confirmation = skipped("bad-answer", "answer has no known verdict");
    return;
  }
  f.confirmation = answer;
  // The verdict is recomputed here from the numbers, so a tool and analyzer that disagree on the
  // rule are caught rather than trusted.
  std::string again = recompute_graph_verdict(answer);
  if (!again.empty()) f.confirmation["verdict_recomputed"] = again;
  if (!again.empty() && again != answer["verdict"].get<std::string>())
    f.confirmation["verdict_mismatch"] = true;
  if (!f.confirmation.contains("summary")) {
    std::string s = json_string(answer, "detail");
    if (answer.contains("reason") && answer["reason"].is_string())
      s = answer["reason"].get<std::string>() + (s.empty() ? "" : ": " + s);
    f.confirmation["summary"] = s;
  }
}

void confirm_findings(Analysis& a, const ConfirmOptions& o) {
  nlohmann::json machine_refusal;  // no torch / no CUDA: the same answer for every finding
  ConfirmOptions with_tool = o;
  if (with_tool.tool.empty()) with_tool.tool = default_tool();
  const bool fallback = o.script_as_fallback && !o.script.empty();
  ConfirmOptions graph_mode = with_tool;
  if (fallback) graph_mode.script.clear(), graph_mode.script_args.clear();
  for (auto& f : a.findings) {
    if (!machine_refusal.is_null()) {
      attach_confirmation(f, machine_refusal);
      continue;
    }
    const Compile* c = a.program.compile(f.compile_id);
    nlohmann::json ans;
    if (c && c->files.dir.empty() && !c->files.trace_compile_id.empty() && graph_mode.script.empty()) {
      // Graph mode loads the compile folder's fx_graph_runnable.py and output code as modules.
      ans = skipped("no-runnable", "compile " + c->files.trace_compile_id +
                                       " was read from TORCH_TRACE payloads; graph mode loads its "
                                       "torch_compile_debug folder: give the folder, or use --script");
    } else {
      ans = run_confirm_tool(confirm_request(f, c, graph_mode), graph_mode);
    }
    const std::string verdict = json_string(ans, "verdict");
    const std::string graph_reason = json_string(ans, "reason");
    if (fallback && (verdict == "not-reproduced" ||
                     (verdict == "skipped" && (graph_reason == "needs-script" || graph_reason == "no-runnable"))))
      ans = run_confirm_tool(confirm_request(f, c, with_tool), with_tool);
    std::string reason = json_string(ans, "reason");
    if (json_string(ans, "verdict") == "skipped" &&
        (reason == "no-torch" || reason == "no-cuda" || reason == "no-python" || reason == "no-tool"))
      machine_refusal = ans;
    attach_confirmation(f, ans);
  }
}

size_t attach_recorded(Analysis& a, const nlohmann::json& recorded, DiagSink& diags) {
  const nlohmann::json* list = &recorded;
  if (recorded.is_object() && recorded.contains("results")) list = &recorded["results"];
  if (!list->is_array()) {
    diags.warning("confirm-results", "recorded results are not a JSON array");
    return 0;
  }
  size_t n = 0;
  for (const auto& r : *list) {
    if (!r.is_object()) continue;
    for (auto& f : a.findings) {
      bool match = false;
      if (r.contains("fingerprint") && r["fingerprint"].is_string()) match = r["fingerprint"] == f.fingerprint;
      else if (r.contains("compile_dir") && r["compile_dir"].is_string()) {
        const Compile* c = a.program.compile(f.compile_id);
        std::string dir = r["compile_dir"];
        match = c && !c->files.dir.empty() &&
                std::filesystem::path(c->files.dir.str()).filename() == std::filesystem::path(dir).filename() &&
                (!r.contains("rule") || r["rule"] == f.rule);
      }
      if (match) {
        attach_confirmation(f, r.contains("answer") ? r["answer"] : r);
        ++n;
      }
    }
  }
  return n;
}

}  // namespace ilint
