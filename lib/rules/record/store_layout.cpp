#include "record/store_layout.hpp"

namespace otm::record {

std::string unsafe_component_reason(std::string_view c) {
  if (c.empty()) return "is empty";
  if (c == "." || c == "..") return "is a relative path component";
  if (c.size() > kMaxComponentLength) return "is longer than 200 characters";
  if (c.front() == '.') return "starts with a dot";
  for (unsigned char ch : c) {
    if (ch == '/' || ch == '\\') return "contains a path separator";
    if (ch < 0x20 || ch == 0x7f) return "contains a control character";
    bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
              ch == '_' || ch == '-';
    if (!ok) return "contains a character outside [A-Za-z0-9._-]";
  }
  return "";
}

namespace {
std::string component(const char *what, const json::Value &v, const char *fallback) {
  std::string s;
  if (const auto *p = v.as_string()) s = *p;
  if (s.empty()) {
    if (!fallback) throw LayoutError(std::string("record has no ") + what + ": cannot place it in the store");
    s = fallback;
  }
  auto why = unsafe_component_reason(s);
  if (!why.empty()) throw LayoutError(std::string(what) + " '" + s + "' " + why + ": refusing to use it as a path");
  return s;
}
} // namespace

std::filesystem::path record_dir(const json::Value &record) {
  const auto &scope = record.get("retrieval").get("scope");
  std::filesystem::path p = component("type", record.get("type"), nullptr);
  p /= component("retrieval.scope.vendor", scope.get("vendor"), nullptr);
  p /= component("retrieval.scope.arch", scope.get("arch"), nullptr);
  p /= component("retrieval.scope.dsl", scope.get("dsl"), "any");
  p /= component("retrieval.scope.operator_family", scope.get("operator_family"), "misc");
  return p;
}

std::filesystem::path record_relpath(const json::Value &record) {
  std::string id = component("id", record.get("id"), nullptr);
  return record_dir(record) / (id + ".json");
}

std::filesystem::path inside(const std::filesystem::path &root, const std::filesystem::path &relpath) {
  if (relpath.is_absolute()) throw LayoutError("path '" + relpath.string() + "' is absolute: refusing to write it");
  auto base = root.lexically_normal();
  auto joined = (root / relpath).lexically_normal();
  auto rel = joined.lexically_relative(base);
  if (rel.empty() || *rel.begin() == ".." || rel == ".")
    throw LayoutError("path '" + relpath.string() + "' leaves the store: refusing to write it");
  return joined;
}

} // namespace otm::record
