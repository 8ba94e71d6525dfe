#include "packet/stage.hpp"

#include <optional>
#include <thread>

#include "error/error.hpp"
#include "git/repository.hpp"
#include "io/file.hpp"
#include "io/read_log.hpp"
#include "packet/run_record.hpp"
#include "trace/trace_files.hpp"
#include "workspace/segment.hpp"
#include "workspace/version_row.hpp"
#include "workspace/work_files.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::packet {

namespace {

// A work file's bytes; read errors worded as the JSONL parser words them.
std::string work_file(const std::filesystem::path &path) {
  try {
    return io::read_file(path);
  } catch (const std::exception &e) {
    throw json::ParseError(e.what());
  }
}

} // namespace

StageOutput run_stage(const StageInputs &in, const std::function<cli::ProgressFn(std::size_t)> &progress) {
  const auto &ws = in.workspace;
  if (in.segments != "-" && !io::is_regular_file(in.segments))
    throw Error(ErrorKind::UnreadableInput, in.segments + ": missing; run otm-partition first");
  std::string seg_text =
      in.segments == "-" ? io::read_stdin(in.config->limits().input_bounds()) : work_file(in.segments);
  if (!io::is_regular_file(ws.versions_file()))
    throw Error(ErrorKind::UnreadableInput, ws.versions_file().string() + ": missing; run otm-ingest first");
  std::string version_text = work_file(ws.versions_file());
  auto repo = git::Repository::open(in.trace);
  trace::TraceFiles files(in.trace, in.config->limits());
  auto meta = workspace::read_meta(ws.meta_file());

  // Everything given besides the trace: a change to any of it rebuilds.
  InputDigest given;
  given.add("build", in.build);
  given.add("trace", in.trace.string());
  given.add("packets", ws.packets_dir().string());
  given.add("segments", seg_text);
  given.add("versions", version_text);
  given.add("meta", json::to_line(meta));
  given.add("config", json::to_line(in.config->data()));
  std::string terms;
  if (in.denylist)
    for (const auto &t : in.denylist->terms()) (terms += t) += '\n';
  given.add("denylist", terms);
  given.add("type", in.filters.type ? "=" + *in.filters.type : "");
  std::string seg_ids;
  for (const auto &s : in.filters.seg_ids) (seg_ids += s) += '\n';
  given.add("seg", seg_ids);
  given.add("limit", std::to_string(in.filters.limit));
  const std::string inputs = given.hex();

  const auto record_file = ws.packet_run_file();
  if (auto last = read_run_record(record_file); last && still_current(*last, inputs, repo, files, ws.packets_dir()))
    return {last->out, last->report, last->clean, true};

  io::ReadLog reads;
  repo.log_reads_to(&reads);
  files.log_reads_to(&reads);
  // The commits by version (a walk of the whole history) are read on a
  // second handle while this thread parses the work files; a parse error
  // still comes first.
  std::optional<VersionCommits> commits;
  std::exception_ptr walk_failure;
  std::thread walker([&] {
    try {
      auto second = repo.reopen();
      commits.emplace(second);
    } catch (...) {
      walk_failure = std::current_exception();
    }
  });
  std::vector<workspace::Segment> segments;
  std::vector<workspace::VersionRow> versions;
  try {
    // Each segment is typed once, here: the builders read its fields, not
    // JSON members (issue 28).
    const std::string source = in.segments == "-" ? "<stdin>" : in.segments;
    segments = workspace::read_segments(json::parse_lines(seg_text, source), source);
    const std::string versions_source = ws.versions_file().string();
    versions = workspace::read_version_rows(json::parse_lines(version_text, versions_source), versions_source);
  } catch (...) {
    walker.join();
    throw;
  }
  walker.join();
  if (walk_failure) std::rethrow_exception(walk_failure);
  auto ctx = make_context(meta, repo, *commits, files, in.denylist, *in.config);
  cli::ProgressFn step = progress ? progress(count_selected(segments, in.filters)) : cli::ProgressFn{};
  auto result = build_all(segments, in.filters, versions, ctx, ws.packets_dir(), step);

  StageOutput o;
  for (const auto &p : result.packets) (o.out += p.summary) += '\n';
  o.report = preflight_report(result);
  o.clean = result.clean();
  RunRecord r{inputs, reads.entries(), packets_stamps(ws.packets_dir()), o.out, o.report, o.clean};
  write_run_record(record_file, r);
  return o;
}

} // namespace otm::packet
