// What a record must pass to enter the live store (spec wiki-gate.md §2):
// the established-fact rule, the four record-level store gates
// (anonymization, raw-isolation, self-contained, no-cross-reference) and the
// JSON Schema — all run by gates::validate_record_for_admission, the same
// code the gate executables and otm-validate run (one implementation, one
// NON_MECHANISM list) — plus the check that the record's type, scope and id
// make a safe store path (record::record_relpath).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "json/value.hpp"

namespace otm::admission {

// Problems of one record, empty when it passes.
using RecordCheck = std::function<std::vector<std::string>(const json::Value &record)>;

// Every problem: those of `checks` (gate messages "<gate>: <message>"), then
// a "layout: ..." problem when the record cannot be placed safely. A record
// that is not a JSON object is one problem and nothing else runs.
std::vector<std::string> validate_for_admission(const json::Value &record, const RecordCheck &checks);

// The checks the executables use. The schema is `schema_file` if given,
// else the live store's own (<live>/schema/kernel/schema.json or
// <live>/../schema/kernel/schema.json), else the built-in clean-1.3; the
// denylist is `denylist_file` (ATREX_WIKI_DENYLIST) if given; products for
// the record-id pattern come from the configuration. Throws an UnreadableInput Error
// for a schema otm cannot evaluate, io::IoError for an unreadable file.
RecordCheck default_store_checks(const std::filesystem::path &live_root = {},
                                 const std::optional<std::string> &schema_file = std::nullopt,
                                 const std::optional<std::string> &denylist_file = std::nullopt,
                                 const config::Config &config = config::Config::defaults());

} // namespace otm::admission
