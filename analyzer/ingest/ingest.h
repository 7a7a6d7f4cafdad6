// Ingest: find every compile and log file under the paths the user gave. Reads no file contents
// beyond what it needs to classify a file; parsing comes next.
#pragma once
#include <string>
#include <vector>

#include "analyzer/model/model.h"
#include "analyzer/util/diag.h"

namespace ilint {

struct IngestResult {
  std::vector<CompileFiles> compiles;        // one per compile folder or lone output_code.py / FX JSON
  std::vector<std::string> dynamo_debug_logs;  // torchdynamo/debug.log
  std::vector<std::string> aot_debug_logs;     // torchinductor/aot_model___N_debug.log
  std::vector<std::string> trace_logs;         // TORCH_TRACE structured logs
  std::vector<std::string> torch_logs;         // TORCH_LOGS text (the capture's stderr.txt, *.log given directly)
  std::vector<std::string> capture_stdout;     // stdout.txt of a capture (what the run measured)
  std::vector<std::string> user_sources;       // the captured program (*.py beside the capture), if any
  int walk_threads = 0;  // the most threads a folder's walk took (0: no folder given)
};

// Walks each path (a file or a folder, at any depth). Symlinks are not followed into folders, so
// a symlink loop cannot hang the walk. Folders are listed on up to `jobs` threads; results are
// sorted, so they are the same at any `jobs`. With `folders_per_thread` > 0 a folder is walked on
// one thread until that many folders wait to be listed (a further thread at each multiple).
IngestResult ingest_paths(const std::vector<std::string>& paths, DiagSink& diags, int jobs = 1,
                          size_t folders_per_thread = 0);

// Splits "model__0_forward_1.0" into its parts; false when the name is not of that form.
bool parse_compile_dir_name(const std::string& name, int& model_index, std::string& kind, std::string& trailing);

}  // namespace ilint
