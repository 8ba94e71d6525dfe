#include "json/parse.hpp"
#include "json/parse_part.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include "io/file.hpp"
#include "text/utf8.hpp"
#include "json/value_cut.hpp"

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
      throw Error(ErrorKind::Refused, std::string(source) + ": out of memory for a JSON parser");
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

std::string_view unquote(std::string_view quoted, std::string &decoded, std::string_view source) {
  std::string_view raw = quoted.substr(1, quoted.size() - 2);
  if (std::none_of(raw.begin(), raw.end(), [](char c) { return c == '\\' || static_cast<unsigned char>(c) < 0x20; }))
    return raw;
  decoded = *parse(quoted, source).as_string();
  return decoded;
}

std::optional<ObjectLayout> object_layout(std::string_view text, std::string_view array_key, std::string_view source) {
  auto fail = [&](const char *what, std::size_t at) {
    return ParseError(std::string(source) + ": invalid JSON (" + what + " at byte " + std::to_string(at) + ")");
  };
  if (!otm::text::is_valid_utf8(text))
    throw ParseError(std::string(source) + ": invalid JSON (" + simdjson::error_message(simdjson::UTF8_ERROR) + ")");
  std::size_t at = skip_space(text, 0);
  if (at == text.size() || text[at] != '{') return std::nullopt;
  // A value's view runs to the next comma or bracket, as the offsets the
  // keys index holds always have.
  auto view = [&](Extent e) { return text.substr(e.at, skip_space(text, e.end) - e.at); };
  ObjectLayout out;
  std::string decoded;
  auto cut = cut_object(text, at, true, [&](Extent name, Extent value) {
    std::string key(unquote(text.substr(name.at, name.end - name.at), decoded, source));
    if (key == array_key && text[value.at] == '[') {
      std::vector<std::string_view> elements;
      if (cut_array(text, value.at, true, [&](Extent e) { elements.push_back(view(e)); }).status != Cut::Complete)
        throw fail("a malformed list", value.at);
      out.elements = std::move(elements);
      return;
    }
    if (key == array_key) out.elements.reset(); // the last one wins
    out.members.emplace_back(std::move(key), view(value));
  });
  if (cut.status != Cut::Complete) throw fail("a malformed object", at);
  if (std::size_t end = skip_space(text, cut.end); end != text.size()) throw fail("text after the object", end);
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

void for_each_line(const std::string &path_or_dash, const io::InputBounds &bounds,
                   const std::function<void(Value)> &row) {
  std::string text;
  try {
    text = io::read_input(path_or_dash, bounds);
  } catch (const io::IoError &e) {
    throw ParseError(e.what());
  }
  for (auto &v : parse_lines(text, path_or_dash == "-" ? "<stdin>" : path_or_dash)) row(std::move(v));
}

} // namespace otm::json
