#pragma once
#include <string>
#include <string_view>

#include "analyzer/util/diag.h"

namespace ilint {

// Reads a whole file. On failure reports a diagnostic naming the file and returns false.
// Invalid UTF-8 is reported once (with its line) and each bad byte replaced by '?', so the
// parsers see text and the rest of the file is still analyzed. Files over `max_bytes` are
// refused with a diagnostic.
bool read_text_file(const std::string& path, std::string& out, DiagSink& diags,
                    size_t max_bytes = size_t(1) << 30);

// Reads a file up to the first occurrence of `stop_at` (which is left out), or all of it when it
// does not occur: for files whose facts all lie in a header (fx_graph_runnable.py's config lines
// come before `class Repro`). The bytes read are checked as read_text_file checks them.
bool read_text_file_head(const std::string& path, std::string_view stop_at, std::string& out, DiagSink& diags,
                         size_t max_bytes = size_t(1) << 30);

}  // namespace ilint
