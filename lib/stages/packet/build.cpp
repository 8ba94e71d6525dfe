#include "packet/build.hpp"

#include <map>
#include <set>

#include "error/error.hpp"
#include "io/file.hpp"
#include "record/id_format.hpp"
#include "json/write.hpp"

namespace otm::packet {

namespace fs = std::filesystem;

bool BuildResult::clean() const {
  for (const auto &p : packets)
    if (!p.leaks.empty()) return false;
  return true;
}

std::vector<json::Value> select(const std::vector<json::Value> &segments, const Filters &f) {
  std::vector<json::Value> out;
  std::set<std::string> wanted(f.seg_ids.begin(), f.seg_ids.end());
  for (const auto &s : segments) {
    if (f.type && s.string_or("record_type") != *f.type) continue;
    if (!wanted.empty() && !wanted.count(s.string_or("seg_id"))) continue;
    if (f.limit && out.size() >= f.limit) break;
    out.push_back(s);
  }
  return out;
}

Context make_context(const json::Value &meta, const git::Repository &repo, const VersionCommits &commits,
                     const trace::TraceFiles &files, const scrub::Denylist *denylist, const config::Config &config) {
  Context ctx;
  ctx.meta = meta;
  ctx.repo = &repo;
  ctx.commits = &commits;
  ctx.files = &files;
  ctx.denylist = denylist;
  ctx.schema = config.data().string_or("store_schema", "clean-1.3");
  ctx.causal = record::CausalRule::from_json(config.data().get("causal_sentences"), config.source_name());
  ctx.directions = DirectionRule::from_json(config.data().get("directions_taken_up"), config.source_name());
  return ctx;
}

BuildResult build_all(const std::vector<json::Value> &all_segments, const Filters &filters,
                      const std::vector<json::Value> &version_rows, const Context &ctx, const fs::path &dir,
                      const cli::ProgressFn &progress) {
  BuildResult r;
  std::map<std::string, const json::Value *> rows;
  for (const auto &row : version_rows) rows.emplace(row.string_or("version"), &row);
  auto taken_up = directions_taken_up(version_rows, ctx.directions);
  std::set<std::string> current;
  for (const auto &s : all_segments) {
    std::string id = s.string_or("seg_id");
    // seg_id names files: nothing that could leave the packets directory.
    if (!record::is_valid_id(id) || id.find("..") != std::string::npos)
      throw Error(ErrorKind::UnreadableInput, "segment with an unusable seg_id '" + id + "'; re-run otm-partition");
    current.insert(id);
  }
  fs::create_directories(dir);
  std::set<std::string> written;
  // All packets or none: a segment that cannot be built, or a disk that
  // fills half-way, leaves the previous set for the next stage, never part
  // of a new one (the error names the segment).
  io::WriteBatch batch;
  for (const auto &seg : select(all_segments, filters)) {
    auto it = rows.find(seg.string_or("version"));
    auto up = taken_up.find(seg.string_or("version"));
    Built b;
    try {
      b = build_packet(seg, it == rows.end() ? json::null_value() : *it->second, ctx,
                       up == taken_up.end() ? std::vector<json::Value>{} : up->second);
      batch.add(dir / (b.seg_id + ".json"), json::to_pretty(b.packet));
      if (!b.code_name.empty()) batch.add(dir / b.code_name, b.code);
    } catch (const std::exception &e) {
      throw io::IoError("segment " + seg.string_or("seg_id") + " (version " + seg.string_or("version") +
                        "): " + e.what() + "; no packet was written");
    }
    written.insert(b.seg_id + ".json");
    if (!b.code_name.empty()) written.insert(b.code_name);
    if (progress) progress(b.seg_id);
    r.packets.push_back(std::move(b));
  }
  batch.commit();
  std::set<std::string> rebuilt;
  for (const auto &b : r.packets) rebuilt.insert(b.seg_id);
  for (const auto &path : io::list_dir(dir)) {
    std::string name = path.filename().string(), ext = path.extension().string();
    if (ext != ".json" && ext != ".diff" && ext != ".py") continue;
    std::string stem = path.stem().string();
    bool stale = !current.count(stem) || (rebuilt.count(stem) && !written.count(name));
    if (!stale) continue;
    fs::remove(path);
    r.removed.push_back(name);
  }
  return r;
}

Built build_one(const json::Value &seg, const std::vector<json::Value> &version_rows, const Context &ctx) {
  const std::string version = seg.string_or("version");
  const json::Value *row = &json::null_value();
  for (const auto &r : version_rows)
    if (r.string_or("version") == version) {
      row = &r; // the first, as build_all's lookup
      break;
    }
  auto taken_up = directions_taken_up(version_rows, ctx.directions);
  auto up = taken_up.find(version);
  return build_packet(seg, *row, ctx, up == taken_up.end() ? std::vector<json::Value>{} : up->second);
}

json::Value summary_line(const Built &b, const fs::path &dir) {
  json::Value l = json::Value::object();
  l.set("seg_id", b.seg_id);
  l.set("record_type", b.packet.get("record_type"));
  l.set("id", b.packet.get("target").get("id"));
  l.set("packet", (dir / (b.seg_id + ".json")).string());
  l.set("code_file", b.code_name.empty() ? json::Value() : json::Value((dir / b.code_name).string()));
  l.set("evidence_chars", b.packet.get("evidence_chars"));
  l.set("code_bytes", b.packet.get("code_bytes"));
  l.set("leaks", b.leaks.size());
  return l;
}

std::string preflight_report(const BuildResult &r) {
  std::size_t siblings = 0, dirty = 0;
  for (const auto &p : r.packets) {
    siblings += !p.code_name.empty();
    dirty += !p.leaks.empty();
  }
  std::string out = std::to_string(r.packets.size()) + " packets, " + std::to_string(siblings) + " code files";
  if (!r.removed.empty()) out += ", " + std::to_string(r.removed.size()) + " stale files removed";
  out += "\n";
  if (!dirty) return out + "anonymisation pre-flight: clean\n";
  out += "anonymisation pre-flight: " + std::to_string(dirty) + " packet(s) leak into the agent-facing layer\n";
  std::size_t shown = 0;
  for (const auto &p : r.packets) {
    if (p.leaks.empty() || shown++ >= 8) continue;
    out += "  " + p.seg_id + ":";
    for (std::size_t i = 0; i < p.leaks.size() && i < 4; ++i)
      out += (i ? "," : "") + std::string(" [") + p.leaks[i].label + "] " + p.leaks[i].token;
    if (p.leaks.size() > 4) out += ", ... (" + std::to_string(p.leaks.size()) + " in all)";
    out += "\n";
  }
  return out;
}

} // namespace otm::packet
