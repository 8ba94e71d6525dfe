// In-process entry points for the stages that check one record at a time.
//
// The admission gate (otm-wiki-gate) calls validate_record_for_admission:
// wiki-gate.md §2 — established fact, then the store's record-level gates
// (anonymization, raw-isolation, self-contained, no-cross-reference), then
// every JSON Schema error against the store schema. The drafter calls
// check_one_record with the record, its packet and the trace context.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gates/context.hpp"
#include "gates/finding.hpp"
#include "schema/json_schema.hpp"
#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::gates {

struct AdmissionOptions {
  std::shared_ptr<const text::Regex> denylist; // private terms, or null
  std::vector<std::string> id_products;        // target_products(config); empty = built-in config
};

// Messages in the order above, each "<gate>: <message>[ (<token>)]"; empty
// when the record may be admitted. Never throws on record content.
std::vector<std::string> validate_record_for_admission(const json::Value &record, const schema::Schema &schema,
                                                       const AdmissionOptions &options = {});

// A context holding one record (as if read from `file`; empty for none) and,
// optionally, its packet. Fill in the trace fields (trace_repo, trace_label,
// usable_captures/have_captures, live ids, profile) before running gates.
Context context_for_record(json::Value record, const std::filesystem::path &file,
                           std::optional<PacketEntry> packet = std::nullopt);

// Runs the named gates (all seventeen when `names` is empty) and returns every
// finding, a crash included as a finding.
std::vector<Finding> run_gates(const Context &ctx, const std::vector<std::string> &names = {});

} // namespace otm::gates
