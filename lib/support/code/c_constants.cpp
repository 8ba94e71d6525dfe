#include "code/c_constants.hpp"

#include <cctype>
#include <set>

#include "text/regex.hpp"

namespace otm::code {

namespace {

// A recursive-descent reading of one expression.
class Evaluator {
public:
  Evaluator(std::string_view s, const CConstants &c) : s_(s), c_(c) {}
  std::optional<long long> all() {
    auto v = shift();
    skip();
    if (!v || pos_ != s_.size()) return std::nullopt;
    return v;
  }

private:
  std::string_view s_;
  const CConstants &c_;
  std::size_t pos_ = 0;

  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(std::string_view op) {
    skip();
    if (s_.substr(pos_).starts_with(op)) {
      pos_ += op.size();
      return true;
    }
    return false;
  }
  std::optional<long long> shift() {
    auto v = sum();
    while (v) {
      if (eat("<<")) {
        auto r = sum();
        if (!r || *r < 0 || *r > 62) return std::nullopt;
        v = *v << *r;
      } else if (eat(">>")) {
        auto r = sum();
        if (!r || *r < 0 || *r > 62) return std::nullopt;
        v = *v >> *r;
      } else {
        break;
      }
    }
    return v;
  }
  std::optional<long long> sum() {
    auto v = product();
    while (v) {
      skip();
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-') && !s_.substr(pos_).starts_with("++") &&
          !s_.substr(pos_).starts_with("--")) {
        char op = s_[pos_++];
        auto r = product();
        if (!r) return std::nullopt;
        v = op == '+' ? *v + *r : *v - *r;
      } else {
        break;
      }
    }
    return v;
  }
  std::optional<long long> product() {
    auto v = unary();
    while (v) {
      skip();
      if (pos_ < s_.size() && (s_[pos_] == '*' || s_[pos_] == '/' || s_[pos_] == '%')) {
        char op = s_[pos_++];
        auto r = unary();
        if (!r || (op != '*' && *r == 0)) return std::nullopt;
        v = op == '*' ? *v * *r : op == '/' ? *v / *r : *v % *r;
      } else {
        break;
      }
    }
    return v;
  }
  std::optional<long long> unary() {
    if (eat("-")) {
      auto v = unary();
      return v ? std::optional<long long>(-*v) : std::nullopt;
    }
    if (eat("(")) {
      auto v = shift();
      if (!eat(")")) return std::nullopt;
      return v;
    }
    skip();
    std::size_t start = pos_;
    if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      long long v = 0;
      for (std::size_t i = start; i < pos_; ++i) {
        if (v > (1LL << 50)) return std::nullopt;
        v = v * 10 + (s_[i] - '0');
      }
      while (pos_ < s_.size() && (s_[pos_] == 'u' || s_[pos_] == 'U' || s_[pos_] == 'l' || s_[pos_] == 'L')) ++pos_;
      return v;
    }
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    if (pos_ == start) return std::nullopt;
    auto name = s_.substr(start, pos_ - start);
    if (name == "true") return 1;
    if (name == "false") return 0;
    auto it = c_.find(name);
    if (it == c_.end()) return std::nullopt;
    return it->second;
  }
};

} // namespace

std::optional<long long> evaluate_c_integer(std::string_view expression, const CConstants &constants) {
  return Evaluator(expression, constants).all();
}

CConstants c_integer_constants(std::string_view c_code) {
  static const text::Regex declared(
      R"(\b(?:static\s+)?(?:inline\s+)?(?:constexpr|const)\s+(?:const\s+)?(?:int|unsigned|unsigned\s+int|long|)"
      R"(long\s+long|bool|size_t|u?int(?:32|64)_t|auto)\s+([A-Za-z_]\w*)\s*=\s*([^;{}]+);)");
  static const text::Regex define(R"((?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([^\n]*?)[ \t]*$)");
  struct Definition {
    std::string name, expression;
  };
  std::vector<Definition> definitions;
  declared.for_each_match(c_code, [&](const text::Match &m) {
    definitions.push_back({std::string(m[1]), std::string(m[2])});
  });
  define.for_each_match(c_code, [&](const text::Match &m) {
    definitions.push_back({std::string(m[1]), std::string(m[2])});
  });
  CConstants out;
  std::set<std::string, std::less<>> conflicting;
  // Each pass evaluates what the values found so far allow; a definition
  // read before the one it uses is evaluated in a later pass.
  for (std::size_t pass = 0; pass <= definitions.size(); ++pass) {
    bool grew = false;
    for (const auto &d : definitions) {
      if (conflicting.count(d.name)) continue;
      auto v = evaluate_c_integer(d.expression, out);
      if (!v) continue;
      auto [it, fresh] = out.emplace(d.name, *v);
      if (fresh)
        grew = true;
      else if (it->second != *v)
        conflicting.insert(d.name);
    }
    if (!grew) break;
  }
  // A name some definition gives a value this reading cannot find (a local
  // `const int n = x.size(0)` beside a global `n`) has no one value.
  for (const auto &d : definitions)
    if (!evaluate_c_integer(d.expression, out)) conflicting.insert(d.name);
  for (const auto &n : conflicting) out.erase(n);
  return out;
}

} // namespace otm::code
