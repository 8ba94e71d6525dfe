#include "packet/build.hpp"

#include <map>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>

#include "error/error.hpp"
#include "io/directory_publish.hpp"
#include "io/file.hpp"
#include "record/format_tags.hpp"
#include "record/id_format.hpp"
#include "json/write.hpp"

namespace otm::packet {

namespace fs = std::filesystem;

bool BuildResult::clean() const {
  for (const auto &p : packets)
    if (!p.leaks.empty()) return false;
  return true;
}

namespace {

// The selected segments, in order, without copying them.
std::vector<const json::Value *> chosen(const std::vector<json::Value> &segments, const Filters &f) {
  std::vector<const json::Value *> out;
  std::set<std::string> wanted(f.seg_ids.begin(), f.seg_ids.end());
  for (const auto &s : segments) {
    if (f.type && s.string_or("record_type") != *f.type) continue;
    if (!wanted.empty() && !wanted.count(s.string_or("seg_id"))) continue;
    if (f.limit && out.size() >= f.limit) break;
    out.push_back(&s);
  }
  return out;
}

// Below this many packets a second thread (and repository handle) costs
// more than it saves.
constexpr std::size_t kParallelFrom = 64;

} // namespace

std::vector<json::Value> select(const std::vector<json::Value> &segments, const Filters &f) {
  std::vector<json::Value> out;
  for (const auto *s : chosen(segments, f)) out.push_back(*s);
  return out;
}

std::size_t count_selected(const std::vector<json::Value> &segments, const Filters &f) {
  return chosen(segments, f).size();
}

Context make_context(const json::Value &meta, const git::Repository &repo, const VersionCommits &commits,
                     const trace::TraceFiles &files, const scrub::Denylist *denylist, const config::Config &config) {
  Context ctx;
  ctx.meta = meta;
  ctx.repo = &repo;
  ctx.commits = &commits;
  ctx.files = &files;
  ctx.denylist = denylist;
  ctx.schema = config.data().string_or("store_schema", record::kStoreSchemaTag);
  ctx.causal = record::CausalRule::from_json(config.data().get("causal_sentences"), config.source_name());
  ctx.directions = DirectionRule::from_json(config.data().get("directions_taken_up"), config.source_name());
  return ctx;
}

BuildResult build_all(const std::vector<json::Value> &all_segments, const Filters &filters,
                      const std::vector<json::Value> &version_rows, const Context &ctx, const fs::path &dir,
                      const cli::ProgressFn &progress) {
  BuildResult r;
  std::unordered_map<std::string, const json::Value *> rows;
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
  auto segs = chosen(all_segments, filters);
  DiffCache diffs;
  Context run_ctx = ctx;
  if (!run_ctx.diffs) run_ctx.diffs = &diffs;
  static const std::vector<json::Value> none;
  std::vector<std::optional<Built>> built(segs.size());
  // Packets are independent: built on two threads (each with its own
  // repository handle), kept in segment order. Each thread takes one half
  // of the segments, not every other one: neighbouring segments diff
  // neighbouring versions, so a handle's blob cache then serves most of a
  // diff's two blobs (striding made both handles inflate nearly every blob).
  // A segment that cannot be built stops the stage naming it.
  auto work = [&](const Context &c, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const auto &seg = *segs[i];
      auto it = rows.find(seg.string_or("version"));
      auto up = taken_up.find(seg.string_or("version"));
      try {
        built[i] = build_packet(seg, it == rows.end() ? json::null_value() : *it->second, c,
                                up == taken_up.end() ? none : up->second);
      } catch (const std::exception &e) {
        throw io::IoError("segment " + seg.string_or("seg_id") + " (version " + seg.string_or("version") +
                          "): " + e.what() + "; no packet was written");
      }
      if (progress) progress(built[i]->seg_id);
    }
  };
  if (segs.size() >= kParallelFrom && ctx.repo) {
    auto repo = ctx.repo->reopen();
    Context second = run_ctx;
    second.repo = &repo;
    std::exception_ptr failure;
    std::thread helper([&] {
      try {
        work(second, segs.size() / 2, segs.size());
      } catch (...) {
        failure = std::current_exception();
      }
    });
    try {
      work(run_ctx, 0, segs.size() / 2);
    } catch (...) {
      helper.join();
      throw;
    }
    helper.join();
    if (failure) std::rethrow_exception(failure);
  } else {
    work(run_ctx, 0, segs.size());
  }
  // All packets or none: the new set is written into a fresh sibling of
  // the packets directory and published by one rename, so a disk that fills
  // half-way leaves the previous set for the next stage, never part of a new
  // one. A file that already holds its bytes is linked, not written (no new
  // inode), and a rerun that changes nothing writes nothing.
  io::DirectoryPublish publish(dir);
  std::set<std::string> written;
  try {
    for (auto &b : built) {
      publish.add(b->seg_id + ".json", json::to_pretty(b->packet));
      written.insert(b->seg_id + ".json");
      if (!b->code_name.empty()) {
        publish.add(b->code_name, b->code);
        written.insert(b->code_name);
      }
      r.packets.push_back(std::move(*b));
    }
    std::set<std::string> rebuilt;
    for (const auto &b : r.packets) rebuilt.insert(b.seg_id);
    for (const auto &name : publish.current()) {
      if (written.count(name)) continue;
      fs::path path(name);
      std::string ext = path.extension().string(), stem = path.stem().string();
      bool ours = ext == ".json" || ext == ".diff" || ext == ".py";
      if (ours && (!current.count(stem) || rebuilt.count(stem))) {
        r.removed.push_back(name); // stale
        continue;
      }
      publish.keep(name);
    }
    publish.commit();
  } catch (const io::IoError &e) {
    throw io::IoError(std::string(e.what()) + "; no packet was written");
  }
  // One flush for the whole stage (docs/durability.md).
  io::sync_file_system(dir);
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
