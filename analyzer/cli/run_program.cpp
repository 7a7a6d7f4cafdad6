#include "analyzer/cli/run_program.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>
#include <string_view>

#include "analyzer/parse/python.h"

extern char** environ;

namespace ilint {

namespace {

namespace fs = std::filesystem;

// The TORCH_LOGS kinds the Dynamo layer reads (docs/dynamo.md), added to the user's own.
constexpr const char* kAnalyzerLogs[] = {"graph_breaks", "recompiles", "guards", "dynamic"};

std::string with_analyzer_logs(const char* user) {
  std::string logs = user ? user : "";
  // `kind` or `+kind` among the comma-separated items.
  auto has = [&](std::string_view kind) {
    for (std::string_view rest = logs;;) {
      const size_t comma = rest.find(',');
      std::string_view item = py::trim_space(rest.substr(0, comma));
      if (!item.empty() && item.front() == '+') item.remove_prefix(1);
      if (item == kind) return true;
      if (comma == std::string_view::npos) return false;
      rest.remove_prefix(comma + 1);
    }
  };
  for (const char* kind : kAnalyzerLogs)
    if (!has(kind)) logs += (logs.empty() ? "" : ",") + std::string(kind);
  return logs;
}

bool write_all(int fd, const char* data, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    data += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

// The level letter of a line that starts one of torch's own log records, as its logging formats
// them ("V1207 06:48:14.856000 31580 torch/_dynamo/guards.py:4483] [0/0] [__guards] ..."), after the
// "[rank0]:" a distributed run puts first; else 0.
char torch_record_level(std::string_view line) {
  if (line.rfind("[rank", 0) == 0) {
    size_t close = line.find("]:");
    if (close != std::string_view::npos && close < 16) line.remove_prefix(close + 2);
  }
  if (line.size() < 24 || std::string_view("VIDWEC").find(line[0]) == std::string_view::npos) return 0;
  for (size_t i = 1; i <= 4; ++i)
    if (!std::isdigit(static_cast<unsigned char>(line[i]))) return 0;
  if (line[5] != ' ' || line[8] != ':' || line[11] != ':' || line[14] != '.') return 0;
  size_t close = line.find("] ", 15);
  size_t source = line.find(" torch/", 15);
  return close != std::string_view::npos && source < close ? line[0] : 0;
}

// A line that continues the record above it: indented, a tree of guards ("| +- ..."), or empty.
bool continues_record(std::string_view line) {
  return line.empty() || line[0] == ' ' || line[0] == '\t' || line[0] == '|' || line[0] == '+' || line[0] == '\n' ||
         line[0] == '\r';
}

// What of the program's standard error reaches the terminal. The log kinds `run` adds (guards
// alone are hundreds of lines per compile) go to torch_logs.txt only: a record of torch's at level
// V, I or D is held back with its continuation lines (continues_record). Any other line is shown: the
// program's own output, torch's warnings and errors, tracebacks. All of it is shown when the user set
// TORCH_LOGS. A carriage return ends a line too (a progress bar redraws with one).
class TerminalEcho {
 public:
  explicit TerminalEcho(bool hide_debug_records) : hide_(hide_debug_records) {}
  void write(const char* data, size_t n) {
    if (!hide_) {
      (void)write_all(STDERR_FILENO, data, n);
      return;
    }
    pending_.append(data, n);
    size_t start = 0;
    for (size_t end; (end = pending_.find_first_of("\n\r", start)) != std::string::npos; start = end + 1)
      line(std::string_view(pending_).substr(start, end + 1 - start));
    pending_.erase(0, start);
  }
  void finish() {
    if (!pending_.empty()) line(pending_);
    pending_.clear();
  }
  size_t hidden_lines() const { return hidden_; }

 private:
  void line(std::string_view l) {
    if (char level = torch_record_level(l)) holding_ = level == 'V' || level == 'I' || level == 'D';
    else if (!continues_record(l)) holding_ = false;
    if (holding_) {
      ++hidden_;
      return;
    }
    (void)write_all(STDERR_FILENO, l.data(), l.size());
  }
  bool hide_;
  bool holding_ = false;
  size_t hidden_ = 0;
  std::string pending_;
};

}  // namespace

std::string run_folder(const std::string& requested) {
  if (!requested.empty()) return requested;
  char stamp[32];
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &utc);
  return (fs::path("inductor-lint-runs") / (std::string(stamp) + "-" + std::to_string(getpid()))).string();
}

std::string python_of_command(const std::vector<std::string>& command) {
  if (command.empty()) return "";
  std::string base = fs::path(command[0]).filename().string();
  // python, python3, python3.11, python3.13t; not pythonw-like wrappers or `py.test`.
  if (base.rfind("python", 0) != 0) return "";
  for (char c : base.substr(6))
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 't')) return "";
  return command[0];
}

namespace {

// The program's environment: this process's, with the capture switches set into `folder`, and a
// fresh Inductor cache under it (`cache`) unless the user named one.
std::vector<std::string> capture_environment(const fs::path& folder, const char* user_logs, fs::path& cache) {
  std::map<std::string, std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    size_t eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  env["TORCH_COMPILE_DEBUG"] = "1";
  env["TORCH_COMPILE_DEBUG_DIR"] = folder.string();  // torch writes <dir>/torch_compile_debug/run_*
  env["TORCH_TRACE"] = (folder / "trace").string();
  env["TORCH_LOGS"] = with_analyzer_logs(user_logs);
  if (!env.count("TORCHINDUCTOR_CACHE_DIR")) {
    cache = folder / ".inductor_cache";
    env["TORCHINDUCTOR_CACHE_DIR"] = cache.string();
  }
  std::vector<std::string> env_s;
  for (const auto& [k, v] : env) env_s.push_back(k + "=" + v);
  return env_s;
}

}  // namespace

ProgramRun run_program_captured(const std::vector<std::string>& command, const std::string& dir) {
  ProgramRun r;
  std::error_code ec;
  fs::path folder = fs::absolute(dir, ec);
  r.dir = folder.string();
  if (command.empty()) {
    r.error = "no program to run (inductor-lint run -- python train.py ARGS)";
    return r;
  }
  // A folder of an earlier run would mix two runs' compiles into one analysis.
  if (fs::exists(fs::symlink_status(folder, ec)) &&
      (!fs::is_directory(fs::symlink_status(folder, ec)) || !fs::is_empty(folder, ec))) {
    r.error = "the run folder " + r.dir + " exists and is not an empty folder";
    return r;
  }
  fs::create_directories(folder, ec);
  if (ec) {
    r.error = "cannot create the run folder " + r.dir + ": " + ec.message();
    return r;
  }
  const std::string logs_path = (folder / "torch_logs.txt").string();
  int logs_fd = open(logs_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (logs_fd < 0) {
    r.error = "cannot create " + logs_path + ": " + std::strerror(errno);
    return r;
  }

  const char* user_logs = std::getenv("TORCH_LOGS");
  fs::path cache;
  std::vector<std::string> env_s = capture_environment(folder, user_logs, cache);
  std::vector<char*> envp;
  for (auto& s : env_s) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_s = command;
  std::vector<char*> argv;
  for (auto& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);

  int err_pipe[2];
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    r.error = std::string("cannot make a pipe: ") + std::strerror(errno);
    close(logs_fd);
    return r;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, err_pipe[1], 2);
  // Ctrl-C reaches the program (same process group) and ends it; the CLI ignores it meanwhile and
  // analyzes what the program left. The program gets the default disposition back.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  struct sigaction ignore {}, old_int{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, argv[0], &fa, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(err_pipe[1]);
  if (rc != 0) {
    sigaction(SIGINT, &old_int, nullptr);
    close(err_pipe[0]);
    close(logs_fd);
    r.error = "cannot run " + command[0] + ": " + std::strerror(rc);
    return r;
  }
  r.started = true;
  // The program's standard error, as it comes, to the terminal and to torch_logs.txt (the Dynamo
  // logs the analysis reads). A failed write to either does not stop the copy to the other.
  // Until the program exits; then what is already in the pipe. A process it left behind that still
  // holds its standard error does not keep the run waiting.
  bool logs_ok = true;
  TerminalEcho echo(/*hide_debug_records=*/!(user_logs && *user_logs));
  fcntl(err_pipe[0], F_SETFL, fcntl(err_pipe[0], F_GETFL) | O_NONBLOCK);
  char buf[65536];
  int status = 0;
  bool exited = false, reaped = true;
  int wait_errno = 0;
  for (bool open = true; open;) {
    if (!exited) {
      pid_t w = waitpid(pid, &status, WNOHANG);
      if (w == pid) exited = true;
      else if (w < 0 && errno != EINTR) exited = true, reaped = false, wait_errno = errno;
    }
    pollfd p{err_pipe[0], POLLIN, 0};
    if (!exited && poll(&p, 1, 100) == 0) continue;
    for (;;) {
      ssize_t n = read(err_pipe[0], buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n == 0 || (n < 0 && errno != EAGAIN)) open = false;
      if (n <= 0) break;
      echo.write(buf, static_cast<size_t>(n));
      if (logs_ok) logs_ok = write_all(logs_fd, buf, static_cast<size_t>(n));
    }
    if (exited) open = false;
  }
  echo.finish();
  r.log_lines_not_shown = echo.hidden_lines();
  close(err_pipe[0]);
  // The program closed its standard error before exiting: wait for it.
  while (!exited) {
    if (waitpid(pid, &status, 0) == pid) exited = true;
    else if (errno != EINTR) exited = true, reaped = false, wait_errno = errno;
  }
  sigaction(SIGINT, &old_int, nullptr);
  // A program not known to have succeeded counts as failed.
  r.exit_status = !reaped ? 1 : WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
  if (!reaped) r.error = std::string("could not learn how the program ended: ") + std::strerror(wait_errno);
  if (close(logs_fd) != 0) logs_ok = false;
  if (!logs_ok) r.error = "could not write all of " + logs_path + " (the Dynamo logs are incomplete)";
  // The cache holds compiled objects and copies of the generated code (hundreds of MB for a large
  // model); the capture folder already has what the analysis reads.
  if (!cache.empty()) fs::remove_all(cache, ec);
  return r;
}

}  // namespace ilint
