#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/util/diag.h"

namespace ilint {

// The largest file the analyzer reads as input.
inline constexpr size_t kMaxInputFileBytes = size_t(1) << 30;

// Reads a whole file. On failure reports a diagnostic naming the file and returns false.
// Invalid UTF-8 is reported once (with its line) and each bad byte replaced by '?', so the
// parsers see text and the rest of the file is still analyzed. Files over `max_bytes` are
// refused with a diagnostic.
bool read_text_file(const std::string& path, std::string& out, DiagSink& diags,
                    size_t max_bytes = kMaxInputFileBytes);

// Reads a file up to the first occurrence of `stop_at` (which is left out), or all of it when it
// does not occur: for files whose facts all lie in a header (fx_graph_runnable.py's config lines
// come before `class Repro`). The bytes read are checked as read_text_file checks them.
bool read_text_file_head(const std::string& path, std::string_view stop_at, std::string& out, DiagSink& diags,
                         size_t max_bytes = kMaxInputFileBytes);

// Reads a file as read_text_file does, with the same diagnostics, but in blocks of about
// `block_bytes`, each cut after a newline (a longer line is a longer block; the file's last block
// may end without one), for a reader that keeps nothing of the text: a large file is never held
// whole. `take(block, first_line, whole)` gets each block, `first_line` the line of the file its
// first byte is on, `whole` true when the block is the whole file; it returns false to stop.
// False when the file could not be read (with the diagnostic) or `take` stopped (then nothing
// is said of the bytes: a caller that stops reads the file again another way).
bool read_text_blocks(const std::string& path, size_t block_bytes, DiagSink& diags,
                      const std::function<bool(std::string_view block, int first_line, bool whole)>& take,
                      size_t max_bytes = kMaxInputFileBytes);

// Reads a file the user names outside the input: a config, a baseline, recorded confirmation
// results. As read_text_file (regular files only, opened without waiting on a FIFO's writer,
// bounded by `max_bytes`: a FIFO or /dev/zero given as --config hung the CLI), but a file that
// cannot be read is one error under `unreadable_code`, "cannot read <what>: <why>", naming the
// file. Invalid UTF-8 and an empty file are reported as read_text_file reports them.
bool read_named_file(const std::string& path, std::string& out, DiagSink& diags, const std::string& unreadable_code,
                     const std::string& what, size_t max_bytes = kMaxInputFileBytes);

// The lines the reports quote (the text report's snippets, the HTML report's user source lines,
// inline suppressions). A file is read once, in blocks, keeping only the lines asked for: the
// lines wanted before its first line() (a report gathers them first), and the one asked then. A
// line wanted or asked for after makes its file be read again; a line given stays as given. A
// file's every line as a string would take two to three times its size (an output_code.py may be
// 1 GiB; a report quotes a few of its lines). The paths come from the input, so a FIFO, a device
// or a file over `max_bytes` just has no lines; a line's trailing '\r' is dropped and invalid
// UTF-8 bytes are '?', as the readers have them.
class SourceLineCache {
 public:
  explicit SourceLineCache(size_t max_bytes) : max_bytes_(max_bytes) {}
  void want(const std::string& file, int line);
  // Line `line` (1-based) of `file`, or nullptr when the file cannot be read or has no such line.
  // The pointer stays valid while the cache lives.
  const std::string* line(const std::string& file, int line);

 private:
  struct File {
    std::set<int> wanted;
    std::map<int, std::string> lines;  // the wanted lines the file has
    bool read = false;
    bool readable = true;
  };
  void read(const std::string& path, File& file) const;
  size_t max_bytes_;
  std::map<std::string, File> files_;
};

}  // namespace ilint
