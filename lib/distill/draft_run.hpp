// otm-draft over a batch of packets: draft each, stage the records, keep
// the refusal ledger, and report one JSONL line per packet.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "workspace/layout.hpp"
#include "json/value.hpp"

namespace otm::distill {

struct DraftRunResult {
  std::vector<json::Value> lines; // per packet: {"seg_id", "written", "thin"} or a refusal line
  std::size_t written = 0, refused = 0;
};

// Drafts every packet in order; writes records into `store` and updates
// the refusal ledger of `slug` (refusal lines carry "by": "otm-draft").
DraftRunResult draft_into_store(const std::vector<std::filesystem::path> &packets, const workspace::StagingStore &store,
                                const std::string &slug);

} // namespace otm::distill
