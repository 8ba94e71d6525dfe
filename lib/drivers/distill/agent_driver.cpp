#include "distill/agent_driver.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <thread>

#include "distill/refusal.hpp"
#include "distill/staging.hpp"
#include "io/file.hpp"
#include "record/store_layout.hpp"
#include "text/utf8.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::distill {

namespace {

// A scratch directory for the per-round files the agent may read instead
// of stdin; removed when the run ends.
class ScratchDir {
public:
  ScratchDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "otm-distill-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw io::IoError("cannot create a scratch directory under " + tmpl);
    path_ = tmpl;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path &path() const { return path_; }

private:
  std::filesystem::path path_;
};

std::string findings_text(const std::vector<GateFinding> &findings) {
  std::string out;
  for (const auto &f : findings) out += "- [" + f.gate + "] " + f.message + "\n";
  return out;
}

void add_unique(std::vector<std::string> &v, const std::string &s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

// Thin-field reports on the agent's stderr: JSON lines {"thin": [...]}.
void collect_thin(const std::string &err, std::vector<std::string> &thin) {
  std::size_t start = 0;
  while (start < err.size()) {
    auto nl = err.find('\n', start);
    std::string line = err.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    start = nl == std::string::npos ? err.size() : nl + 1;
    auto t = text::strip(line);
    if (t.empty() || t.front() != '{') continue;
    try {
      auto v = json::parse(t, "agent stderr");
      if (const auto *a = v.get("thin").as_array())
        for (const auto &f : *a)
          if (f.is_string()) add_unique(thin, *f.as_string());
    } catch (const json::ParseError &) {
      // Free-form diagnostics are allowed on stderr.
    }
  }
}

// The files of a distillation run every round hands the agent.
struct RunFiles {
  std::filesystem::path scratch; // per-round files
  std::filesystem::path brief;   // the brief, as a file
};

// Runs the agent once for `round`: the round's input on stdin, and the same
// as files in the environment (OTM_DISTILL_*) for an agent that would rather
// read them; the last round's findings, when there are any, in a scratch file.
AgentRun ask_agent(const Packet &packet, const DriverOptions &opt, const RunFiles &files, unsigned round,
                   const std::vector<GateFinding> &findings) {
  const std::string seg_id = packet.seg_id();
  std::string findings_file;
  if (!findings.empty()) {
    auto f = files.scratch / (seg_id + ".findings." + std::to_string(round) + ".txt");
    io::write_file_atomic(f, findings_text(findings));
    findings_file = f.string();
  }
  std::string code_path = packet.code_name.empty()
                              ? std::string()
                              : std::filesystem::absolute(packet.path.parent_path() / packet.code_name).string();
  std::vector<std::pair<std::string, std::string>> env = {
      {"OTM_DISTILL_BRIEF", files.brief.string()},
      {"OTM_DISTILL_PACKET", std::filesystem::absolute(packet.path).string()},
      {"OTM_DISTILL_CODE", code_path},
      {"OTM_DISTILL_FINDINGS", findings_file},
      {"OTM_DISTILL_ROUND", std::to_string(round)},
      {"OTM_DISTILL_SEG_ID", seg_id},
  };
  return run_agent(opt.agent_cmd, agent_input(opt.brief, packet, findings, round, opt.max_rounds), env, opt.limits);
}

// The agent's answer on stdout: one JSON object, else why it is none.
struct AgentAnswer {
  std::optional<json::Value> object;
  std::string error;
};

AgentAnswer read_answer(const std::string &out) {
  AgentAnswer a;
  try {
    auto text = text::strip(out);
    if (text.empty()) throw json::ParseError("agent output is empty");
    a.object = json::parse(text, "agent output");
    if (!a.object->is_object()) {
      a.error = "agent output is JSON but not an object";
      a.object.reset();
    }
  } catch (const json::ParseError &e) {
    a.error = e.what();
  }
  return a;
}

// An answer that is a refusal line ({"refused": FIELD, "why": ...}) ends
// the packet as refused: true, and `o` says so.
bool took_refusal(const AgentAnswer &answer, const Packet &packet, PacketOutcome &o) {
  if (!answer.object || !answer.object->get("refused").is_string()) return false;
  std::string field = *answer.object->get("refused").as_string();
  const auto *why = answer.object->get("why").as_string();
  o.refusal = refusal_line(packet, {field, why ? *why : std::string(), ""}, "agent");
  add_unique(o.thin, field);
  o.verdict = "refused";
  return true;
}

// A record judged: where it would be filed, and what stands against it (its
// placement first, then the gates; none when it passes).
struct Judgement {
  std::string relpath;
  std::vector<GateFinding> findings;
};

Judgement judge_record(const json::Value &record, const Packet &packet, const RecordGates &gates) {
  Judgement j;
  std::string placement = placement_problem(record, packet);
  if (!placement.empty())
    j.findings.push_back({"target", placement});
  else {
    try {
      j.relpath = workspace::store_relpath(record::record_relpath(record));
    } catch (const record::LayoutError &e) {
      j.findings.push_back({"target", e.what()});
    }
  }
  if (j.findings.empty()) j.findings = gates.check(record, j.relpath, packet);
  return j;
}

// Up to opt.max_rounds rounds of the agent on one packet, each after the
// first with the findings against the last answer, until it writes a
// passing record, refuses, fails or times out.
PacketOutcome run_rounds(const Packet &packet, const DriverOptions &opt, const RecordGates &gates,
                         const RunFiles &files) {
  PacketOutcome o;
  o.packet = packet.path;
  o.seg_id = packet.seg_id();
  std::vector<GateFinding> findings;
  for (unsigned round = 1; round <= opt.max_rounds; ++round) {
    o.rounds = round;
    auto run = ask_agent(packet, opt, files, round, findings);
    collect_thin(run.err, o.thin);
    o.detail = run.describe();
    if (run.timed_out) {
      o.verdict = "timeout";
      return o;
    }
    auto answer = read_answer(run.out);
    if (took_refusal(answer, packet, o)) return o;
    if (!run.ok()) {
      o.verdict = "agent-failed";
      if (!text::strip(run.err).empty()) o.detail += ": " + std::string(text::strip(run.err));
      return o;
    }
    if (!answer.object) {
      findings = {{"output", "your answer must be exactly one JSON object (a record or a refusal line): " +
                                 std::string(text::prefix_code_points(answer.error, 300))}};
      add_unique(o.blocked_by, "output");
      o.last_findings = findings;
      o.verdict = "garbage";
      continue;
    }
    auto judged = judge_record(*answer.object, packet, gates);
    findings = judged.findings;
    o.last_findings = findings;
    if (findings.empty()) {
      o.verdict = "written";
      o.refusal.reset(); // an earlier round's refusal no longer holds
      o.record = std::move(answer.object);
      o.relpath = judged.relpath;
      return o;
    }
    for (const auto &f : findings) add_unique(o.blocked_by, f.gate);
    o.verdict = "rejected";
    o.detail = std::to_string(findings.size()) + " gate finding(s) in round " + std::to_string(round);
    o.refusal = refusal_line(packet, gate_refusal(*answer.object, findings), "otm-distill");
  }
  return o;
}

// The ledger line of a packet whose agent gave no usable answer.
json::Value failure_line(const PacketOutcome &o, const Packet *packet) {
  DraftRefusal r{"record",
                 "the agent " + (o.verdict == "timeout" ? std::string("timed out") : o.verdict) +
                     (o.detail.empty() ? "" : ": " + o.detail),
                 ""};
  if (packet) return refusal_line(*packet, r, "otm-distill");
  json::Value v = json::Value::object();
  v.set("seg_id", o.seg_id);
  v.set("refused", r.field);
  v.set("why", r.why);
  v.set("by", "otm-distill");
  return v;
}

PacketOutcome distill_one(const std::filesystem::path &path, const DriverOptions &opt, const RecordGates &gates,
                          const RunFiles &files) {
  Packet packet;
  try {
    packet = load_packet(path);
  } catch (const std::exception &e) {
    PacketOutcome o;
    o.packet = path;
    o.seg_id = path.stem().string();
    o.verdict = "agent-failed";
    o.detail = std::string("packet cannot be read: ") + e.what();
    o.refusal = failure_line(o, nullptr);
    return o;
  }
  auto o = run_rounds(packet, opt, gates, files);
  if (o.verdict != "written" && !o.refusal) o.refusal = failure_line(o, &packet);
  return o;
}

} // namespace

std::string agent_input(const std::string &brief, const Packet &packet, const std::vector<GateFinding> &findings,
                        unsigned round, unsigned max_rounds) {
  std::string in = brief;
  if (!in.empty() && in.back() != '\n') in += '\n';
  in += "\n=== PACKET " + packet.path.filename().string() + " ===\n" + json::to_pretty(packet.doc);
  if (!packet.code_name.empty()) {
    in += "=== CODE " + packet.code_name + " ===\n" + packet.code;
    if (!packet.code.empty() && packet.code.back() != '\n') in += '\n';
  }
  if (!findings.empty()) {
    in += "=== GATE FINDINGS (round " + std::to_string(round) + " of " + std::to_string(max_rounds) + ") ===\n";
    in += "Your previous record was refused by these gates. Fix exactly what they name and print the whole "
          "record again, or a refusal line:\n";
    in += findings_text(findings);
  }
  in += "=== END ===\n";
  return in;
}

std::vector<PacketOutcome> distill_packets(const std::vector<std::filesystem::path> &packets,
                                           const DriverOptions &options, const RecordGates &gates,
                                           const cli::ProgressFn &progress) {
  ScratchDir scratch;
  const RunFiles files{scratch.path(), scratch.path() / "distill-brief.md"};
  io::write_file_atomic(files.brief, options.brief);
  std::vector<PacketOutcome> outcomes(packets.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < packets.size(); i = next++) {
      try {
        outcomes[i] = distill_one(packets[i], options, gates, files);
      } catch (const std::exception &e) {
        outcomes[i].packet = packets[i];
        outcomes[i].seg_id = packets[i].stem().string();
        outcomes[i].verdict = "agent-failed";
        outcomes[i].detail = e.what();
        outcomes[i].refusal = failure_line(outcomes[i], nullptr);
      }
      if (progress) progress(outcomes[i].seg_id);
    }
  };
  unsigned n = std::max(1u, std::min<unsigned>(options.jobs, static_cast<unsigned>(packets.size())));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n; ++t) pool.emplace_back(worker);
  worker();
  for (auto &t : pool) t.join();
  return outcomes;
}

std::filesystem::path distill_log_path(const workspace::StagingStore &store, const std::string &slug) {
  return store.distill_log_file(slug);
}

std::vector<json::Value> commit_outcomes(const std::vector<PacketOutcome> &outcomes,
                                         const workspace::StagingStore &store, const std::string &slug,
                                         const std::filesystem::path &log) {
  std::vector<json::Value> lines;
  std::vector<LedgerUpdate> updates;
  io::WriteBatch batch; // all of the run's records and its ledger, or none
  for (const auto &o : outcomes) {
    if (o.record) stage_record(store, *o.record, &batch);
    if (o.verdict == "written") updates.push_back({o.seg_id, std::nullopt});
    if (o.refusal) updates.push_back({o.seg_id, *o.refusal});
    json::Value line = json::Value::object();
    line.set("seg_id", o.seg_id);
    line.set("packet", o.packet.filename().string());
    line.set("verdict", o.verdict);
    line.set("rounds", static_cast<long long>(o.rounds));
    line.set("blocked_by", json::Value::strings(o.blocked_by));
    line.set("thin", json::Value::strings(o.thin));
    line.set("record", o.record ? json::Value(o.relpath) : json::Value());
    json::Value fs = json::Value::array();
    if (o.verdict != "written")
      for (const auto &f : o.last_findings) {
        json::Value fv = json::Value::object();
        fv.set("gate", f.gate);
        fv.set("message", f.message);
        fs.push_back(fv);
      }
    line.set("findings", fs);
    line.set("detail", o.detail);
    lines.push_back(line);
  }
  update_refusal_ledger(refusal_ledger_path(store, slug), updates, &batch);
  batch.commit();
  append_jsonl(log, lines);
  return lines;
}

} // namespace otm::distill
