#include "json/write.hpp"

#include "json/writer.hpp"

namespace otm::json {

std::string to_line(const Value &v) {
  std::string out;
  Writer(out, Writer::Layout::Line).value(v);
  return out;
}

void append_line(std::string &out, const Value &v) { Writer(out, Writer::Layout::Line).value(v); }

void append_lines(std::string &out, const std::vector<Value> &rows) {
  for (const auto &row : rows) {
    append_line(out, row);
    out += '\n';
  }
}

std::string to_lines(const std::vector<Value> &rows) {
  std::string out;
  append_lines(out, rows);
  return out;
}

std::string to_pretty(const Value &v) {
  std::string out;
  Writer(out, Writer::Layout::Pretty).value(v);
  out += '\n';
  return out;
}

std::string quote(std::string_view s) {
  std::string out;
  Writer(out, Writer::Layout::Line).value(s);
  return out;
}

bool written_as_is(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\') return false;
  return true;
}

} // namespace otm::json
