// The in-memory JSON document every stage passes around: insertion-ordered
// objects (output key order is part of the contract), int and double kept
// apart (10 and 10.0 are written differently), strings as UTF-8.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace otm::json {

class Value;
using Array = std::vector<Value>;
using Member = std::pair<std::string, Value>;
using Object = std::vector<Member>;

enum class Kind { Null, Bool, Int, Double, String, Array, Object };

class Value {
public:
  Value() = default;
  Value(std::nullptr_t) {}
  Value(bool b) : v_(b) {}
  Value(int i) : v_(static_cast<std::int64_t>(i)) {}
  Value(long i) : v_(static_cast<std::int64_t>(i)) {}
  Value(long long i) : v_(static_cast<std::int64_t>(i)) {}
  Value(unsigned i) : v_(static_cast<std::int64_t>(i)) {}
  Value(unsigned long i) : v_(static_cast<std::int64_t>(i)) {}
  Value(double d) : v_(d) {}
  Value(const char *s) : v_(std::string(s)) {}
  Value(std::string s) : v_(std::move(s)) {}
  Value(std::string_view s) : v_(std::string(s)) {}
  Value(Array a) : v_(std::move(a)) {}
  Value(Object o) : v_(std::move(o)) {}
  template <typename T> Value(std::optional<T> o) {
    if (o) *this = Value(*o);
  }

  static Value object() { return Value(Object{}); }
  static Value array() { return Value(Array{}); }
  static Value strings(const std::vector<std::string> &items);

  Kind kind() const { return static_cast<Kind>(v_.index()); }
  bool is_null() const { return kind() == Kind::Null; }
  bool is_bool() const { return kind() == Kind::Bool; }
  bool is_int() const { return kind() == Kind::Int; }
  bool is_double() const { return kind() == Kind::Double; }
  bool is_number() const { return is_int() || is_double(); }
  bool is_string() const { return kind() == Kind::String; }
  bool is_array() const { return kind() == Kind::Array; }
  bool is_object() const { return kind() == Kind::Object; }

  // Typed access; nullptr / nullopt when the kind differs.
  const bool *as_bool() const { return std::get_if<bool>(&v_); }
  std::optional<std::int64_t> as_int() const;
  std::optional<double> as_number() const; // int or double
  const std::string *as_string() const { return std::get_if<std::string>(&v_); }
  const Array *as_array() const { return std::get_if<Array>(&v_); }
  Array *as_array() { return std::get_if<Array>(&v_); }
  const Object *as_object() const { return std::get_if<Object>(&v_); }
  Object *as_object() { return std::get_if<Object>(&v_); }

  // Python truthiness: null, false, 0, 0.0, "", [], {} are false.
  bool truthy() const;

  // Object access. find() is nullptr when absent or not an object; get()
  // returns a shared null for the same cases so chains read naturally.
  const Value *find(std::string_view key) const;
  Value *find(std::string_view key);
  const Value &get(std::string_view key) const;
  bool contains(std::string_view key) const { return find(key) != nullptr; }
  // Sets key (appending it when new, keeping its position when present).
  // Turns a null into an object first.
  Value &set(std::string_view key, Value value);
  bool erase(std::string_view key);

  // String of a member, or fallback when absent/not a string.
  std::string string_or(std::string_view key, std::string_view fallback = "") const;

  // Array access.
  Value &push_back(Value value); // turns a null into an array first
  std::size_t size() const;      // members or elements; 0 otherwise
  const Value &operator[](std::size_t i) const;

  bool operator==(const Value &other) const;

  // Python str() of a scalar, used where the reference interpolates values
  // into text (True/False/None, repr of floats).
  std::string python_str() const;

private:
  std::variant<std::nullptr_t, bool, std::int64_t, double, std::string, Array, Object> v_{nullptr};
};

const Value &null_value();

// `x` rounded to two decimals, the precision every percentage and
// microsecond figure otm writes or quotes is given in.
Value hundredths(double x);

// Nesting depth of `v` (a scalar 0, [] or {} 1, ...), counted no further
// than `limit` + 1, so checking a limit costs at most the part within it.
std::size_t nesting_depth(const Value &v, std::size_t limit);

} // namespace otm::json
