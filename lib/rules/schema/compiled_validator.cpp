#include "schema/compiled_validator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "error/error.hpp"
#include "text/regex.hpp"

namespace otm::schema {
namespace {

// Type bits, as valijson's strict-types mode tells them apart.
enum TypeBit : unsigned {
  kNull = 1,
  kBoolean = 2,
  kInteger = 4,
  kNumber = 8,
  kString = 16,
  kArray = 32,
  kObject = 64,
};

std::optional<unsigned> type_bit(std::string_view name) {
  if (name == "null") return kNull;
  if (name == "boolean") return kBoolean;
  if (name == "integer") return kInteger;
  if (name == "number") return kNumber;
  if (name == "string") return kString;
  if (name == "array") return kArray;
  if (name == "object") return kObject;
  return std::nullopt;
}

// The bits a value has. Schema::validate hands valijson a number with a zero
// fractional part (below 9e15) as an int64, so valijson calls it an integer;
// the same rule here.
unsigned bits_of(const json::Value &v) {
  switch (v.kind()) {
  case json::Kind::Null: return kNull;
  case json::Kind::Bool: return kBoolean;
  case json::Kind::Int: return kInteger | kNumber;
  case json::Kind::Double: {
    double d = *v.as_number();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e15) return kInteger | kNumber;
    return kNumber;
  }
  case json::Kind::String: return kString;
  case json::Kind::Array: return kArray;
  case json::Kind::Object: return kObject;
  }
  return 0;
}

// valijson's utils::u8_strlen over std::string::c_str(): it stops at the
// first NUL, and counts a byte that starts a sequence (not 10xxxxxx) or
// opens the string.
std::uint64_t u8_length(std::string_view s) {
  std::uint64_t count = 0;
  std::size_t i = 0;
  auto at = [&](std::size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u; };
  while (at(i) != 0) {
    ++i;
    while (at(i) != 0 && (at(i) & 0xC0u) == 0x80u) ++i;
    ++count;
  }
  return count;
}

// An enum / const value: only kinds whose strict equality is plain.
struct Literal {
  json::Kind kind = json::Kind::Null;
  bool b = false;
  std::string s;
  bool equals(const json::Value &v) const {
    if (v.kind() != kind) return false;
    switch (kind) {
    case json::Kind::Null: return true;
    case json::Kind::Bool: return *v.as_bool() == b;
    case json::Kind::String: return *v.as_string() == s;
    default: return false;
    }
  }
};

constexpr int kNone = -1;

struct Node {
  bool always_false = false; // the boolean schema `false`
  unsigned types = 0;        // 0: no `type`
  bool has_enum = false;
  std::vector<Literal> enum_values;
  std::optional<Literal> const_value;
  std::vector<std::string> required;
  // properties / patternProperties / additionalProperties, as valijson's one
  // PropertiesConstraint: present when any of the three is.
  bool has_properties = false;
  std::vector<std::pair<std::string, int>> properties; // sorted by name
  std::vector<std::pair<int, int>> pattern_properties; // regex, node
  bool additional_allowed = true;                      // additionalProperties: false → false
  int additional = kNone;                              // its schema, when one
  int items = kNone;
  std::optional<std::uint64_t> min_length, max_length, min_items, max_items;
  std::optional<double> minimum, maximum;
  bool exclusive_minimum = false, exclusive_maximum = false;
  std::vector<int> patterns; // regexes
  std::vector<int> all_of, any_of, one_of;
  int not_ = kNone, if_ = kNone, then_ = kNone, else_ = kNone;
  int ref = kNone;
};

// A `pattern` is accepted only when PCRE2 (UTF, UCP) and std::regex
// (ECMAScript, bytes) cannot disagree on whether it matches somewhere:
// every atom an ASCII literal or a non-negated class of ASCII literals and
// ranges (so neither engine can match a non-ASCII byte or code point), no
// escapes, no `.`, `^` only first and `$` only last (rewritten as \z: PCRE2's
// `$` also matches before a final newline, ECMAScript's does not), groups
// plain or (?:, quantifiers * + ? {n} {n,} {n,m} (optionally lazy).
bool literal_char(char c) {
  if (c >= 'a' && c <= 'z') return true;
  if (c >= 'A' && c <= 'Z') return true;
  if (c >= '0' && c <= '9') return true;
  return std::string_view(" _-:/@#%=,<>'\"!~&;`").find(c) != std::string_view::npos;
}

std::optional<std::string> pcre2_form(std::string_view p) {
  std::string out;
  std::size_t i = 0;
  int depth = 0;
  bool atom_before = false; // a quantifier needs something to repeat
  while (i < p.size()) {
    char c = p[i];
    if (c == '^') {
      if (i != 0) return std::nullopt;
      out += c;
      ++i;
      atom_before = false;
    } else if (c == '$') {
      if (i + 1 != p.size()) return std::nullopt;
      out += "\\z";
      ++i;
      atom_before = false;
    } else if (c == '[') {
      std::size_t j = i + 1;
      if (j < p.size() && p[j] == '^') return std::nullopt;
      std::size_t first = j;
      while (j < p.size() && p[j] != ']') {
        char k = p[j];
        if (!(literal_char(k) || k == '.' || k == '+' || k == '*' || k == '?' || k == '|' || k == '(' || k == ')' ||
              k == '{' || k == '}' || k == '$'))
          return std::nullopt;
        ++j;
      }
      if (j >= p.size() || j == first) return std::nullopt; // unclosed, or "[]"
      out.append(p.substr(i, j + 1 - i));
      i = j + 1;
      atom_before = true;
    } else if (c == '(') {
      if (i + 1 < p.size() && p[i + 1] == '?') {
        if (i + 2 < p.size() && p[i + 2] == ':') {
          out += "(?:";
          i += 3;
        } else {
          return std::nullopt;
        }
      } else {
        out += c;
        ++i;
      }
      ++depth;
      atom_before = false;
    } else if (c == ')') {
      if (depth == 0) return std::nullopt;
      --depth;
      out += c;
      ++i;
      atom_before = true;
    } else if (c == '|') {
      out += c;
      ++i;
      atom_before = false;
    } else if (c == '*' || c == '+' || c == '?' || c == '{') {
      if (!atom_before) return std::nullopt;
      std::size_t j = i + 1;
      if (c == '{') {
        std::size_t digits = j;
        while (j < p.size() && p[j] >= '0' && p[j] <= '9') ++j;
        if (j == digits) return std::nullopt;
        if (j < p.size() && p[j] == ',') {
          ++j;
          while (j < p.size() && p[j] >= '0' && p[j] <= '9') ++j;
        }
        if (j >= p.size() || p[j] != '}') return std::nullopt;
        ++j;
      }
      if (j < p.size() && p[j] == '?') ++j;                                                 // lazy: the same in both
      if (j < p.size() && (p[j] == '+' || p[j] == '*' || p[j] == '{')) return std::nullopt; // possessive / stacked
      out.append(p.substr(i, j - i));
      i = j;
      atom_before = false;
    } else if (literal_char(c)) {
      out += c;
      ++i;
      atom_before = true;
    } else {
      return std::nullopt;
    }
  }
  if (depth != 0) return std::nullopt;
  return out;
}

// A schema construct the compiled validator does not implement: compile()
// answers null and valijson validates instead. Caught in this file only.
class Refused : public Error {
public:
  explicit Refused(const std::string &what) : Error(ErrorKind::Refused, what) {}
};

// Keywords that carry no constraint (valijson ignores them too).
bool annotation(std::string_view key) {
  static const std::set<std::string_view> names = {"title",   "description", "$comment", "$schema",
                                                   "default", "examples",    "readOnly", "writeOnly"};
  return names.count(key) || key.rfind("x-", 0) == 0;
}

} // namespace

struct CompiledValidator::Impl {
  std::vector<Node> nodes;
  std::vector<text::Regex> regexes;
  int root = kNone;

  bool check(int node, const json::Value &v, int depth) const;
};

namespace {

class Compiler {
public:
  Compiler(const json::Value &root, CompiledValidator::Impl &impl) : root_(root), impl_(impl) {}

  int compile(const json::Value &schema, bool at_root) {
    if (auto it = done_.find(&schema); it != done_.end()) return it->second;
    int index = static_cast<int>(impl_.nodes.size());
    impl_.nodes.emplace_back();
    done_[&schema] = index;
    Node node;
    if (const bool *b = schema.as_bool()) {
      node.always_false = !*b;
      impl_.nodes[index] = std::move(node);
      return index;
    }
    const auto *obj = schema.as_object();
    if (!obj) refuse("a schema that is neither an object nor a boolean");
    for (const auto &[key, value] : *obj) {
      if (annotation(key)) continue;
      if (key == "$id") {
        if (!at_root) refuse("$id below the root");
      } else if (key == "$defs" || key == "definitions") {
        const auto *m = value.as_object();
        if (!m) refuse(key + " that is not an object");
        for (const auto &member : *m) compile(member.second, false);
      } else if (key == "type") {
        if (const auto *s = value.as_string()) {
          node.types |= type_name(*s);
        } else if (const auto *a = value.as_array()) {
          if (a->empty()) refuse("an empty type list");
          for (const auto &t : *a) {
            if (!t.is_string()) refuse("a type list holding a schema");
            node.types |= type_name(*t.as_string());
          }
        } else {
          refuse("a type that is neither a name nor a list");
        }
      } else if (key == "enum") {
        const auto *a = value.as_array();
        if (!a) refuse("an enum that is not a list");
        node.has_enum = true;
        for (const auto &e : *a) node.enum_values.push_back(literal(e, "enum"));
      } else if (key == "const") {
        node.const_value = literal(value, "const");
      } else if (key == "required") {
        const auto *a = value.as_array();
        if (!a) refuse("required that is not a list");
        for (const auto &r : *a) {
          if (!r.is_string()) refuse("a required name that is not a string");
          node.required.push_back(*r.as_string());
        }
      } else if (key == "properties") {
        const auto *m = value.as_object();
        if (!m) refuse("properties that is not an object");
        node.has_properties = true;
        for (const auto &[name, sub] : *m) node.properties.emplace_back(name, compile(sub, false));
      } else if (key == "patternProperties") {
        const auto *m = value.as_object();
        if (!m) refuse("patternProperties that is not an object");
        node.has_properties = true;
        for (const auto &[pattern, sub] : *m) node.pattern_properties.emplace_back(regex(pattern), compile(sub, false));
      } else if (key == "additionalProperties") {
        node.has_properties = true;
        if (const bool *b = value.as_bool())
          node.additional_allowed = *b;
        else
          node.additional = compile(value, false);
      } else if (key == "items") {
        if (value.is_array()) refuse("items as a list (tuple validation)");
        node.items = compile(value, false);
      } else if (key == "minLength") {
        node.min_length = count(value, key);
      } else if (key == "maxLength") {
        node.max_length = count(value, key);
      } else if (key == "minItems") {
        node.min_items = count(value, key);
      } else if (key == "maxItems") {
        node.max_items = count(value, key);
      } else if (key == "minimum") {
        node.minimum = number(value, key);
      } else if (key == "maximum") {
        node.maximum = number(value, key);
      } else if (key == "exclusiveMinimum") {
        // draft 7's number form only (draft 4's boolean form is refused).
        node.minimum = number(value, key);
        node.exclusive_minimum = true;
      } else if (key == "exclusiveMaximum") {
        node.maximum = number(value, key);
        node.exclusive_maximum = true;
      } else if (key == "pattern") {
        if (!value.is_string()) refuse("a pattern that is not a string");
        node.patterns.push_back(regex(*value.as_string()));
      } else if (key == "allOf" || key == "anyOf" || key == "oneOf") {
        const auto *a = value.as_array();
        if (!a || a->empty()) refuse(key + " that is not a non-empty list");
        auto &list = key == "allOf" ? node.all_of : key == "anyOf" ? node.any_of : node.one_of;
        for (const auto &sub : *a) list.push_back(compile(sub, false));
      } else if (key == "not") {
        node.not_ = compile(value, false);
      } else if (key == "if") {
        node.if_ = compile(value, false);
      } else if (key == "then") {
        node.then_ = compile(value, false);
      } else if (key == "else") {
        node.else_ = compile(value, false);
      } else if (key == "$ref") {
        if (!value.is_string()) refuse("a $ref that is not a string");
        node.ref = compile(resolve(*value.as_string()), false);
      } else {
        refuse("the keyword " + key);
      }
    }
    // A bound and its exclusive form together are two constraints; one slot
    // each here, so the combination is refused rather than modelled.
    if (obj_has(*obj, "minimum") && obj_has(*obj, "exclusiveMinimum")) refuse("minimum beside exclusiveMinimum");
    if (obj_has(*obj, "maximum") && obj_has(*obj, "exclusiveMaximum")) refuse("maximum beside exclusiveMaximum");
    std::sort(node.properties.begin(), node.properties.end());
    impl_.nodes[index] = std::move(node);
    return index;
  }

private:
  [[noreturn]] static void refuse(const std::string &what) { throw Refused(what); }

  static bool obj_has(const json::Object &obj, std::string_view key) {
    return std::any_of(obj.begin(), obj.end(), [&](const auto &m) { return m.first == key; });
  }

  static unsigned type_name(const std::string &name) {
    auto bit = type_bit(name);
    if (!bit) refuse("the type " + name);
    return *bit;
  }

  static Literal literal(const json::Value &v, const char *where) {
    Literal l;
    l.kind = v.kind();
    if (const bool *b = v.as_bool())
      l.b = *b;
    else if (const auto *s = v.as_string())
      l.s = *s;
    else if (!v.is_null())
      refuse(std::string("a non-string value in ") + where);
    return l;
  }

  static std::uint64_t count(const json::Value &v, const std::string &key) {
    auto i = v.as_int();
    if (!v.is_int() || !i || *i < 0) refuse(key + " that is not a non-negative integer");
    return static_cast<std::uint64_t>(*i);
  }

  static double number(const json::Value &v, const std::string &key) {
    auto d = v.as_number();
    if (!d || v.is_bool()) refuse(key + " that is not a number");
    return *d;
  }

  int regex(const std::string &pattern) {
    auto form = pcre2_form(pattern);
    if (!form) refuse("the pattern " + pattern);
    try {
      impl_.regexes.emplace_back(*form);
    } catch (const text::RegexError &) {
      refuse("the pattern " + pattern);
    }
    return static_cast<int>(impl_.regexes.size()) - 1;
  }

  // "#" or "#/a/b" (JSON pointer, ~0 and ~1 unescaped) within this document.
  const json::Value &resolve(const std::string &ref) {
    if (ref.empty() || ref[0] != '#') refuse("the $ref " + ref);
    const json::Value *at = &root_;
    std::string_view rest = std::string_view(ref).substr(1);
    if (rest.empty()) return *at;
    if (rest[0] != '/') refuse("the $ref " + ref);
    while (!rest.empty()) {
      rest.remove_prefix(1);
      std::size_t slash = rest.find('/');
      std::string_view raw = rest.substr(0, slash);
      rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
      std::string token;
      for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '~' && i + 1 < raw.size() && (raw[i + 1] == '0' || raw[i + 1] == '1')) {
          token += raw[i + 1] == '0' ? '~' : '/';
          ++i;
        } else if (raw[i] == '~' || raw[i] == '%') {
          refuse("the $ref " + ref);
        } else {
          token += raw[i];
        }
      }
      if (at->is_object()) {
        at = at->find(token);
      } else {
        refuse("the $ref " + ref);
      }
      if (!at) refuse("the unresolvable $ref " + ref);
    }
    return *at;
  }

  const json::Value &root_;
  CompiledValidator::Impl &impl_;
  std::unordered_map<const json::Value *, int> done_;
};

} // namespace

// Deeper than any record a gate accepts (json::nesting_depth's limits are
// far lower); past it, "invalid" hands the record to valijson, which is
// always safe.
constexpr int kMaxDepth = 256;

bool CompiledValidator::Impl::check(int index, const json::Value &v, int depth) const {
  if (depth > kMaxDepth) return false;
  const Node &n = nodes[static_cast<std::size_t>(index)];
  if (n.always_false) return false;
  const unsigned bits = bits_of(v);
  if (n.types && !(n.types & bits)) return false;
  if (n.has_enum &&
      std::none_of(n.enum_values.begin(), n.enum_values.end(), [&](const Literal &l) { return l.equals(v); }))
    return false;
  if (n.const_value && !n.const_value->equals(v)) return false;
  if (n.ref != kNone && !check(n.ref, v, depth + 1)) return false;

  if (const auto *s = v.as_string()) {
    if (n.min_length || n.max_length) {
      auto len = u8_length(*s);
      if (n.min_length && len < *n.min_length) return false;
      if (n.max_length && len > *n.max_length) return false;
    }
    for (int r : n.patterns)
      if (!regexes[static_cast<std::size_t>(r)].contains(*s)) return false;
  } else if (bits & kNumber) {
    double d = *v.as_number();
    if (n.minimum && (n.exclusive_minimum ? d <= *n.minimum : d < *n.minimum)) return false;
    if (n.maximum && (n.exclusive_maximum ? d >= *n.maximum : d > *n.maximum)) return false;
  } else if (const auto *a = v.as_array()) {
    if (n.min_items && a->size() < *n.min_items) return false;
    if (n.max_items && a->size() > *n.max_items) return false;
    if (n.items != kNone)
      for (const auto &item : *a)
        if (!check(n.items, item, depth + 1)) return false;
  } else if (const auto *o = v.as_object()) {
    for (const auto &name : n.required)
      if (!v.find(name)) return false;
    if (n.has_properties) {
      for (const auto &[key, value] : *o) {
        bool matched = false;
        auto it = std::lower_bound(n.properties.begin(), n.properties.end(), key,
                                   [](const auto &p, const std::string &k) { return p.first < k; });
        if (it != n.properties.end() && it->first == key) {
          matched = true;
          if (!check(it->second, value, depth + 1)) return false;
        }
        for (const auto &[regex, sub] : n.pattern_properties) {
          if (regexes[static_cast<std::size_t>(regex)].contains(key)) {
            matched = true;
            if (!check(sub, value, depth + 1)) return false;
          }
        }
        if (!matched) {
          if (!n.additional_allowed) return false;
          if (n.additional != kNone && !check(n.additional, value, depth + 1)) return false;
        }
      }
    }
  }

  for (int sub : n.all_of)
    if (!check(sub, v, depth + 1)) return false;
  if (!n.any_of.empty() &&
      std::none_of(n.any_of.begin(), n.any_of.end(), [&](int s) { return check(s, v, depth + 1); }))
    return false;
  if (!n.one_of.empty()) {
    int passed = 0;
    for (int sub : n.one_of)
      if (check(sub, v, depth + 1) && ++passed > 1) break;
    if (passed != 1) return false;
  }
  if (n.not_ != kNone && check(n.not_, v, depth + 1)) return false;
  if (n.if_ != kNone) {
    if (check(n.if_, v, depth + 1)) {
      if (n.then_ != kNone && !check(n.then_, v, depth + 1)) return false;
    } else if (n.else_ != kNone && !check(n.else_, v, depth + 1)) {
      return false;
    }
  }
  return true;
}

std::unique_ptr<CompiledValidator> CompiledValidator::compile(const json::Value &doc, std::string *why) {
  auto impl = std::make_unique<Impl>();
  try {
    Compiler compiler(doc, *impl);
    impl->root = compiler.compile(doc, true);
  } catch (const Refused &r) {
    if (why) *why = r.what();
    return nullptr;
  }
  return std::unique_ptr<CompiledValidator>(new CompiledValidator(std::move(impl)));
}

CompiledValidator::CompiledValidator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CompiledValidator::~CompiledValidator() = default;

bool CompiledValidator::valid(const json::Value &record) const { return impl_->check(impl_->root, record, 0); }

} // namespace otm::schema
