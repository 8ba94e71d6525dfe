// Text shown on a terminal: diagnostics on stderr, names in a table. A
// trace's text may hold control characters (ESC starts a sequence that
// rewrites what the terminal shows, NUL cuts a line) and bytes that are not
// UTF-8; shown raw, a hostile trace could forge or hide a message. Escaped
// here, in one place, for every diagnostic (cli::EscapedStderr) and every
// name a report shows.
#pragma once

#include <string>
#include <string_view>

namespace otm::text {

enum class Newlines { Keep, Escape };

// Escapes, as `\xNN` per byte: every C0 control but TAB (and LF when
// `newlines` keeps them), DEL, the C1 controls (U+0080..U+009F, their two
// UTF-8 bytes) and every byte of an invalid UTF-8 sequence. Everything else
// (printable ASCII, valid UTF-8) is copied unchanged.
std::string escape_controls(std::string_view s, Newlines newlines = Newlines::Escape);

// The same for a stream that arrives in pieces: a UTF-8 sequence split
// between two pieces is held back until it completes (or finish()).
class ControlEscaper {
public:
  explicit ControlEscaper(Newlines newlines) : newlines_(newlines) {}
  // Appends the escaped form of `in` to `out`.
  void feed(std::string_view in, std::string &out);
  // Appends what an incomplete sequence held back (escaped: it never completed).
  void finish(std::string &out);

private:
  void flush_pending(std::string &out, bool complete);
  Newlines newlines_;
  std::string pending_;      // the bytes so far of a multi-byte sequence
  std::size_t expected_ = 0; // its length, by its lead byte
};

} // namespace otm::text
