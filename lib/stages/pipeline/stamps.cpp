#include "pipeline/stamps.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>

#include "error/error.hpp"
#include "git/repository.hpp"
#include "io/file.hpp"
#include "json/write.hpp"

namespace otm::pipeline {
namespace fs = std::filesystem;

namespace {

// FNV-1a 64: a change detector, not a security boundary.
std::string content_hash(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io::IoError(path.string() + ": cannot read");
  std::uint64_t h = 1469598103934665603ULL;
  char buf[1 << 16];
  while (in) {
    in.read(buf, sizeof buf);
    for (std::streamsize i = 0; i < in.gcount(); ++i) {
      h ^= static_cast<unsigned char>(buf[i]);
      h *= 1099511628211ULL;
    }
  }
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

} // namespace

std::string trace_state(const fs::path &trace) {
  auto repo = git::Repository::open(trace);
  std::string text = "head " + repo.head().value_or("none") + "\n";
  std::vector<std::string> lines;
  std::error_code ec;
  fs::recursive_directory_iterator it(trace, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (it->path().filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    auto rel = it->path().lexically_relative(trace).generic_string();
    // A link is stamped by its target, never followed: the trace is
    // untrusted, and a link out of it must not make otm read (or wait on)
    // what it points at (docs/security.md). Ingest does not follow it either.
    if (it->is_symlink(ec)) {
      lines.push_back(rel + "\tlink\t" + fs::read_symlink(it->path(), ec).string());
      continue;
    }
    if (!it->is_regular_file(ec)) continue;
    lines.push_back(rel + "\t" + std::to_string(it->file_size(ec)) + "\t" + content_hash(it->path()));
  }
  if (ec) throw io::IoError(trace.string() + ": cannot list (" + ec.message() + ")");
  std::sort(lines.begin(), lines.end());
  for (const auto &l : lines) text += l + "\n";
  return text;
}

std::string config_state(const config::Config &config, const config::Settings &settings,
                         const std::vector<std::string> &sections) {
  json::Value out = json::Value::object();
  for (const auto &name : sections) {
    if (name == "settings") {
      json::Value s = json::Value::object();
      // Keyed by the seed's name where there is one, as stamps always were,
      // so a stamp written before the OTM_ names reads the same.
      for (const auto &info : config::all_settings())
        if (info.setting != config::Setting::ConfigFile)
          if (auto v = settings.get(info.setting)) s.set(info.seed_env ? info.seed_env : info.env, *v);
      out.set(name, s);
      continue;
    }
    const json::Value *v = config.data().find(name);
    if (!v) throw Error(ErrorKind::Usage, "no configuration section '" + name + "' (see otm-stamp --help)");
    out.set(name, *v);
  }
  return json::to_pretty(out);
}

bool write_if_changed(const fs::path &path, const std::string &content) {
  if (io::is_regular_file(path)) {
    try {
      if (io::read_file(path) == content) return false;
    } catch (const io::IoError &) {
      // unreadable: rewrite it
    }
  }
  io::write_file_atomic(path, content, io::FileClass::Scratch);
  io::sync_file_system(path);
  return true;
}

} // namespace otm::pipeline
