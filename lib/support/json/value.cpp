#include "json/value.hpp"

#include <algorithm>
#include <cmath>

#include "json/float_repr.hpp"

namespace otm::json {

const Value &null_value() {
  static const Value null;
  return null;
}

Value Value::strings(const std::vector<std::string> &items) {
  Array a;
  a.reserve(items.size());
  for (const auto &s : items) a.emplace_back(s);
  return Value(std::move(a));
}

std::optional<std::int64_t> Value::as_int() const {
  if (auto p = std::get_if<std::int64_t>(&v_)) return *p;
  return std::nullopt;
}

std::optional<double> Value::as_number() const {
  if (auto p = std::get_if<std::int64_t>(&v_)) return static_cast<double>(*p);
  if (auto p = std::get_if<double>(&v_)) return *p;
  return std::nullopt;
}

bool Value::truthy() const {
  switch (kind()) {
  case Kind::Null: return false;
  case Kind::Bool: return std::get<bool>(v_);
  case Kind::Int: return std::get<std::int64_t>(v_) != 0;
  case Kind::Double: return std::get<double>(v_) != 0.0;
  case Kind::String: return !std::get<std::string>(v_).empty();
  case Kind::Array: return !std::get<Array>(v_).empty();
  case Kind::Object: return !std::get<Object>(v_).empty();
  }
  return false;
}

const Value *Value::find(std::string_view key) const {
  if (auto o = as_object())
    for (const auto &m : *o)
      if (m.first == key) return &m.second;
  return nullptr;
}

Value *Value::find(std::string_view key) {
  if (auto o = as_object())
    for (auto &m : *o)
      if (m.first == key) return &m.second;
  return nullptr;
}

const Value &Value::get(std::string_view key) const {
  const Value *v = find(key);
  return v ? *v : null_value();
}

Value &Value::set(std::string_view key, Value value) {
  if (is_null()) v_ = Object{};
  auto &o = std::get<Object>(v_);
  for (auto &m : o)
    if (m.first == key) {
      m.second = std::move(value);
      return m.second;
    }
  o.emplace_back(std::string(key), std::move(value));
  return o.back().second;
}

bool Value::erase(std::string_view key) {
  auto o = as_object();
  if (!o) return false;
  for (auto it = o->begin(); it != o->end(); ++it)
    if (it->first == key) {
      o->erase(it);
      return true;
    }
  return false;
}

std::string Value::string_or(std::string_view key, std::string_view fallback) const {
  const Value *v = find(key);
  if (v && v->is_string()) return *v->as_string();
  return std::string(fallback);
}

Value &Value::push_back(Value value) {
  if (is_null()) v_ = Array{};
  auto &a = std::get<Array>(v_);
  a.push_back(std::move(value));
  return a.back();
}

std::size_t Value::size() const {
  if (auto a = as_array()) return a->size();
  if (auto o = as_object()) return o->size();
  return 0;
}

const Value &Value::operator[](std::size_t i) const {
  if (auto a = as_array(); a && i < a->size()) return (*a)[i];
  return null_value();
}

bool Value::operator==(const Value &other) const {
  // Python equality: 1 == 1.0.
  if (is_number() && other.is_number()) return *as_number() == *other.as_number();
  return v_ == other.v_;
}

std::string Value::python_str() const {
  switch (kind()) {
  case Kind::Null: return "None";
  case Kind::Bool: return std::get<bool>(v_) ? "True" : "False";
  case Kind::Int: return std::to_string(std::get<std::int64_t>(v_));
  case Kind::Double: return python_float_repr(std::get<double>(v_));
  case Kind::String: return std::get<std::string>(v_);
  default: return "";
  }
}

std::size_t nesting_depth(const Value &v, std::size_t limit) {
  if (!v.is_array() && !v.is_object()) return 0;
  if (limit == 0) return 1;
  std::size_t deepest = 0;
  if (const auto *a = v.as_array())
    for (const auto &e : *a) deepest = std::max(deepest, nesting_depth(e, limit - 1));
  if (const auto *o = v.as_object())
    for (const auto &[_, e] : *o) deepest = std::max(deepest, nesting_depth(e, limit - 1));
  return deepest + 1;
}

Value hundredths(double x) { return Value(std::round(x * 100.0) / 100.0); }

} // namespace otm::json
