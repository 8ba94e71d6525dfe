// Marking a staged record as merged without touching it (spec wiki-gate.md
// §4.5, fixed): the reference rewrites the record with `status: merged` and
// a `merged_at` key, which the schema rejects. otm writes a sidecar
// `<record file>.merged` next to it instead: a JSON ledger of every admission
// action taken with this file. The record stays schema-valid; the sidecar is
// not a *.json file, so no store reader mistakes it for a record. Its path
// and reader are store/merged_marker.hpp (the staging README reads it too).
#pragma once

#include "io/file.hpp"

#include <filesystem>

#include "admission/commit_types.hpp"
#include "store/merged_marker.hpp"
#include "json/value.hpp"

namespace otm::admission {

// Appends the outcome to the ledger (atomic rewrite; flushed unless `cls`
// says otherwise: a batch marks its sources unflushed and flushes once).
void mark_merged(const std::filesystem::path &record_file, const Outcome &outcome, const json::Value &record,
                 const Timestamp &when, io::FileClass cls = io::FileClass::Live);

} // namespace otm::admission
