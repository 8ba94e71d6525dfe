// The review page of a staging store (issue 14): one self-contained static
// HTML file — inline CSS, inline SVG, no script, no network, no framework —
// so a reviewer sees what a run achieved at a glance. Per record: its
// fields, its verdict from every gate, its packet's diff with the lines the
// record quotes highlighted; the refused packets with their reasons; the
// ladder picture of each trace (reports/<slug>/ladder.svg, inlined).
// Deterministic: the same store, packets and gate results give the same
// bytes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "gates/context.hpp"
#include "gates/finding.hpp"
#include "gates/gates.hpp"

namespace otm::review {

struct GateOutcome {
  const gates::GateInfo *gate = nullptr;
  gates::GateResult result;
};

struct PageInputs {
  // The records, packets and trace context the gates ran on (gates::build_context).
  const gates::Context *context = nullptr;
  std::vector<GateOutcome> gates; // one per gate, in registry order
};

// Runs every gate of the registry over `ctx` (a gate lacking its input
// reports that it cannot run, as in otm-validate).
std::vector<GateOutcome> run_all_gates(const gates::Context &ctx);

// A record's verdict from one gate: "pass", "fail" (with its findings) or
// "not run" (the gate could not run: a finding naming no record).
struct Verdict {
  std::string state; // pass | fail | not-run
  std::vector<std::string> messages;
};
Verdict verdict_for(const GateOutcome &g, const gates::RecordEntry &record);

std::string review_page(const PageInputs &in);

} // namespace otm::review
