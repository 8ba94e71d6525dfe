#include "json/parse.hpp"
#include "json/parse_part.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <memory>
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
    // Keys seen, by a 256-bit signature of length and end bytes: a key whose
    // bit is clear is new without a comparison against every earlier key
    // (the search per key was a tenth of parsing a 45-key version row).
    std::uint64_t seen[4] = {};
    for (auto field : obj) {
      std::string_view k = field.key;
      unsigned h = static_cast<unsigned>(k.size() * 7) & 255;
      if (!k.empty()) h = (h + static_cast<unsigned char>(k.front()) * 3 + static_cast<unsigned char>(k.back())) & 255;
      const std::uint64_t bit = std::uint64_t{1} << (h & 63);
      const bool maybe_seen = seen[h >> 6] & bit;
      seen[h >> 6] |= bit;
      auto same =
          maybe_seen ? std::find_if(o.begin(), o.end(), [&](const Member &m) { return m.first == k; }) : o.end();
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

// The document `text` parsed by this thread's parser for documents `depth`
// levels down; the element lives until that parser parses again.
// `open` and `close` are put around `text` (a list's elements or an
// object's members as written between their brackets).
simdjson::dom::element parse_dom(std::string_view text, std::size_t depth, std::string_view source,
                                 std::string_view open = {}, std::string_view close = {}) {
  // One parser per depth (0 for whole documents), each limiting the nesting
  // to what is left of simdjson's limit for a whole document.
  thread_local std::vector<std::unique_ptr<simdjson::dom::parser>> parsers;
  if (depth >= simdjson::DEFAULT_MAX_DEPTH)
    throw ParseError(std::string(source) + ": invalid JSON (" + simdjson::error_message(simdjson::DEPTH_ERROR) + ")");
  if (parsers.size() <= depth) parsers.resize(depth + 1);
  if (!parsers[depth]) {
    parsers[depth] = std::make_unique<simdjson::dom::parser>();
    if (depth && parsers[depth]->allocate(simdjson::SIMDJSON_PADDING, simdjson::DEFAULT_MAX_DEPTH - depth))
      throw std::bad_alloc();
  }
  // One padded buffer per thread, reused for documents up to 8 MiB (a
  // larger one gets its own, so the buffer kept stays small): a
  // padded_string per document was a malloc and a free of its size each
  // time, and freeing the large ones made malloc consolidate its free
  // lists (a tenth of a store gate's CPU).
  constexpr std::size_t kKept = 8u << 20;
  thread_local std::vector<char> kept;
  std::vector<char> own;
  std::size_t size = open.size() + text.size() + close.size();
  auto &padded = size <= kKept ? kept : own;
  if (padded.size() < size + simdjson::SIMDJSON_PADDING) padded.resize(size + simdjson::SIMDJSON_PADDING);
  auto at = std::copy(open.begin(), open.end(), padded.begin());
  at = std::copy(text.begin(), text.end(), at);
  at = std::copy(close.begin(), close.end(), at);
  std::fill_n(at, simdjson::SIMDJSON_PADDING, '\0');
  auto result = parsers[depth]->parse(padded.data(), size, false);
  if (result.error())
    throw ParseError(std::string(source) + ": invalid JSON (" + simdjson::error_message(result.error()) + ")");
  return result.value();
}

} // namespace

Value parse(std::string_view text, std::string_view source) { return convert(parse_dom(text, 0, source)); }

void check_part(std::string_view text, std::size_t depth, std::string_view source) { parse_dom(text, depth, source); }

Value parse_part(std::string_view text, std::size_t depth, std::string_view source) {
  return convert(parse_dom(text, depth, source));
}

void check_elements(std::string_view elements, std::size_t depth, std::string_view source) {
  parse_dom(elements, depth, source, "[", "]");
}

std::vector<std::optional<Value>> parse_members(std::string_view members, const std::vector<std::string> &keys,
                                                std::size_t depth, std::string_view source) {
  std::vector<std::optional<Value>> out(keys.size());
  simdjson::dom::object obj;
  if (parse_dom(members, depth, source, "{", "}").get(obj)) return out;
  // Later members overwrite earlier ones: the last of a repeated name wins.
  for (auto field : obj)
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (field.key == keys[i]) out[i] = convert(field.value);
  return out;
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
