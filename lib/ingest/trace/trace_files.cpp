#include "trace/trace_files.hpp"

#include "text/utf8.hpp"

namespace otm::trace {

TraceFiles::TraceFiles(const std::filesystem::path &trace, const config::Limits &limits, io::Beneath::Method method)
    : beneath_(trace, "the trace", method), limits_(limits) {}

void TraceFiles::skip(const std::string &rel, const std::string &why) const {
  std::lock_guard lock(mu_);
  skips_.emplace(rel, why);
}

void TraceFiles::refused(const std::string &rel, const io::FileRead &r, Seen seen) const {
  if (r.refusal == io::Refusal::Missing) {
    if (seen == Seen::Listed) skip(rel, "a dangling symbolic link (or removed while read)");
    return;
  }
  skip(rel, r.refusal == io::Refusal::TooLarge ? r.why + " (limits.max_file_bytes)" : r.why);
}

std::optional<std::string> TraceFiles::bytes(const std::string &rel, Seen seen) const {
  io::FileRead r = beneath_.read(rel, limits_.max_file_bytes);
  if (!r) {
    refused(rel, r, seen);
    return std::nullopt;
  }
  return std::move(r.content);
}

std::optional<std::string> TraceFiles::text(const std::string &rel, Seen seen) const {
  auto b = bytes(rel, seen);
  if (!b) return b;
  return valid_utf8(*b, rel);
}

std::string TraceFiles::valid_utf8(std::string_view s, const std::string &source) const {
  std::size_t n = 0;
  std::string out = text::replace_invalid_utf8(s, &n);
  if (n) {
    std::lock_guard lock(mu_);
    replaced_[source] += n;
  }
  return out;
}

bool TraceFiles::is_file(const std::string &rel, Seen seen) const {
  io::Refusal r = beneath_.probe_file(rel);
  if (r == io::Refusal::None) return true;
  // The reader's own words for the refusal (what the file is, which link).
  if (r != io::Refusal::Missing || seen == Seen::Listed) refused(rel, beneath_.read(rel, limits_.max_file_bytes), seen);
  return false;
}

bool TraceFiles::is_directory(const std::string &rel) const { return beneath_.is_directory(rel); }

std::vector<std::string> TraceFiles::names(const std::string &rel) const {
  std::vector<std::string> out;
  io::DirList list = beneath_.list(rel);
  if (!list) {
    if (list.refusal != io::Refusal::Missing) skip(rel + "/", list.why);
    return out;
  }
  for (auto &e : list.entries) {
    if (!text::is_valid_utf8(e.name)) {
      skip(rel + "/" + text::replace_invalid_utf8(e.name), "the file name is not valid UTF-8");
      continue;
    }
    out.push_back(std::move(e.name));
  }
  return out;
}

json::Value TraceFiles::skipped_json() const {
  std::lock_guard lock(mu_);
  json::Value out = json::Value::array();
  for (const auto &[file, why] : skips_) {
    json::Value e = json::Value::object();
    e.set("file", file);
    e.set("why", why);
    out.push_back(std::move(e));
  }
  return out;
}

json::Value TraceFiles::invalid_utf8_json() const {
  std::lock_guard lock(mu_);
  std::size_t total = 0;
  json::Value sources = json::Value::array();
  for (const auto &[source, n] : replaced_) {
    total += n;
    json::Value e = json::Value::object();
    e.set("source", source);
    e.set("replaced", n);
    sources.push_back(std::move(e));
  }
  json::Value out = json::Value::object();
  out.set("replaced", total);
  out.set("sources", sources);
  return out;
}

std::size_t TraceFiles::skipped_count() const {
  std::lock_guard lock(mu_);
  return skips_.size();
}

std::size_t TraceFiles::replaced_count() const {
  std::lock_guard lock(mu_);
  std::size_t total = 0;
  for (const auto &[_, n] : replaced_) total += n;
  return total;
}

} // namespace otm::trace
