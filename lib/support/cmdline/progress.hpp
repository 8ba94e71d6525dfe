// A progress line for long stages (packets, distillation, validation over
// large stores): "otm-packet: packets 120/3400 strategy-v12", redrawn in
// place at most ten times a second, only when stderr is a terminal (silent
// in pipes, logs and CI), cleared after the last item (or when the work
// stops early), so the tool's own summary prints on a clean line. Thread-safe, so a
// pool of workers can report into one line. Library loops take a
// ProgressFn (called once per item done) and know nothing of terminals:
//
//   cli::Progress progress("otm-packet", "packets", n);
//   packet::build_all(..., progress.fn());
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>

namespace otm::cli {

using ProgressFn = std::function<void(std::string_view item)>;

class Progress {
public:
  // Draws on `out` when given (tests), else on the terminal (cli::terminal(),
  // standard error unescaped) when stderr is one, else nowhere.
  Progress(std::string tool, std::string what, std::size_t total, std::ostream *out = nullptr);
  ~Progress();
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;

  // One more item done; `item` names it on the line.
  void step(std::string_view item = {});
  // step() as a callback for library loops (valid while *this lives).
  ProgressFn fn();
  bool enabled() const { return out_ != nullptr; }

  static bool stderr_is_terminal();

private:
  std::string tool_, what_;
  std::size_t total_, done_ = 0;
  std::ostream *out_;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point last_{};
  bool drawn_ = false;
};

} // namespace otm::cli
