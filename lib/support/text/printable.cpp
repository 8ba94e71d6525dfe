#include "text/printable.hpp"

#include "text/utf8.hpp"

namespace otm::text {

namespace {

void escape_byte(unsigned char c, std::string &out) {
  static const char hex[] = "0123456789abcdef";
  out += "\\x";
  out += hex[c >> 4];
  out += hex[c & 0xF];
}

// The length of a UTF-8 sequence by its lead byte; 0 for a byte that
// cannot lead one (a continuation byte, C0/C1 overlong leads, past U+10FFFF).
std::size_t lead_length(unsigned char c) {
  if (c >= 0xC2 && c <= 0xDF) return 2;
  if (c >= 0xE0 && c <= 0xEF) return 3;
  if (c >= 0xF0 && c <= 0xF4) return 4;
  return 0;
}

} // namespace

void ControlEscaper::flush_pending(std::string &out, bool complete) {
  auto lead = static_cast<unsigned char>(pending_[0]);
  bool c1 = lead == 0xC2 && pending_.size() == 2 && static_cast<unsigned char>(pending_[1]) < 0xA0;
  if (complete && !c1 && is_valid_utf8(pending_))
    out += pending_;
  else
    for (char b : pending_) escape_byte(static_cast<unsigned char>(b), out);
  pending_.clear();
  expected_ = 0;
}

void ControlEscaper::feed(std::string_view in, std::string &out) {
  for (char ch : in) {
    auto c = static_cast<unsigned char>(ch);
    if (!pending_.empty()) {
      if ((c & 0xC0) == 0x80) {
        pending_ += ch;
        if (pending_.size() == expected_) flush_pending(out, true);
        continue;
      }
      flush_pending(out, false); // cut short by a byte that does not continue it
    }
    if (c < 0x80) {
      bool control = (c < 0x20 && c != '\t' && !(c == '\n' && newlines_ == Newlines::Keep)) || c == 0x7F;
      if (control)
        escape_byte(c, out);
      else
        out += ch;
    } else if (std::size_t n = lead_length(c)) {
      pending_ = ch;
      expected_ = n;
    } else {
      escape_byte(c, out);
    }
  }
}

void ControlEscaper::finish(std::string &out) {
  if (!pending_.empty()) flush_pending(out, false);
}

std::string escape_controls(std::string_view s, Newlines newlines) {
  std::string out;
  out.reserve(s.size());
  ControlEscaper e(newlines);
  e.feed(s, out);
  e.finish(out);
  return out;
}

} // namespace otm::text
