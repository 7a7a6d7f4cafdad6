// The line-level Dynamo log parsers, one input line at a time: the glog prefix, compile ids,
// guard-tree lines, guard comments, recompile reasons (guard failures), equality splitting.
#include <cstdint>
#include <string_view>

#include "analyzer/dynamo/guard_text.h"
#include "analyzer/dynamo/log_line.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view all(reinterpret_cast<const char*>(data), size);
  ilint::SourceLoc loc{"fuzz/stderr.txt", 1, 0};
  while (!all.empty()) {
    size_t nl = all.find('\n');
    std::string_view line = all.substr(0, nl);
    all = nl == std::string_view::npos ? std::string_view() : all.substr(nl + 1);
    auto glog = ilint::dynamo::parse_glog_line(line);  // kept alive: `line` may view its rest
    if (glog) line = glog->rest;
    (void)ilint::dynamo::parse_compile_id(line);
    int depth = 0;
    (void)ilint::dynamo::parse_guard_tree_line(line, loc, &depth);
    (void)ilint::dynamo::parse_guard_failure(line);
    (void)ilint::dynamo::local_name_of(line);
    std::string source, value, code, fn;
    (void)ilint::dynamo::split_equality(line, source, value);
    std::optional<ilint::SourceLoc> user;
    ilint::dynamo::split_guard_comment(std::string(line), code, user, fn);
    double v;
    (void)ilint::dynamo::parse_float_literal(line, v);
    ++loc.line;
  }
  return 0;
}
