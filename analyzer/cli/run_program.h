// `inductor-lint run -- python train.py ARGS`: runs the user's program with torch.compile's debug
// switches pointed into a fresh folder, for the analysis that follows. The only place the CLI
// starts user code; `check` never does.
#pragma once
#include <string>
#include <vector>

namespace ilint {

struct ProgramRun {
  std::string dir;          // the capture folder: torch_compile_debug/, trace/, torch_logs.txt
  bool started = false;     // false: `error` says why (the folder, the command)
  int exit_status = 0;      // the program's exit code, or 128 + the signal that ended it
  size_t log_lines_not_shown = 0;  // lines of torch's debug records written to torch_logs.txt only
  std::string error;
};

// The folder `run` writes into: `requested` when given (it must not exist, or be an empty
// folder), else inductor-lint-runs/<UTC time>-<pid>/ under the working directory.
std::string run_folder(const std::string& requested);

// Runs `command` (looked up on PATH) with TORCH_COMPILE_DEBUG=1, TORCH_COMPILE_DEBUG_DIR=<dir>,
// TORCH_TRACE=<dir>/trace, TORCH_LOGS with the analyzer's log kinds added to the user's, and a
// fresh Inductor cache inside <dir> (removed afterwards) unless TORCHINDUCTOR_CACHE_DIR is set:
// a warm cache's hits would leave no generated code to read. Its standard error goes to
// <dir>/torch_logs.txt and to the terminal, less torch's records at levels V, I and D and their
// indented continuation lines when the user did not set TORCH_LOGS (they asked for none); standard
// input and output are the CLI's own. The run ends when the program exits, not when whatever it
// left running closes its standard error.
ProgramRun run_program_captured(const std::vector<std::string>& command, const std::string& dir);

// The Python interpreter of `command` (`python3 train.py` -> python3), or empty when its first
// word does not name a Python.
std::string python_of_command(const std::vector<std::string>& command);

}  // namespace ilint
