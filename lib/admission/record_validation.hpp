// What a record must pass to enter the live store (spec wiki-gate.md §2):
// the JSON Schema, the established-fact rule and the four record-level store
// gates (anonymization, raw-isolation, self-contained, no-cross-reference).
// The schema and store gates are owned by lib/gates and lib/schema; the
// admission gate receives them as a RecordCheck so that it runs exactly the
// code the gate executables run (one implementation, no copy). The
// established-fact rule is record::established_fact_problems, the same one
// the store's established-fact gate uses (one NON_MECHANISM list).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "json/value.hpp"

namespace otm::admission {

// Problems of one record, empty when it passes.
using RecordCheck = std::function<std::vector<std::string>(const json::Value &record)>;

// Every problem, in the spec's order: established fact, then whether the
// record's type, scope and id make a safe store path (record_relpath), then
// the store gates and schema supplied by `store_checks`. A record that is not a JSON
// object is one problem and nothing else runs.
std::vector<std::string> validate_for_admission(const json::Value &record, const RecordCheck &store_checks);

// The store checks the executables use: the schema and the four record-level
// store gates of lib/gates. Until lib/gates provides them this checks what
// the reference checks without a JSON-Schema library: `schema` is
// "clean-1.3" (see docs/admission.md, "Validation").
RecordCheck default_store_checks();

} // namespace otm::admission
