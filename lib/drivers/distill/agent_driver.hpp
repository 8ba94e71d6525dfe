// otm-distill: drive a distilling agent packet by packet. For each packet
// the agent gets the brief, the packet and its code file; its record is
// checked against the packet's target and by the gates; on failure the
// agent runs again with the findings, up to a round limit. Only passing
// records are staged. Packets run in parallel; results are committed in
// packet order, so the outputs do not depend on scheduling.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cmdline/progress.hpp"
#include "distill/agent_process.hpp"
#include "distill/record_gates.hpp"
#include "workspace/layout.hpp"
#include "json/value.hpp"

namespace otm::distill {

struct DriverOptions {
  std::string agent_cmd;
  unsigned jobs = 1;
  unsigned max_rounds = 3;
  AgentLimits limits;
  std::string brief; // the text handed to the agent
};

// Final state of one packet. Every state but `written` leaves a refusal
// line (the agent's own, or one by otm-distill naming the gate and field
// that refused the last record, or what the agent did).
//   written      a record passed every gate (staged)
//   refused      the agent printed a refusal line
//   rejected     the last round's record still failed a gate
//   garbage      the last round's output was not one JSON object
//   timeout      the agent hit the deadline (not retried)
//   agent-failed the agent exited non-zero or died (not retried)
struct PacketOutcome {
  std::string seg_id;
  std::filesystem::path packet;
  std::string verdict;
  unsigned rounds = 0;
  std::vector<std::string> blocked_by; // gates that refused a round, first-seen order
  std::vector<std::string> thin;       // fields reported too thin
  std::vector<GateFinding> last_findings;
  std::string detail;                 // how the last round ended
  std::optional<json::Value> record;  // the passing record
  std::string relpath;                // where it is filed ("records/...")
  std::optional<json::Value> refusal; // the refusal-ledger line of every packet that yields no record
  bool failed() const { return verdict != "written" && verdict != "refused"; }
  bool agent_never_answered() const { return verdict == "timeout" || verdict == "agent-failed"; }
};

// The agent's standard input for one round (brief, packet, code, findings).
std::string agent_input(const std::string &brief, const Packet &packet, const std::vector<GateFinding> &findings,
                        unsigned round, unsigned max_rounds);

// Runs every packet (a packet that cannot be loaded is an agent-failed
// outcome naming the error). Writes nothing to the store.
std::vector<PacketOutcome> distill_packets(const std::vector<std::filesystem::path> &packets,
                                           const DriverOptions &options, const RecordGates &gates,
                                           const cli::ProgressFn &progress = {});

// Stages the passing records, updates the refusal ledger of `slug`, and
// appends one line per packet to `log`. Returns the log lines.
std::vector<json::Value> commit_outcomes(const std::vector<PacketOutcome> &outcomes,
                                         const workspace::StagingStore &store, const std::string &slug,
                                         const std::filesystem::path &log);

// <store>/reports/<slug>/distill-log.jsonl
std::filesystem::path distill_log_path(const workspace::StagingStore &store, const std::string &slug);

} // namespace otm::distill
