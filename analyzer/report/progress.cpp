#include "analyzer/report/progress.h"

#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace ilint {

Progress::Progress(std::ostream& out, bool enabled) : out_(out), enabled_(enabled) {}

Progress::~Progress() { finish(); }

bool Progress::stderr_is_terminal() {
  if (!isatty(STDERR_FILENO)) return false;
  const char* term = std::getenv("TERM");
  return !(term && std::strcmp(term, "dumb") == 0);
}

void Progress::phase(const std::string& name, size_t total) {
  std::lock_guard<std::mutex> lock(mu_);
  phase_ = name;
  total_ = total;
  done_ = 0;
  draw_locked("");
}

void Progress::step(const std::string& what) {
  std::lock_guard<std::mutex> lock(mu_);
  ++done_;
  draw_locked(what);
}

void Progress::draw_locked(const std::string& what) {
  if (!enabled_) return;
  std::string line = phase_;
  if (total_ > 0) line += " [" + std::to_string(done_) + "/" + std::to_string(total_) + "]";
  else if (done_ > 0) line += " [" + std::to_string(done_) + "]";
  if (!what.empty()) line += " " + what;
  if (line.size() > 100) line = line.substr(0, 97) + "...";
  // \r to the line start, \x1b[K clears what a longer previous line left.
  out_ << '\r' << line << "\x1b[K" << std::flush;
  drawn_ = true;
}

void Progress::finish() {
  std::lock_guard<std::mutex> lock(mu_);
  if (enabled_ && drawn_) out_ << "\r\x1b[K" << std::flush;
  drawn_ = false;
}

}  // namespace ilint
