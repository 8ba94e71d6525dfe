#include "cmdline/progress.hpp"

#include <unistd.h>

#include <iostream>

#include "cmdline/diagnostics.hpp"
#include "text/printable.hpp"

namespace otm::cli {

bool Progress::stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

Progress::Progress(std::string tool, std::string what, std::size_t total, std::ostream *out)
    : tool_(std::move(tool)), what_(std::move(what)), total_(total),
      out_(out ? out : (stderr_is_terminal() ? &terminal() : nullptr)) {}

Progress::~Progress() {
  if (!out_ || !drawn_) return;
  *out_ << "\r\033[K" << std::flush; // stopped early (an error): the line goes
}

void Progress::step(std::string_view item) {
  if (!out_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  ++done_;
  if (done_ >= total_) {
    // The work is done: the line goes before the tool prints its summary.
    if (drawn_) *out_ << "\r\033[K" << std::flush;
    drawn_ = false;
    return;
  }
  auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  drawn_ = true;
  std::string line = tool_ + ": " + what_ + " " + std::to_string(done_) + "/" + std::to_string(total_);
  if (!item.empty()) line += " " + std::string(item.substr(0, 60));
  // Drawn past the escaping std::cerr (its own \r and erase must reach the
  // terminal), so what it shows of the trace is escaped here.
  *out_ << "\r\033[K" << text::escape_controls(line) << std::flush;
}

ProgressFn Progress::fn() {
  return [this](std::string_view item) { step(item); };
}

} // namespace otm::cli
