#include "json/write.hpp"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "json/float_repr.hpp"

namespace otm::json {
namespace {

using Buffer = rapidjson::StringBuffer;

// The line layout written straight into a std::string: every JSONL row of
// every stage goes through here. Escapes exactly what RapidJSON's Writer
// escapes (its table; the outputs were first written with it): control
// characters as \b \t \n \f \r or \u00XX (upper-case hex), '"' and '\\';
// every other byte, UTF-8 included, as is.
constexpr std::array<char, 256> kEscape = [] {
  std::array<char, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[c] = 'u';
  t['\b'] = 'b';
  t['\t'] = 't';
  t['\n'] = 'n';
  t['\f'] = 'f';
  t['\r'] = 'r';
  t['"'] = '"';
  t['\\'] = '\\';
  return t;
}();

// Whether any of the 8 bytes of `w` is escaped: below 0x20, '"' or '\\'
// (the exact has-zero-byte and has-less-than tests on a 64-bit word).
bool any_escaped(std::uint64_t w) {
  constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  auto has_zero = [](std::uint64_t v) { return (v - ones) & ~v & highs; };
  return ((w - ones * 0x20) & ~w & highs) | has_zero(w ^ (ones * '"')) | has_zero(w ^ (ones * '\\'));
}

void put_string(std::string &out, std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  out += '"';
  const char *p = s.data(), *end = p + s.size(), *run = p;
  while (p < end) {
    // Eight bytes at a time; byte by byte only within a word that holds an
    // escaped byte, and in the last few.
    std::uint64_t w;
    while (end - p >= 8 && (std::memcpy(&w, p, 8), !any_escaped(w))) p += 8;
    while (p < end && !kEscape[static_cast<unsigned char>(*p)]) ++p;
    if (p == end) break;
    const char e = kEscape[static_cast<unsigned char>(*p)];
    out.append(run, static_cast<std::size_t>(p - run));
    const char esc[6] = {'\\', e, '0', '0', kHex[static_cast<unsigned char>(*p) >> 4], kHex[*p & 15]};
    out.append(esc, e == 'u' ? 6 : 2);
    run = ++p;
  }
  out.append(run, static_cast<std::size_t>(end - run));
  out += '"';
}

void put_line(std::string &out, const Value &v) {
  switch (v.kind()) {
  case Kind::Null: out += "null"; break;
  case Kind::Bool: out += *v.as_bool() ? "true" : "false"; break;
  case Kind::Int: {
    char buf[24];
    out.append(buf, static_cast<std::size_t>(std::to_chars(buf, buf + sizeof buf, *v.as_int()).ptr - buf));
    break;
  }
  case Kind::Double: {
    double d = *v.as_number();
    if (std::isfinite(d))
      append_python_float_repr(out, d);
    else
      out += "null";
    break;
  }
  case Kind::String: put_string(out, *v.as_string()); break;
  case Kind::Array: {
    out += '[';
    bool first = true;
    for (const auto &e : *v.as_array()) {
      if (!first) out += ", ";
      first = false;
      put_line(out, e);
    }
    out += ']';
    break;
  }
  case Kind::Object: {
    out += '{';
    bool first = true;
    for (const auto &[k, e] : *v.as_object()) {
      if (!first) out += ", ";
      first = false;
      put_string(out, k);
      out += ": ";
      put_line(out, e);
    }
    out += '}';
    break;
  }
  }
}

// rapidjson::PrettyWriter already lays out exactly like Python's indent=1;
// only the float format differs, so doubles go through python_float_repr.
class PrettyWriter : public rapidjson::PrettyWriter<Buffer> {
  using Base = rapidjson::PrettyWriter<Buffer>;

public:
  explicit PrettyWriter(Buffer &b) : Base(b) { Base::SetIndent(' ', 1); }
  bool Raw(const std::string &s) { return Base::RawValue(s.data(), s.size(), rapidjson::kNumberType); }
  bool String(const std::string &s) { return Base::String(s.data(), static_cast<rapidjson::SizeType>(s.size())); }
  bool Key(const std::string &s) { return Base::Key(s.data(), static_cast<rapidjson::SizeType>(s.size())); }
  using Base::Bool;
  using Base::EndArray;
  using Base::EndObject;
  using Base::Int64;
  using Base::Null;
  using Base::StartArray;
  using Base::StartObject;
};

template <typename W> void emit(W &w, const Value &v) {
  switch (v.kind()) {
  case Kind::Null: w.Null(); break;
  case Kind::Bool: w.Bool(*v.as_bool()); break;
  case Kind::Int: w.Int64(*v.as_int()); break;
  case Kind::Double: {
    double d = *v.as_number();
    if (std::isfinite(d))
      w.Raw(python_float_repr(d));
    else
      w.Null();
    break;
  }
  case Kind::String: w.String(*v.as_string()); break;
  case Kind::Array:
    w.StartArray();
    for (const auto &e : *v.as_array()) emit(w, e);
    w.EndArray();
    break;
  case Kind::Object:
    w.StartObject();
    for (const auto &[k, e] : *v.as_object()) {
      w.Key(k);
      emit(w, e);
    }
    w.EndObject();
    break;
  }
}

} // namespace

void append_line(std::string &out, const Value &v) { put_line(out, v); }

std::string to_line(const Value &v) {
  std::string out;
  put_line(out, v);
  return out;
}

std::string to_pretty(const Value &v) {
  Buffer buf;
  PrettyWriter w(buf);
  emit(w, v);
  return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

std::string quote(std::string_view s) {
  std::string out;
  put_string(out, s);
  return out;
}

bool written_as_is(std::string_view s) {
  for (char c : s)
    if (kEscape[static_cast<unsigned char>(c)]) return false;
  return true;
}

} // namespace otm::json
