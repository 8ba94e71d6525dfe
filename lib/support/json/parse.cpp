#include "json/parse.hpp"

#include <simdjson.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "io/file.hpp"

namespace otm::json {
namespace {

Value convert(simdjson::dom::element e) {
  using T = simdjson::dom::element_type;
  switch (e.type()) {
  case T::NULL_VALUE: return Value();
  case T::BOOL: return Value(bool(e.get_bool().value()));
  case T::INT64: return Value(static_cast<long long>(e.get_int64().value()));
  case T::UINT64: {
    auto u = e.get_uint64().value();
    if (u <= static_cast<std::uint64_t>(INT64_MAX)) return Value(static_cast<long long>(u));
    return Value(static_cast<double>(u));
  }
  case T::DOUBLE: return Value(e.get_double().value());
  case T::STRING: return Value(std::string_view(e.get_string().value()));
  case T::ARRAY: {
    Array a;
    simdjson::dom::array arr = e.get_array().value(); // bind: value() of a temporary dangles
    a.reserve(arr.size());
    for (auto child : arr) a.push_back(convert(child));
    return Value(std::move(a));
  }
  case T::OBJECT: {
    // Built in place, sized once (Value::set per member re-grew the
    // vector: a sixth of a store gate's CPU). A repeated key keeps its
    // first position and takes the last value, as Value::set does.
    simdjson::dom::object obj = e.get_object().value();
    Object o;
    o.reserve(obj.size());
    for (auto field : obj) {
      auto same = std::find_if(o.begin(), o.end(), [&](const Member &m) { return m.first == field.key; });
      if (same != o.end())
        same->second = convert(field.value);
      else
        o.emplace_back(std::string(field.key), convert(field.value));
    }
    return Value(std::move(o));
  }
  }
  return Value();
}

} // namespace

Value parse(std::string_view text, std::string_view source) {
  thread_local simdjson::dom::parser parser;
  // One padded buffer per thread, reused for documents up to 8 MiB (a
  // larger one gets its own, so the buffer kept stays small): a
  // padded_string per document was a malloc and a free of its size each
  // time, and freeing the large ones made malloc consolidate its free
  // lists (a tenth of a store gate's CPU).
  constexpr std::size_t kKept = 8u << 20;
  thread_local std::vector<char> kept;
  std::vector<char> own;
  auto &padded = text.size() <= kKept ? kept : own;
  if (padded.size() < text.size() + simdjson::SIMDJSON_PADDING) padded.resize(text.size() + simdjson::SIMDJSON_PADDING);
  std::copy(text.begin(), text.end(), padded.begin());
  std::fill_n(padded.begin() + static_cast<std::ptrdiff_t>(text.size()), simdjson::SIMDJSON_PADDING, '\0');
  auto result = parser.parse(padded.data(), text.size(), false);
  if (result.error())
    throw ParseError(std::string(source) + ": invalid JSON (" + simdjson::error_message(result.error()) + ")");
  return convert(result.value());
}

namespace {
namespace od = simdjson::ondemand;

// The text of the value `v` stands at, through the padded copy `padded` of
// `text`.
simdjson::error_code value_text(od::value v, const char *padded, std::string_view text, std::string_view &out) {
  od::json_type type;
  if (auto e = v.type().get(type)) return e;
  std::string_view raw;
  simdjson::error_code e;
  if (type == od::json_type::object) {
    od::object o;
    e = v.get_object().get(o);
    if (!e) e = o.raw_json().get(raw);
  } else if (type == od::json_type::array) {
    od::array a;
    e = v.get_array().get(a);
    if (!e) e = a.raw_json().get(raw);
  } else {
    raw = v.raw_json_token();
    e = simdjson::SUCCESS;
  }
  if (e) return e;
  out = text.substr(static_cast<std::size_t>(raw.data() - padded), raw.size());
  return simdjson::SUCCESS;
}
} // namespace

std::optional<ObjectLayout> object_layout(std::string_view text, std::string_view array_key, std::string_view source) {
  auto fail = [&](simdjson::error_code e) {
    return ParseError(std::string(source) + ": invalid JSON (" + simdjson::error_message(e) + ")");
  };
  thread_local od::parser parser;
  simdjson::padded_string padded(text);
  od::document doc;
  if (auto e = parser.iterate(padded).get(doc)) throw fail(e);
  od::json_type type;
  if (auto e = doc.type().get(type)) throw fail(e);
  if (type != od::json_type::object) return std::nullopt;
  od::object obj;
  if (auto e = doc.get_object().get(obj)) throw fail(e);
  ObjectLayout out;
  for (auto field : obj) {
    od::field f;
    if (auto e = std::move(field).get(f)) throw fail(e);
    std::string_view key;
    if (auto e = f.unescaped_key().get(key)) throw fail(e);
    od::value v = f.value();
    od::json_type vt;
    if (auto e = v.type().get(vt)) throw fail(e);
    if (key == array_key && vt == od::json_type::array) {
      od::array arr;
      if (auto e = v.get_array().get(arr)) throw fail(e);
      std::vector<std::string_view> elements;
      for (auto element : arr) {
        od::value ev;
        if (auto e = std::move(element).get(ev)) throw fail(e);
        std::string_view t;
        if (auto e = value_text(ev, padded.data(), text, t)) throw fail(e);
        elements.push_back(t);
      }
      out.elements = std::move(elements);
      continue;
    }
    if (key == array_key) out.elements.reset(); // the last one wins
    std::string k(key);
    std::string_view t;
    if (auto e = value_text(v, padded.data(), text, t)) throw fail(e);
    out.members.emplace_back(std::move(k), t);
  }
  // Past the object's end: nothing may follow (the location is out of
  // bounds exactly then).
  const char *after = nullptr;
  if (doc.current_location().get(after) != simdjson::OUT_OF_BOUNDS) throw fail(simdjson::TRAILING_CONTENT);
  return out;
}

Value parse_file(const std::filesystem::path &path) {
  std::string text;
  try {
    text = io::read_file(path);
  } catch (const std::exception &e) {
    throw ParseError(e.what());
  }
  return parse(text, path.string());
}

std::vector<Value> parse_lines(std::string_view text, std::string_view source) {
  std::vector<Value> rows;
  std::size_t line_no = 0, pos = 0;
  while (pos <= text.size()) {
    auto nl = text.find('\n', pos);
    auto line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    ++line_no;
    if (line.find_first_not_of(" \t\r") != std::string_view::npos)
      rows.push_back(parse(line, std::string(source) + ":" + std::to_string(line_no)));
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return rows;
}

std::vector<Value> parse_lines_file(const std::filesystem::path &path) {
  std::string text;
  try {
    text = io::read_file(path);
  } catch (const std::exception &e) {
    throw ParseError(e.what());
  }
  return parse_lines(text, path.string());
}

void for_each_line(const std::string &path_or_dash, const std::function<void(Value)> &row) {
  if (path_or_dash == "-") {
    std::string line;
    std::size_t line_no = 0;
    while (std::getline(std::cin, line)) {
      ++line_no;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      row(parse(line, "<stdin>:" + std::to_string(line_no)));
    }
    return;
  }
  for (auto &v : parse_lines_file(path_or_dash)) row(std::move(v));
}

} // namespace otm::json
