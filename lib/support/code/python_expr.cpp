#include "code/python_expr.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <vector>

#include "error/error.hpp"

namespace otm::code {
namespace {

struct Value {
  enum class Kind { Int, Float, Bool, None, Tuple, Unknown };
  Kind kind = Kind::Unknown;
  long long i = 0;
  double f = 0;
  bool b = false;
  std::vector<Value> items;
  std::string text; // Unknown: its canonical expression (always holds a '?')

  static Value integer(long long v) { return {Kind::Int, v, 0, false, {}, {}}; }
  static Value real(double v) { return {Kind::Float, 0, v, false, {}, {}}; }
  static Value truth(bool v) { return {Kind::Bool, 0, 0, v, {}, {}}; }
  static Value unknown(std::string t) { return {Kind::Unknown, 0, 0, false, {}, std::move(t)}; }
  bool numeric() const { return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool; }
  double as_double() const { return kind == Kind::Float ? f : kind == Kind::Int ? static_cast<double>(i) : b; }
  bool is_int() const { return kind == Kind::Int || kind == Kind::Bool; }
  long long as_int() const { return kind == Kind::Int ? i : b; }
};

std::string normal(const Value &v) {
  switch (v.kind) {
  case Value::Kind::Int: return std::to_string(v.i);
  case Value::Kind::Float: {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v.f);
    std::string s = buf;
    if (s.find_first_of(".eni") == std::string::npos) s += ".0";
    return s;
  }
  case Value::Kind::Bool: return v.b ? "True" : "False";
  case Value::Kind::None: return "None";
  case Value::Kind::Tuple: {
    std::string s = "(";
    for (std::size_t k = 0; k < v.items.size(); ++k) s += (k ? ", " : "") + normal(v.items[k]);
    return s + (v.items.size() == 1 ? ",)" : ")");
  }
  case Value::Kind::Unknown: return v.text;
  }
  return v.text;
}

// Python truthiness, when known.
std::optional<bool> truth_of(const Value &v) {
  switch (v.kind) {
  case Value::Kind::Bool: return v.b;
  case Value::Kind::Int: return v.i != 0;
  case Value::Kind::Float: return v.f != 0;
  case Value::Kind::None: return false;
  case Value::Kind::Tuple: return !v.items.empty();
  case Value::Kind::Unknown: return std::nullopt;
  }
  return std::nullopt;
}

Value opaque(const std::string &op, const std::vector<Value> &args) {
  std::string t = "(" + op;
  for (const auto &a : args) t += " " + normal(a);
  return Value::unknown(t + ")");
}

struct Token {
  enum class Kind { Number, Name, String, Op, End };
  Kind kind = Kind::End;
  std::string text;
};

// Not an expression this evaluator reads; eval_python turns it into nullopt.
struct ParseError : Error {
  ParseError() : Error(ErrorKind::UnreadableInput, "not a Python expression otm evaluates") {}
};

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0;
  static const char *const ops[] = {"**", "//", "<=", ">=", "==", "!=", "<<", ">>", "+", "-", "*", "/", "%",
                                    "<",  ">",  "(",  ")",  "[",  "]",  ",",  ".",  ":", "&", "|", "^", "~"};
  while (i < s.size()) {
    unsigned char ch = static_cast<unsigned char>(s[i]);
    if (std::isspace(ch) || ch == '\\') {
      ++i;
    } else if (std::isdigit(ch) ||
               (ch == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      std::size_t j = i;
      if (s.substr(i, 2) == "0x" || s.substr(i, 2) == "0X") {
        j += 2;
        while (j < s.size() && (std::isxdigit(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      } else {
        while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_' || s[j] == '.' ||
                                ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E'))))
          ++j;
      }
      out.push_back({Token::Kind::Number, std::string(s.substr(i, j - i))});
      i = j;
    } else if (std::isalpha(ch) || ch == '_') {
      std::size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      out.push_back({Token::Kind::Name, std::string(s.substr(i, j - i))});
      i = j;
    } else if (ch == '\'' || ch == '"') {
      auto end = s.find(static_cast<char>(ch), i + 1);
      if (end == std::string_view::npos) throw ParseError{};
      out.push_back({Token::Kind::String, std::string(s.substr(i, end + 1 - i))});
      i = end + 1;
    } else {
      bool found = false;
      for (const char *op : ops) {
        std::string_view o(op);
        if (s.substr(i, o.size()) == o) {
          out.push_back({Token::Kind::Op, std::string(o)});
          i += o.size();
          found = true;
          break;
        }
      }
      if (!found) throw ParseError{};
    }
  }
  out.push_back({Token::Kind::End, ""});
  return out;
}

class Parser {
public:
  Parser(std::vector<Token> tokens, const Bindings &names) : t_(std::move(tokens)), names_(names) {}

  Value parse() {
    Value v = tuple_or_expr();
    if (peek().kind != Token::Kind::End) throw ParseError{};
    return v;
  }

private:
  std::vector<Token> t_;
  std::size_t p_ = 0;
  const Bindings &names_;

  const Token &peek() const { return t_[p_]; }
  bool is(std::string_view op) const {
    return (peek().kind == Token::Kind::Op || peek().kind == Token::Kind::Name) && peek().text == op;
  }
  bool take(std::string_view op) {
    if (!is(op)) return false;
    ++p_;
    return true;
  }
  void expect(std::string_view op) {
    if (!take(op)) throw ParseError{};
  }

  // `a, b` at the top of an expression or inside parentheses is a tuple.
  Value tuple_or_expr() {
    Value first = expr();
    if (!is(",")) return first;
    Value tuple;
    tuple.kind = Value::Kind::Tuple;
    tuple.items.push_back(std::move(first));
    while (take(",")) {
      if (is(")") || peek().kind == Token::Kind::End) break;
      tuple.items.push_back(expr());
    }
    return tuple;
  }

  Value expr() {
    Value v = or_expr();
    if (take("if")) {
      Value cond = or_expr();
      expect("else");
      Value other = expr();
      auto c = truth_of(cond);
      if (!c) return opaque("?if", {cond, v, other});
      return *c ? v : other;
    }
    return v;
  }

  Value or_expr() {
    Value v = and_expr();
    while (take("or")) {
      Value rhs = and_expr();
      auto c = truth_of(v);
      v = !c ? opaque("?or", {v, rhs}) : *c ? v : rhs;
    }
    return v;
  }

  Value and_expr() {
    Value v = not_expr();
    while (take("and")) {
      Value rhs = not_expr();
      auto c = truth_of(v);
      v = !c ? opaque("?and", {v, rhs}) : *c ? rhs : v;
    }
    return v;
  }

  Value not_expr() {
    if (take("not")) {
      Value v = not_expr();
      auto c = truth_of(v);
      return c ? Value::truth(!*c) : opaque("?not", {v});
    }
    return comparison();
  }

  static std::optional<bool> compare(const std::string &op, const Value &a, const Value &b) {
    if (a.numeric() && b.numeric()) {
      double x = a.as_double(), y = b.as_double();
      if (op == "<") return x < y;
      if (op == "<=") return x <= y;
      if (op == ">") return x > y;
      if (op == ">=") return x >= y;
      if (op == "==") return x == y;
      if (op == "!=") return x != y;
    }
    if ((op == "==" || op == "!=") && a.kind != Value::Kind::Unknown && b.kind != Value::Kind::Unknown)
      return (normal(a) == normal(b)) == (op == "==");
    return std::nullopt;
  }

  Value comparison() {
    Value left = bit_or();
    std::optional<Value> result;
    for (;;) {
      std::string op;
      if (is("<") || is("<=") || is(">") || is(">=") || is("==") || is("!=")) {
        op = peek().text;
        ++p_;
      } else if (is("is") || is("in")) {
        op = peek().text;
        ++p_;
        if (op == "is" && take("not")) op = "is not";
      } else if (is("not") && p_ + 1 < t_.size() && t_[p_ + 1].text == "in") {
        p_ += 2;
        op = "not in";
      } else {
        break;
      }
      Value right = bit_or();
      auto c = compare(op, left, right);
      Value step = c ? Value::truth(*c) : opaque("?" + op, {left, right});
      if (!result) {
        result = step;
      } else {
        auto r = truth_of(*result);
        result = !r ? opaque("?and", {*result, step}) : *r ? step : *result;
      }
      left = std::move(right);
    }
    return result ? *result : left;
  }

  template <class Next, class Apply> Value binary(Next next, std::initializer_list<std::string_view> ops, Apply apply) {
    Value v = (this->*next)();
    for (;;) {
      std::string op;
      for (auto o : ops)
        if (peek().kind == Token::Kind::Op && peek().text == o) op = std::string(o);
      if (op.empty()) return v;
      ++p_;
      Value rhs = (this->*next)();
      v = apply(op, v, rhs);
    }
  }

  static Value integer_op(const std::string &op, const Value &a, const Value &b) {
    if (!a.is_int() || !b.is_int()) return opaque("?" + op, {a, b});
    long long x = a.as_int(), y = b.as_int();
    if (op == "&") return Value::integer(x & y);
    if (op == "|") return Value::integer(x | y);
    if (op == "^") return Value::integer(x ^ y);
    if ((op == "<<" || op == ">>") && y >= 0 && y < 63) return Value::integer(op == "<<" ? x << y : x >> y);
    return opaque("?" + op, {a, b});
  }

  static Value arithmetic(const std::string &op, const Value &a, const Value &b) {
    if (op == "+" && a.kind == Value::Kind::Tuple && b.kind == Value::Kind::Tuple) {
      Value t = a;
      t.items.insert(t.items.end(), b.items.begin(), b.items.end());
      return t;
    }
    if (!a.numeric() || !b.numeric()) return opaque("?" + op, {a, b});
    if (a.is_int() && b.is_int()) {
      long long x = a.as_int(), y = b.as_int();
      if (op == "+") return Value::integer(x + y);
      if (op == "-") return Value::integer(x - y);
      if (op == "*") return Value::integer(x * y);
      if (op == "/" && y != 0) return Value::real(static_cast<double>(x) / static_cast<double>(y));
      if ((op == "//" || op == "%") && y != 0) {
        long long q = x / y, r = x % y;
        if (r != 0 && ((r < 0) != (y < 0))) --q, r += y; // Python floors
        return Value::integer(op == "//" ? q : r);
      }
      if (op == "**" && y >= 0 && y < 63) {
        long long out = 1;
        for (long long k = 0; k < y; ++k) out *= x;
        return Value::integer(out);
      }
      return opaque("?" + op, {a, b});
    }
    double x = a.as_double(), y = b.as_double();
    if (op == "+") return Value::real(x + y);
    if (op == "-") return Value::real(x - y);
    if (op == "*") return Value::real(x * y);
    if (op == "/" && y != 0) return Value::real(x / y);
    if (op == "//" && y != 0) return Value::real(std::floor(x / y));
    if (op == "%" && y != 0) return Value::real(x - std::floor(x / y) * y);
    if (op == "**") return Value::real(std::pow(x, y));
    return opaque("?" + op, {a, b});
  }

  Value bit_or() { return binary(&Parser::bit_xor, {"|"}, integer_op); }
  Value bit_xor() { return binary(&Parser::bit_and, {"^"}, integer_op); }
  Value bit_and() { return binary(&Parser::shift, {"&"}, integer_op); }
  Value shift() { return binary(&Parser::sum, {"<<", ">>"}, integer_op); }
  Value sum() { return binary(&Parser::term, {"+", "-"}, arithmetic); }
  Value term() { return binary(&Parser::unary, {"*", "/", "//", "%"}, arithmetic); }

  Value unary() {
    if (take("-")) {
      Value v = unary();
      if (v.kind == Value::Kind::Int || v.kind == Value::Kind::Bool) return Value::integer(-v.as_int());
      if (v.kind == Value::Kind::Float) return Value::real(-v.f);
      return opaque("?neg", {v});
    }
    if (take("+")) return unary();
    if (take("~")) {
      Value v = unary();
      return v.is_int() ? Value::integer(~v.as_int()) : opaque("?~", {v});
    }
    return power();
  }

  Value power() {
    Value base = primary();
    if (take("**")) return arithmetic("**", base, unary()); // right-associative, binds tighter than unary on its left
    return base;
  }

  std::vector<Value> arguments() {
    std::vector<Value> args;
    while (!is(")")) {
      args.push_back(expr());
      if (!take(",")) break;
    }
    expect(")");
    return args;
  }

  static Value call(const std::string &callee, const std::vector<Value> &args) {
    auto last = callee.substr(callee.rfind('.') == std::string::npos ? 0 : callee.rfind('.') + 1);
    bool all_numeric = !args.empty();
    for (const auto &a : args) all_numeric = all_numeric && a.numeric();
    if ((last == "min" || last == "max") && callee == last && all_numeric && args.size() >= 2) {
      const Value *best = &args[0];
      for (const auto &a : args)
        if (last == "min" ? a.as_double() < best->as_double() : a.as_double() > best->as_double()) best = &a;
      return *best;
    }
    if (last == "abs" && callee == last && all_numeric && args.size() == 1)
      return args[0].is_int() ? Value::integer(std::llabs(args[0].as_int())) : Value::real(std::fabs(args[0].f));
    if (last == "int" && callee == last && all_numeric && args.size() == 1)
      return args[0].is_int() ? Value::integer(args[0].as_int())
                              : Value::integer(static_cast<long long>(std::trunc(args[0].f)));
    if (last == "next_power_of_2" && all_numeric && args.size() == 1 && args[0].is_int()) {
      long long n = args[0].as_int(), p = 1;
      while (p < n && p < (1LL << 62)) p <<= 1;
      return Value::integer(p);
    }
    if (last == "cdiv" && all_numeric && args.size() == 2 && args[0].is_int() && args[1].is_int() &&
        args[1].as_int() != 0) {
      long long a = args[0].as_int(), b = args[1].as_int();
      return arithmetic("//", Value::integer(a + b - 1), Value::integer(b));
    }
    return opaque("?" + callee, args);
  }

  Value primary() {
    Value v = atom();
    std::string dotted =
        v.kind == Value::Kind::Unknown && v.text.rfind("?", 0) == 0 && v.text.find_first_of(" ()") == std::string::npos
            ? v.text.substr(1)
            : std::string();
    for (;;) {
      if (take(".")) {
        if (peek().kind != Token::Kind::Name) throw ParseError{};
        std::string attr = peek().text;
        ++p_;
        if (!dotted.empty()) {
          dotted += "." + attr;
          auto it = names_.find(dotted);
          v = it != names_.end() ? from_normal(it->second) : Value::unknown("?" + dotted);
        } else {
          v = opaque("?." + attr, {v});
        }
      } else if (take("(")) {
        std::string callee = !dotted.empty() ? dotted : "?call";
        auto args = arguments();
        v = !dotted.empty() ? call(callee, args) : opaque("?call", [&] {
          std::vector<Value> all{v};
          all.insert(all.end(), args.begin(), args.end());
          return all;
        }());
        dotted.clear();
      } else if (take("[")) {
        Value index = is("]") ? Value::unknown("?") : tuple_or_expr();
        while (take(":"))
          if (!is("]") && !is(":")) index = opaque("?:", {index, expr()});
        expect("]");
        if (v.kind == Value::Kind::Tuple && index.is_int()) {
          long long k = index.as_int(), n = static_cast<long long>(v.items.size());
          if (k < 0) k += n;
          if (k < 0 || k >= n) throw ParseError{};
          v = v.items[static_cast<std::size_t>(k)];
        } else {
          v = opaque("?[]", {v, index});
        }
        dotted.clear();
      } else {
        return v;
      }
    }
  }

  Value atom() {
    const Token tok = peek();
    if (tok.kind == Token::Kind::End) throw ParseError{};
    ++p_;
    if (tok.kind == Token::Kind::Number) return number(tok.text);
    if (tok.kind == Token::Kind::String) {
      std::string text = tok.text;
      while (peek().kind == Token::Kind::String) text += peek().text, ++p_; // implicit concatenation
      return Value::unknown("?" + text);
    }
    if (tok.kind == Token::Kind::Name) {
      if (tok.text == "True" || tok.text == "False") return Value::truth(tok.text == "True");
      if (tok.text == "None") return Value{Value::Kind::None, 0, 0, false, {}, {}};
      static const char *const keywords[] = {"and", "or", "not", "if", "else", "is", "in", "lambda", "for"};
      for (const char *k : keywords)
        if (tok.text == k) throw ParseError{};
      auto it = names_.find(tok.text);
      return it != names_.end() ? from_normal(it->second) : Value::unknown("?" + tok.text);
    }
    if (tok.text == "(") {
      if (take(")")) return Value{Value::Kind::Tuple, 0, 0, false, {}, {}};
      Value v = tuple_or_expr();
      expect(")");
      return v;
    }
    if (tok.text == "[") {
      Value list;
      list.kind = Value::Kind::Tuple;
      while (!is("]")) {
        list.items.push_back(expr());
        if (!take(",")) break;
      }
      expect("]");
      return opaque("?list", list.items);
    }
    throw ParseError{};
  }

  static Value number(const std::string &text) {
    std::string digits;
    for (char ch : text)
      if (ch != '_') digits += ch;
    try {
      if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
        return Value::integer(std::stoll(digits.substr(2), nullptr, 16));
      if (digits.find_first_of(".eEjJ") == std::string::npos) return Value::integer(std::stoll(digits));
      if (digits.find_first_of("jJ") != std::string::npos) return Value::unknown("?" + digits);
      return Value::real(std::stod(digits));
    } catch (const std::exception &) {
      throw ParseError{};
    }
  }

  // A binding's normal form back as a value: a known value is Python
  // again; an unknown one stays its text.
  Value from_normal(const std::string &form) const {
    if (!is_known(form)) return Value::unknown(form);
    try {
      Bindings none;
      Parser inner(tokenize(form), none);
      return inner.parse();
    } catch (const ParseError &) {
      return Value::unknown("?" + form);
    }
  }
};

} // namespace

bool is_known(std::string_view normal_form) { return normal_form.find('?') == std::string_view::npos; }

std::optional<std::string> eval_python(std::string_view expression, const Bindings &names) {
  try {
    Parser parser(tokenize(expression), names);
    return normal(parser.parse());
  } catch (const ParseError &) {
    return std::nullopt;
  }
}

} // namespace otm::code
