#include "packet/run_record.hpp"

#include <cstdio>

#include "io/dir_stamps.hpp"
#include "io/file.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::packet {

namespace {

// Bumped whenever what the record holds, or how it is compared, changes.
constexpr char kFormat[] = "otm-packet-run 2";

} // namespace

void InputDigest::feed(std::string_view bytes) {
  low_.update(bytes);
  high_.update(bytes);
}

void InputDigest::add(const std::string &name, std::string_view value) {
  std::string head = name;
  head += '\0';
  head += std::to_string(value.size());
  head += '\0';
  feed(head);
  feed(value);
}

std::string InputDigest::hex() const {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(high_.digest()),
                static_cast<unsigned long long>(low_.digest()));
  return buf;
}

std::vector<std::string> packets_stamps(const std::filesystem::path &dir) {
  std::vector<std::string> out;
  auto stamps = io::stamp_dir(dir);
  if (!stamps) return out;
  out.push_back(". " + std::to_string(stamps->inode));
  for (const auto &e : stamps->entries)
    out.push_back(e.name + "\t" + std::to_string(e.inode) + " " + std::to_string(e.size) + " " +
                  std::to_string(e.mtime_ns) + " " + std::to_string(e.ctime_ns));
  return out;
}

std::optional<RunRecord> read_run_record(const std::filesystem::path &file) {
  if (!io::is_regular_file(file)) return std::nullopt;
  try {
    auto v = json::parse(io::read_file(file), file.string());
    if (v.string_or("format") != kFormat) return std::nullopt;
    RunRecord r;
    r.inputs = v.string_or("inputs");
    for (const auto &key : {"reads", "packets"})
      if (!v.get(key).is_array()) return std::nullopt;
    for (const auto &e : *v.get("reads").as_array()) {
      const auto *key = e[0].as_string(), *value = e[1].as_string();
      if (!key || !value) return std::nullopt;
      r.reads.emplace_back(*key, *value);
    }
    for (const auto &e : *v.get("packets").as_array())
      if (const auto *s = e.as_string()) r.packets.push_back(*s);
    r.out = v.string_or("stdout");
    r.report = v.string_or("report");
    r.clean = v.get("clean").truthy();
    return r;
  } catch (const std::exception &) {
    return std::nullopt; // damaged: the run is redone and the record rewritten
  }
}

void write_run_record(const std::filesystem::path &file, const RunRecord &r) {
  json::Value v = json::Value::object();
  v.set("format", kFormat);
  v.set("inputs", r.inputs);
  json::Value reads = json::Value::array();
  for (const auto &[key, value] : r.reads) reads.push_back(json::Value::strings({key, value}));
  v.set("reads", std::move(reads));
  v.set("packets", json::Value::strings(r.packets));
  v.set("stdout", r.out);
  v.set("report", r.report);
  v.set("clean", r.clean);
  io::write_file_atomic(file, json::to_line(v) + "\n", io::FileClass::Scratch);
}

bool still_current(const RunRecord &r, const std::string &inputs, const git::Repository &repo,
                   const trace::TraceFiles &files, const std::filesystem::path &dir) {
  if (r.inputs != inputs || r.packets.empty()) return false;
  for (const auto &[key, value] : r.reads) {
    auto now = repo.reread(key);
    if (!now) now = files.reread(key);
    if (!now || *now != value) return false;
  }
  return packets_stamps(dir) == r.packets;
}

} // namespace otm::packet
