#include "schema/canonical.hpp"

#include <algorithm>
#include <map>

#include "json/write.hpp"

namespace otm::schema {
namespace {

json::Value sorted(const json::Value &v) {
  if (const auto *a = v.as_array()) {
    json::Value out = json::Value::array();
    for (const auto &item : *a) out.push_back(sorted(item));
    return out;
  }
  if (const auto *o = v.as_object()) {
    std::map<std::string, const json::Value *> keys;
    for (const auto &[k, child] : *o) keys[k] = &child;
    json::Value out = json::Value::object();
    for (const auto &[k, child] : keys) out.set(k, sorted(*child));
    return out;
  }
  return v;
}

std::map<std::string, const json::Value *> members(const json::Value &v, const std::set<std::string> &ignored,
                                                   bool names) {
  std::map<std::string, const json::Value *> out;
  for (const auto &[k, child] : *v.as_object())
    if (names || !ignored.count(k)) out[k] = &child;
  return out;
}

std::string diff(const json::Value &a, const json::Value &b, const std::set<std::string> &ignored,
                 const std::string &path, bool names) {
  std::string here = path.empty() ? "<root>" : path;
  if (a.is_number() && b.is_number()) return *a.as_number() == *b.as_number() ? "" : here;
  if (a.kind() != b.kind()) return here;
  if (const auto *x = a.as_array()) {
    const auto *y = b.as_array();
    if (x->size() != y->size()) return here;
    for (std::size_t i = 0; i < x->size(); ++i) {
      auto d = diff((*x)[i], (*y)[i], ignored, path + "/" + std::to_string(i), false);
      if (!d.empty()) return d;
    }
    return "";
  }
  if (a.is_object()) {
    auto ma = members(a, ignored, names), mb = members(b, ignored, names);
    for (const auto &[k, child] : ma) {
      auto it = mb.find(k);
      if (it == mb.end()) return path + "/" + k;
      auto d = diff(*child, *it->second, ignored, path + "/" + k, k == "properties" && !names);
      if (!d.empty()) return d;
    }
    for (const auto &[k, child] : mb)
      if (!ma.count(k)) return path + "/" + k;
    return "";
  }
  return a == b ? "" : here;
}

} // namespace

std::string canonical_text(const json::Value &v) {
  // to_line's separators are fixed, so the text is canonical once keys are sorted.
  return json::to_line(sorted(v));
}

bool structurally_equal(const json::Value &a, const json::Value &b, const std::set<std::string> &ignored) {
  return diff(a, b, ignored, "", false).empty();
}

std::string first_difference(const json::Value &a, const json::Value &b, const std::set<std::string> &ignored) {
  return diff(a, b, ignored, "", false);
}

} // namespace otm::schema
