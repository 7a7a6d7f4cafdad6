// The files the CLI writes (-o, --write-baseline): whole or not at all, never through a link.
#pragma once
#include <memory>
#include <ostream>
#include <string>

namespace ilint {

// Writes `path` through a temporary file beside it that replaces it on commit() (rename): a failed
// or interrupted write leaves the previous report in place, and a reader never sees half a file.
// A `path` that is a symbolic link is refused (a capture that holds `report.html -> ~/.bashrc`
// must not make `-o capture/report.html` overwrite the link's target). A `path` that exists and is
// not a regular file (/dev/stdout, /dev/null, a FIFO) is written in place: there is no file to
// replace. Every write is checked: commit() fails with the reason when any byte was not written.
class OutputFile {
 public:
  OutputFile();
  ~OutputFile();  // an uncommitted temporary file is removed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // False with `error` set ("refusing to write through the symbolic link X", "cannot create ...").
  bool open(const std::string& path, std::string& error);
  std::ostream& stream();
  // Flushes, closes and renames into place; false with `error` set when anything failed.
  bool commit(std::string& error);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Flushes standard output and reports whether everything written to it arrived (a full disk, a
// closed descriptor or /dev/full make it false): a report that did not reach its reader is no success.
bool stdout_written(std::string& error);

}  // namespace ilint
