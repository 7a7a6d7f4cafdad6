// A one-line progress indicator on stderr, shown only when stderr is a terminal (so logs, CI and
// pipes stay clean). Thread-safe: parser threads may call step() concurrently.
#pragma once
#include <cstddef>
#include <mutex>
#include <ostream>
#include <string>

namespace ilint {

class Progress {
 public:
  // enabled: whether to draw; use Progress::stderr_is_terminal() for the default.
  Progress(std::ostream& out, bool enabled);
  ~Progress();

  static bool stderr_is_terminal();

  // Starts a phase: "parsing", with `total` steps (0: unknown).
  void phase(const std::string& name, size_t total = 0);
  // One step of the current phase done; `what` names it ("model__0_forward_1.0").
  void step(const std::string& what = "");
  // Clears the line (the next output starts on a clean line).
  void finish();

  bool enabled() const { return enabled_; }

 private:
  void draw_locked(const std::string& what);
  std::ostream& out_;
  bool enabled_;
  bool drawn_ = false;
  std::string phase_;
  size_t total_ = 0, done_ = 0;
  std::mutex mu_;
};

}  // namespace ilint
