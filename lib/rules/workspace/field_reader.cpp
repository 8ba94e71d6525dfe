#include "workspace/field_reader.hpp"

namespace otm::workspace {

const char *kind_name(const json::Value &v) {
  switch (v.kind()) {
  case json::Kind::Null: return "null";
  case json::Kind::Bool: return "a boolean";
  case json::Kind::Int:
  case json::Kind::Double: return "a number";
  case json::Kind::String: return "a string";
  case json::Kind::Array: return "a list";
  case json::Kind::Object: return "an object";
  }
  return "a value";
}

std::optional<std::vector<std::string>> strings_of(const json::Value &v) {
  const auto *items = v.as_array();
  if (!items) return std::nullopt;
  std::vector<std::string> out;
  for (const auto &item : *items) {
    const auto *s = item.as_string();
    if (!s) return std::nullopt;
    out.push_back(*s);
  }
  return out;
}

FieldReader::FieldReader(std::string subject, std::string writer)
    : subject_(std::move(subject)), writer_(std::move(writer)) {}

bool FieldReader::boolean(std::string_view key, const json::Value &v, bool &out) {
  if (!v.is_bool()) return wrong(key, v, "a boolean");
  out = *v.as_bool();
  return true;
}

bool FieldReader::string_or_null(std::string_view key, const json::Value &v, std::optional<std::string> &out) {
  if (!v.is_string() && !v.is_null()) return wrong(key, v, "a string or null");
  out = v.is_null() ? std::nullopt : std::optional<std::string>(*v.as_string());
  return true;
}

bool FieldReader::number_or_null(std::string_view key, const json::Value &v, std::optional<double> &out) {
  if (!v.is_number() && !v.is_null()) return wrong(key, v, "a number or null");
  out = v.as_number();
  return true;
}

bool FieldReader::is_number(std::string_view key, const json::Value &v) {
  return v.is_number() || wrong(key, v, "a number");
}

bool FieldReader::is_object(std::string_view key, const json::Value &v) {
  return v.is_object() || wrong(key, v, "an object");
}

bool FieldReader::is_list(std::string_view key, const json::Value &v) {
  return v.is_array() || wrong(key, v, "a list");
}

const json::Object *FieldReader::members(const json::Value &v) {
  if (const auto *members = v.as_object()) return members;
  problems_.push_back(subject_ + " is " + kind_name(v) + ", not an object");
  return nullptr;
}

Error FieldReader::error() const { return Error(ErrorKind::UnreadableInput, problems_.front()); }

std::string FieldReader::problems() const {
  std::string out;
  for (const auto &p : problems_) out += (out.empty() ? "" : "; ") + p;
  return out;
}

bool FieldReader::wrong(std::string_view key, const json::Value &v, std::string_view wanted) {
  std::string field = subject_.empty() ? std::string(key) : subject_ + "'s `" + std::string(key) + "`";
  std::string sentence = field + " is " + kind_name(v) + ", not " + std::string(wanted);
  if (!writer_.empty()) sentence += " (as " + writer_ + " writes it)";
  problems_.push_back(std::move(sentence));
  return false;
}

Error located(std::string_view where, const Error &e) { return Error(e.kind(), std::string(where) + ": " + e.what()); }

} // namespace otm::workspace
