#pragma once
#include <string>

#include "analyzer/util/diag.h"

namespace ilint {

// Reads a whole file. On failure reports a diagnostic naming the file and returns false.
// Invalid UTF-8 is reported once (with its line) and each bad byte replaced by '?', so the
// parsers see text and the rest of the file is still analyzed. Files over `max_bytes` are
// refused with a diagnostic.
bool read_text_file(const std::string& path, std::string& out, DiagSink& diags,
                    size_t max_bytes = size_t(1) << 30);

}  // namespace ilint
