// Writing drafted records into the staging store, and the refusal ledger
// (spec distill.md §2 "file location"; README §3). Placement is derived by
// record/store_layout — the same derivation the layout gate and the
// admission gate use — and must agree with the packet's target.output_dir.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "distill/packet.hpp"
#include "io/file.hpp"
#include "workspace/layout.hpp"
#include "json/value.hpp"

namespace otm::distill {

// "" when the record is the packet's: same id as target.id and filed under
// target.output_dir; otherwise what differs (a record that renames itself
// or moves elsewhere is never written).
std::string placement_problem(const json::Value &record, const Packet &packet);

// Writes the record (pretty JSON) atomically to
// <store>/records/<type>/<vendor>/<arch>/<dsl>/<family>/<id>.json and
// returns its path relative to the store root. With `batch`, the write is
// added to it (a run's records and ledger land together or not at all).
std::filesystem::path stage_record(const workspace::StagingStore &store, const json::Value &record,
                                   io::WriteBatch *batch = nullptr);

// The refusal ledger: <store>/reports/<slug>/refusals.jsonl, one line per
// refused packet ({"seg_id", "id", "record_type", "refused", "why",
// "by"}), sorted by seg_id. Updating it replaces the lines of the packets
// just processed: a refused packet gets its new line, a packet that now
// yields a record loses its old one. Re-running a batch therefore leaves
// the same file.
std::filesystem::path refusal_ledger_path(const workspace::StagingStore &store, const std::string &slug);
struct LedgerUpdate {
  std::string seg_id;
  std::optional<json::Value> refusal; // nullopt: the packet no longer refuses
};
void update_refusal_ledger(const std::filesystem::path &ledger, const std::vector<LedgerUpdate> &updates,
                           io::WriteBatch *batch = nullptr);

// Appends JSONL lines to a log file (read, append, atomic replace).
void append_jsonl(const std::filesystem::path &log, const std::vector<json::Value> &lines);

} // namespace otm::distill
