#include "trace/trace_files.hpp"

#include "text/sha256.hpp"
#include "text/utf8.hpp"

namespace otm::trace {

namespace {

// The read log's kinds and how each result reads in it.
constexpr char kFile[] = "trace.file", kIsFile[] = "trace.is_file", kIsDir[] = "trace.is_dir", kNames[] = "trace.names";
std::string flag(bool b) { return b ? "1" : "0"; }
std::string names_value(const std::vector<std::string> &names) {
  std::string joined;
  for (const auto &n : names) (joined += n) += '\0';
  return text::sha256_hex(joined);
}

} // namespace

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

void TraceFiles::note(const char *kind, const std::string &rel, const std::string &value) const {
  if (log_) log_->note(std::string(kind) + '\t' + rel, value);
}

std::optional<std::string> TraceFiles::bytes(const std::string &rel, Seen seen) const {
  io::FileRead r = beneath_.read(rel, limits_.max_file_bytes);
  if (!r) {
    note(kFile, rel, "none");
    refused(rel, r, seen);
    return std::nullopt;
  }
  if (log_) note(kFile, rel, text::sha256_hex(r.content)); // no digest unless logging
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
  note(kIsFile, rel, flag(r == io::Refusal::None));
  if (r == io::Refusal::None) return true;
  // The reader's own words for the refusal (what the file is, which link).
  if (r != io::Refusal::Missing || seen == Seen::Listed) refused(rel, beneath_.read(rel, limits_.max_file_bytes), seen);
  return false;
}

bool TraceFiles::is_directory(const std::string &rel) const {
  bool d = beneath_.is_directory(rel);
  note(kIsDir, rel, flag(d));
  return d;
}

std::vector<std::string> TraceFiles::names(const std::string &rel) const {
  std::vector<std::string> out;
  io::DirList list = beneath_.list(rel);
  if (!list) {
    note(kNames, rel, "none");
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
  if (log_) note(kNames, rel, names_value(out));
  return out;
}

std::optional<std::string> TraceFiles::reread(const std::string &key) const {
  auto tab = key.find('\t');
  if (tab == std::string::npos) return std::nullopt;
  std::string kind = key.substr(0, tab), rel = key.substr(tab + 1);
  // A scratch reader: the repeated read notes nothing and remembers no skip.
  TraceFiles fresh(beneath_.root(), limits_);
  if (kind == kFile) {
    auto b = fresh.bytes(rel);
    return b ? text::sha256_hex(*b) : "none";
  }
  if (kind == kIsFile) return flag(fresh.is_file(rel));
  if (kind == kIsDir) return flag(fresh.is_directory(rel));
  if (kind == kNames) {
    io::DirList list = fresh.beneath_.list(rel);
    return list ? names_value(fresh.names(rel)) : "none";
  }
  return std::nullopt;
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
