// The text of a line of the user's program a finding points at, for the HTML report's quotes and
// for inline suppressions (`# inductor-lint: ignore[rule]`). From the file itself when it lies under
// one of the folders the user gave (the inputs, --source-root): the logs name paths freely (a log
// may name ~/.ssh/id_rsa), so no other file is opened. Otherwise from the copy of the line that an
// FX graph's "# File: x.py:12 in fn, code: ..." comment carries (the line as it was when compiled).
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/model/program.h"
#include "analyzer/util/read_file.h"
#include "analyzer/util/source_loc.h"

namespace ilint {

struct UserSourceLine {
  enum class From { Nowhere, File, FxComment };
  std::string text;
  From from = From::Nowhere;
  // FxComment: the comment names the file by this very path (not only a file of the same name
  // elsewhere, which the HTML's quote accepts and a suppression must not).
  bool same_path = false;
  bool outside_roots = false;  // the file was not read: it lies outside every root
};

class UserSourceLines {
 public:
  // `roots`: canonical folders whose files may be read; empty: any file. `read_files` false: only
  // the FX comments are consulted.
  UserSourceLines(const Program& program, std::vector<std::string> roots, bool read_files = true);

  // `loc`'s line will be asked for: the lines wanted before a file is first read are read in one
  // pass over it (SourceLineCache).
  void want(const SourceLoc& loc);
  UserSourceLine line(const SourceLoc& loc);

  // Is `file` under one of the roots (resolved once per file)?
  bool readable(const std::string& file);

 private:
  const Program& program_;
  std::vector<std::string> roots_;
  bool read_files_;
  SourceLineCache files_{size_t(8) << 20};  // user sources: at most 8 MiB each
  std::map<std::string, bool> readable_;
  // (file name, line) -> the code an FX comment quotes there, the first node's in compile order;
  // made on the first line a file does not give (one pass over the nodes, not one per line).
  std::map<std::pair<std::string, int>, std::string> fx_code_;       // by file name
  std::map<std::pair<std::string, int>, std::string> fx_code_path_;  // by the path as written
  bool fx_code_made_ = false;
};

}  // namespace ilint
