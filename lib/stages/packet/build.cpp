#include "packet/build.hpp"

#include <atomic>
#include <functional>
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
#include "json/writer.hpp"

namespace otm::packet {

namespace fs = std::filesystem;

bool BuildResult::clean() const {
  for (const auto &p : packets)
    if (!p.leaks.empty()) return false;
  return true;
}

namespace {

// The selected segments, in order, without copying them.
std::vector<const workspace::Segment *> chosen(const std::vector<workspace::Segment> &segments, const Filters &f) {
  std::vector<const workspace::Segment *> out;
  std::set<std::string> wanted(f.seg_ids.begin(), f.seg_ids.end());
  for (const auto &s : segments) {
    if (f.type && s.record_type != *f.type) continue;
    if (!wanted.empty() && !wanted.count(s.seg_id)) continue;
    if (f.limit && out.size() >= f.limit) break;
    out.push_back(&s);
  }
  return out;
}

// Below this many packets a second thread (and repository handle) costs
// more than it saves.
constexpr std::size_t kParallelFrom = 64;
// Segments a thread takes at a time (build_all).
constexpr std::size_t kChunk = 32;

} // namespace

std::vector<workspace::Segment> select(const std::vector<workspace::Segment> &segments, const Filters &f) {
  std::vector<workspace::Segment> out;
  for (const auto *s : chosen(segments, f)) out.push_back(*s);
  return out;
}

std::size_t count_selected(const std::vector<workspace::Segment> &segments, const Filters &f) {
  return chosen(segments, f).size();
}

Context make_context(const json::Value &meta_file, const git::Repository &repo, const VersionCommits &commits,
                     const trace::TraceFiles &files, const scrub::Denylist *denylist, const config::Config &config) {
  Context ctx;
  ctx.meta = workspace::TraceMeta::from_json(meta_file.get("meta"));
  ctx.repo = &repo;
  ctx.commits = &commits;
  ctx.files = &files;
  ctx.denylist = denylist;
  ctx.schema = config.data().string_or("store_schema", record::kStoreSchemaTag);
  ctx.causal = record::CausalRule::from_json(config.data().get("causal_sentences"), config.source_name());
  ctx.directions = DirectionRule::from_json(config.data().get("directions_taken_up"), config.source_name());
  ctx.noise = NoiseRule::from_json(config.data().get("noise"), config.source_name());
  ctx.noise.measurement_change_commits = config.ladder().measurement_change_commits;
  ctx.meta.re_measurements =
      workspace::TraceMeta::re_measurements_in(meta_file.get("memory_variants"), ctx.noise.re_measurement_suffix.get());
  ctx.sm_count = config.sm_count(ctx.meta.product);
  ctx.shared_memory_per_block = config.shared_memory_per_block(ctx.meta.product);
  ctx.axis_aliases = config.axis_aliases();
  ctx.barriers = diff::BarrierRemovalRule::from_json(config.data().get("barrier_removal"), config.source_name());
  return ctx;
}

namespace {

// The kernel file's blob at a commit of the trace, for the run's noise band.
RunFacts::BlobOf kernel_blob_of(const Context &ctx) {
  if (!ctx.repo) return {};
  return [repo = ctx.repo, file = ctx.meta.kernel_file](const std::string &sha) -> std::optional<std::string> {
    try {
      return repo->blob_id(sha, file);
    } catch (const std::exception &) {
      return std::nullopt; // a commit the trace no longer holds: no measurement of known code
    }
  };
}

} // namespace

namespace {

// The ids of every segment of the run, each checked to be a file name that
// stays inside the packets directory.
std::set<std::string> segment_ids(const std::vector<workspace::Segment> &segments) {
  std::set<std::string> out;
  for (const auto &s : segments) {
    const std::string &id = s.seg_id;
    // seg_id names files: nothing that could leave the packets directory.
    if (!record::is_valid_id(id) || id.find("..") != std::string::npos)
      throw Error(ErrorKind::UnreadableInput, "segment with an unusable seg_id '" + id + "'; re-run otm-partition");
    out.insert(id);
  }
  return out;
}

// Runs `build(ctx, i)` for i in [0, count): on two threads (each with its
// own repository handle and scrub memo) from kParallelFrom packets on. The
// threads take runs of kChunk neighbouring indices in turn, not every other
// one: neighbouring segments diff neighbouring versions, so a handle's blob
// cache then serves most of a diff's two blobs (striding made both handles
// inflate nearly every blob), and neither thread waits long for the other
// at the end (halves did, by as much as the halves' costs differed).
// A failure stops the run naming the first failing index (a thread stops
// at its failure, the other at the end of its run, so every run before the
// failing one is finished).
void run_in_chunks(std::size_t count, Context ctx, const std::function<void(const Context &, std::size_t)> &build) {
  struct Failure {
    std::size_t at = static_cast<std::size_t>(-1);
    std::exception_ptr error;
  };
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  auto work = [&](const Context &c, Failure &failed) {
    for (std::size_t begin; !stop && (begin = next.fetch_add(kChunk)) < count;)
      for (std::size_t i = begin; i < std::min(begin + kChunk, count); ++i) try {
          build(c, i);
        } catch (...) {
          failed = {i, std::current_exception()};
          stop = true;
          return;
        }
  };
  Failure mine, theirs;
  // Each thread's scrubbers share what they found for texts that repeat.
  scrub::ScrubMemo memo(ctx.denylist), other_memo(ctx.denylist);
  ctx.scrub_memo = &memo;
  if (count >= kParallelFrom && ctx.repo) {
    auto repo = ctx.repo->reopen();
    Context second = ctx;
    second.repo = &repo;
    second.scrub_memo = &other_memo;
    std::thread helper([&] { work(second, theirs); });
    work(ctx, mine);
    helper.join();
  } else {
    work(ctx, mine);
  }
  if (mine.error || theirs.error) std::rethrow_exception(mine.at < theirs.at ? mine.error : theirs.error);
}

// The packet files of the directory that no segment of the run will have
// again, or that this run rebuilt: a packet's files are <seg_id> and one
// of its endings. Files that are not a packet's are kept.
bool stale(const std::string &name, const std::set<std::string> &current, const std::set<std::string> &rebuilt,
           const std::string &kernel_ext) {
  const std::string after = std::string(kCodeAfterMark) + kernel_ext, after_py = std::string(kCodeAfterMark) + ".py";
  for (std::string_view end :
       {std::string_view(after), std::string_view(after_py), std::string_view(kStepDiffSuffix),
        std::string_view(".json"), std::string_view(".diff"), std::string_view(kernel_ext), std::string_view(".py")})
    if (name.size() > end.size() && name.ends_with(end)) {
      std::string stem = name.substr(0, name.size() - end.size());
      return !current.count(stem) || rebuilt.count(stem);
    }
  return false;
}

} // namespace

BuildResult build_all(const std::vector<workspace::Segment> &all_segments, const Filters &filters,
                      const std::vector<workspace::VersionRow> &version_rows, const Context &ctx, const fs::path &dir,
                      const cli::ProgressFn &progress) {
  BuildResult r;
  std::unordered_map<std::string, const workspace::VersionRow *> rows;
  for (const auto &row : version_rows) rows.emplace(row.version, &row);
  auto taken_up = directions_taken_up(version_rows, ctx.directions);
  const std::set<std::string> current = segment_ids(all_segments);
  auto segs = chosen(all_segments, filters);
  DiffCache diffs;
  const RunFacts facts(version_rows, kernel_blob_of(ctx), ctx.noise);
  Context run_ctx = ctx;
  if (!run_ctx.diffs) run_ctx.diffs = &diffs;
  if (!run_ctx.facts) run_ctx.facts = &facts;
  static const std::vector<json::Value> none;
  static const workspace::VersionRow no_row; // a version without a row: every field its default
  // All packets or none: the new set is written into a fresh sibling of
  // the packets directory and published by one rename, so a disk that fills
  // half-way leaves the previous set for the next stage, never part of a new
  // one. A file that already holds its bytes is linked, not written (no new
  // inode), and a rerun that changes nothing writes nothing.
  io::DirectoryPublish publish(dir);
  std::vector<std::optional<Written>> built(segs.size());
  // Each packet is printed and written by the thread that built it, and
  // only what the summary and the report need is kept, in segment order.
  run_in_chunks(segs.size(), run_ctx, [&](const Context &c, std::size_t i) {
    const auto &seg = *segs[i];
    auto it = rows.find(seg.version);
    auto up = taken_up.find(seg.version);
    Built b;
    try {
      b = build_packet(seg, it == rows.end() ? no_row : *it->second, c, up == taken_up.end() ? none : up->second);
    } catch (const std::exception &e) {
      throw io::IoError("segment " + seg.seg_id + " (version " + seg.version + "): " + e.what() +
                        "; no packet was written");
    }
    try {
      publish.add(b.seg_id + ".json", b.text);
      if (!b.code_name.empty()) publish.add(b.code_name, b.code);
      for (const auto &[name, content] : b.siblings) publish.add(name, content);
    } catch (const io::IoError &e) {
      throw io::IoError(std::string(e.what()) + "; no packet was written");
    }
    std::string line = summary_line(b, dir);
    built[i] = Written{std::move(b.seg_id), std::move(b.code_name), std::move(b.leaks), std::move(line)};
    if (progress) progress(built[i]->seg_id);
  });
  try {
    std::set<std::string> rebuilt;
    for (auto &b : built) {
      rebuilt.insert(b->seg_id);
      r.packets.push_back(std::move(*b));
    }
    for (const auto &name : publish.current()) {
      if (publish.given(name)) continue;
      if (stale(name, current, rebuilt, workspace::kernel_extension(ctx.meta.kernel_file)))
        r.removed.push_back(name);
      else
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

Built build_one(const workspace::Segment &seg, const std::vector<workspace::VersionRow> &version_rows,
                const Context &ctx) {
  const std::string &version = seg.version;
  static const workspace::VersionRow no_row;
  const workspace::VersionRow *row = &no_row;
  for (const auto &r : version_rows)
    if (r.version == version) {
      row = &r; // the first, as build_all's lookup
      break;
    }
  auto taken_up = directions_taken_up(version_rows, ctx.directions);
  auto up = taken_up.find(version);
  const RunFacts facts(version_rows, kernel_blob_of(ctx), ctx.noise);
  Context with_facts = ctx;
  if (!with_facts.facts) with_facts.facts = &facts;
  return build_packet(seg, *row, with_facts, up == taken_up.end() ? std::vector<json::Value>{} : up->second);
}

std::string summary_line(const Built &b, const fs::path &dir) {
  std::string out;
  json::Writer w(out, json::Writer::Layout::Line);
  w.begin_object();
  w.key("seg_id").value(b.seg_id);
  w.key("record_type").value(b.record_type);
  w.key("id").value(b.id);
  w.key("packet").value((dir / (b.seg_id + ".json")).string());
  w.key("code_file");
  b.code_name.empty() ? w.null() : w.value((dir / b.code_name).string());
  w.key("evidence_chars").value(b.evidence_chars);
  w.key("code_bytes").value(b.code_bytes);
  w.key("leaks").value(b.leaks.size());
  w.end_object();
  return out;
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
