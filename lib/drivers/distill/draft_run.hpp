// otm-draft over a batch of packets: draft each, run every per-record gate
// on the draft in process, stage what passes, keep the refusal ledger, and
// report one JSONL line per packet. One bad record never sinks the batch:
// a draft a gate refuses becomes a refusal naming the gate and the field.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "cmdline/progress.hpp"
#include "distill/drafter.hpp"
#include "distill/record_gates.hpp"
#include "scrub/denylist.hpp"
#include "workspace/layout.hpp"
#include "json/value.hpp"

namespace otm::distill {

struct DraftRunResult {
  std::vector<json::Value> lines; // per packet: {"seg_id", "written", "thin"} or a refusal line
  std::size_t written = 0, refused = 0;
};

// Drafts every packet of one run in order, the run as a whole deciding what
// no single packet can: a mechanism that more than
// DraftRules::max_mechanism_share of the run's strategies would carry (and
// more than one) is excluded, and those strategies drafted again without it.
std::vector<Draft> draft_run(const std::vector<Packet> &packets, const DraftRules &rules = DraftRules::defaults());

// Drafts every packet in order (each read through `denylist`, when given:
// redact_packet), gates each draft with `gates`, writes the passing records
// into `store` and updates the refusal ledger of `slug` (refusal lines
// carry "by": "otm-draft", and "gate" when a gate refused).
DraftRunResult draft_into_store(const std::vector<std::filesystem::path> &packets, const workspace::StagingStore &store,
                                const std::string &slug, const RecordGates &gates,
                                const DraftRules &rules = DraftRules::defaults(), const cli::ProgressFn &progress = {},
                                const scrub::Denylist *denylist = nullptr);

} // namespace otm::distill
