// Everything a gate may look at, loaded once: the records under test, the
// staging index, the schemas, and for the trace gates the workspace
// (packets, usable captures), the trace and the live store. A field that was
// not provided stays empty / unset, and a gate that needs it fails with
// "cannot run" instead of passing (docs/differences.md, "Schema and gates").
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "gates/finding.hpp"
#include "schema/json_schema.hpp"
#include "store/lazy_index.hpp"
#include "text/regex.hpp"
#include "workspace/packet_provenance.hpp"
#include "json/value.hpp"

namespace otm::gates {

namespace fs = std::filesystem;

struct RecordEntry {
  std::string file;        // relative to the store root ("records/..."), the path given, or "<stdin>:N"
  fs::path path;           // the file on disk; empty for records read from stdin
  json::Value record;      // null when unparseable
  std::string parse_error; // non-empty when the file did not parse
  std::string id() const;  // record id or ""
};

struct PacketEntry {
  std::string seg_id;
  std::string file; // packets/<seg_id>.json
  json::Value packet;
  std::string code_text;  // the sibling file it names (workspace::packet_code)
  std::string code_after; // the kernel after the diff's change (agent_facing.code_after_file), "" when none
  std::string step_diff;  // the claimed step's own change (agent_facing.step_diff_file), "" when none
  // Its `provenance`, typed; nullopt when a field has another type (such
  // a packet names nothing it came from).
  std::optional<workspace::PacketProvenance> provenance() const;
};

struct Context {
  std::vector<RecordEntry> records;
  std::optional<fs::path> store_root; // staging store directory (holds records/)
  // Set when the records of store_root were left on disk for the one-pass
  // store gates to stream (gates/store_gates.hpp); `records` then lacks them.
  bool store_records_streamed = false;
  config::Limits limits; // the reading policy's, for records read later (streamed ones)
  // records/index.json (with its journal) when present, as the index gate
  // reads it (load_gate_index): its entries' places, each parsed when its
  // record is checked.
  std::shared_ptr<const store::LazyIndex> index;
  bool index_unreadable = false; // present but broken
  std::shared_ptr<const schema::Schema> store_schema;
  std::shared_ptr<const schema::Schema> profile;
  std::shared_ptr<const text::Regex> denylist; // private substrings, null when none

  // Trace side.
  std::optional<fs::path> workspace;
  std::vector<PacketEntry> packets; // sorted by file name
  bool have_captures = false;       // work/profiles.jsonl was read
  std::set<std::string> usable_captures;
  std::string trace_label;
  std::optional<fs::path> trace_repo;
  bool have_live = false;
  std::set<std::string> live_ids;
  std::set<std::string> live_episode_keys;
  std::vector<std::string> id_products; // products / archs known to the target table (no-cross-reference)
};

// Packet lookup (gates.md §3.1): by target.id; else by (source_repo,
// version) — which must then be unique (an ambiguous pair finds nothing and
// sets `ambiguous`).
struct PacketLookup {
  const PacketEntry *packet = nullptr;
  bool ambiguous = false;
};
PacketLookup find_packet(const Context &ctx, const json::Value &record);

// Loaders. Each names the file in its errors (io::IoError / json::ParseError).
// A record that cannot be read, is not valid JSON, is not an object or is
// nested deeper than the limit is an entry with `parse_error` set: never
// dropped, so every gate can fail on it (unreadable_records).
std::vector<RecordEntry> records_from_store(const fs::path &store_root, const config::Limits &limits = {});
std::vector<RecordEntry> records_from_files(const std::vector<fs::path> &files, const config::Limits &limits = {});
std::vector<RecordEntry> records_from_jsonl(const std::string &text, const std::string &source,
                                            const config::Limits &limits = {});
// One finding of `gate` per record entry it could not check (parse_error):
// a gate fails closed on input it cannot parse, it never passes it.
std::vector<Finding> unreadable_records(const std::string &gate, const Context &ctx);
// That finding for one entry (whose parse_error is set).
Finding unreadable_finding(const std::string &gate, const RecordEntry &r);
std::vector<PacketEntry> load_packets(const fs::path &workspace);
// One packet file with its sibling .diff / .py (throws json::ParseError).
PacketEntry load_packet(const fs::path &packet_json);
// `dir` of rows of work/profiles.jsonl with ncu_usable true.
std::set<std::string> load_usable_captures(const fs::path &profiles_jsonl);
void load_live(Context &ctx, const fs::path &live_root);
// Products, keys and architectures of the configured target table, plus "any".
std::vector<std::string> target_products(const config::Config &config);

} // namespace otm::gates
