#include "json/writer.hpp"

#include <charconv>
#include <cmath>
#include <cstring>

#include "json/float_repr.hpp"

namespace otm::json {

namespace {

// 0: copied; 'u': \u00XX; else the character after the backslash.
constexpr char escape_of(unsigned char c) {
  switch (c) {
  case '\b': return 'b';
  case '\t': return 't';
  case '\n': return 'n';
  case '\f': return 'f';
  case '\r': return 'r';
  case '"': return '"';
  case '\\': return '\\';
  default: return c < 0x20 ? 'u' : 0;
  }
}

struct EscapeTable {
  char at[256];
  constexpr EscapeTable() : at() {
    for (int c = 0; c < 256; ++c) at[c] = escape_of(static_cast<unsigned char>(c));
  }
};
constexpr EscapeTable kEscape;

// Whether any of the 8 bytes of `w` needs escaping: below 0x20, '"' or
// '\\' (the classic bit tricks: whether a byte is less than n, whether one
// is zero).
bool may_escape(std::uint64_t w) {
  constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  auto zero_byte = [&](std::uint64_t x) { return (x - ones) & ~x & highs; };
  return (((w - ones * 0x20) & ~w & highs) | zero_byte(w ^ (ones * '"')) | zero_byte(w ^ (ones * '\\'))) != 0;
}

} // namespace

void Writer::indent() {
  if (layout_ == Layout::Pretty) out_.append(levels_.size(), ' ');
}

// What goes before a value or key: the separator from the one before it
// (as RapidJSON's Writer and PrettyWriter put them).
void Writer::prefix() {
  if (levels_.empty()) return;
  Level &l = levels_.back();
  bool pretty = layout_ == Layout::Pretty;
  if (l.array) {
    if (l.count > 0) out_ += pretty ? "," : ", ";
    if (pretty) {
      out_ += '\n';
      indent();
    }
  } else if (l.count % 2 == 1) {
    out_ += ": ";
  } else {
    if (l.count > 0) out_ += pretty ? "," : ", ";
    if (pretty) {
      out_ += '\n';
      indent();
    }
  }
  ++l.count;
}

Writer &Writer::open(char bracket, bool array) {
  prefix();
  out_ += bracket;
  levels_.push_back({array, 0});
  return *this;
}

// An empty container closes at once ("{}", "[]"); in the pretty layout a
// filled one closes on a line of its own.
Writer &Writer::close(char bracket) {
  bool empty = levels_.back().count == 0;
  levels_.pop_back();
  if (!empty && layout_ == Layout::Pretty) {
    out_ += '\n';
    indent();
  }
  out_ += bracket;
  return *this;
}

Writer &Writer::begin_object() { return open('{', false); }
Writer &Writer::end_object() { return close('}'); }
Writer &Writer::begin_array() { return open('[', true); }
Writer &Writer::end_array() { return close(']'); }

void Writer::string(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  out_ += '"';
  std::size_t run = 0; // start of the bytes copied as they are
  for (std::size_t i = 0; i < s.size(); ++i) {
    // Eight bytes at a time while none can need an escape.
    while (i + 8 <= s.size()) {
      std::uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      if (may_escape(w)) break;
      i += 8;
    }
    if (i == s.size()) break;
    char e = kEscape.at[static_cast<unsigned char>(s[i])];
    if (!e) continue;
    out_.append(s, run, i - run);
    out_ += '\\';
    out_ += e;
    if (e == 'u') {
      auto c = static_cast<unsigned char>(s[i]);
      out_ += "00";
      out_ += kHex[c >> 4];
      out_ += kHex[c & 0xF];
    }
    run = i + 1;
  }
  out_.append(s, run, s.size() - run);
  out_ += '"';
}

Writer &Writer::key(std::string_view k) {
  prefix();
  string(k);
  return *this;
}

Writer &Writer::value(std::string_view s) {
  prefix();
  string(s);
  return *this;
}

Writer &Writer::value(std::int64_t i) {
  prefix();
  char buf[24];
  auto end = std::to_chars(buf, buf + sizeof buf, i).ptr;
  out_.append(buf, end);
  return *this;
}

Writer &Writer::value(double d) {
  prefix();
  // JSON has no NaN or infinity.
  if (!std::isfinite(d))
    out_ += "null";
  else
    append_python_float_repr(out_, d);
  return *this;
}

Writer &Writer::value(bool b) {
  prefix();
  out_ += b ? "true" : "false";
  return *this;
}

Writer &Writer::null() {
  prefix();
  out_ += "null";
  return *this;
}

Writer &Writer::written(std::string_view text) {
  prefix();
  out_.append(text);
  return *this;
}

Writer &Writer::value(const Value &v) {
  switch (v.kind()) {
  case Kind::Null: return null();
  case Kind::Bool: return value(*v.as_bool());
  case Kind::Int: return value(*v.as_int());
  case Kind::Double: return value(*v.as_number());
  case Kind::String: return value(std::string_view(*v.as_string()));
  case Kind::Array:
    begin_array();
    for (const auto &e : *v.as_array()) value(e);
    return end_array();
  case Kind::Object:
    begin_object();
    for (const auto &[k, e] : *v.as_object()) {
      key(k);
      value(e);
    }
    return end_object();
  }
  return *this;
}

} // namespace otm::json
