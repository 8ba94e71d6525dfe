// Where diagnostics are printed: std::cerr, which every tool writes its
// errors, warnings and summaries to. A trace's text reaches them (an
// operator name, a file name, a commit subject), and a control character
// printed raw (ESC, NUL) lets a hostile trace rewrite or hide what the
// terminal shows. So while a tool runs (tool::run_tool), std::cerr escapes
// them, in this one place for every diagnostic: every control character but
// TAB and LF, the C1 controls and bytes that are not UTF-8 become \xNN
// (text::escape_controls).
#pragma once

#include <memory>
#include <ostream>

namespace otm::cli {

// Escapes what is written to std::cerr for as long as it lives; restores
// std::cerr's own buffer when destroyed. Not nested: the outermost one acts.
class EscapedStderr {
public:
  EscapedStderr();
  ~EscapedStderr();
  EscapedStderr(const EscapedStderr &) = delete;
  EscapedStderr &operator=(const EscapedStderr &) = delete;

private:
  struct Buffer;
  std::unique_ptr<Buffer> buffer_;
  std::streambuf *saved_ = nullptr;
};

// Standard error unescaped, for the progress line's own terminal control
// (carriage return, erase line); what it draws it escapes itself.
std::ostream &terminal();

} // namespace otm::cli
