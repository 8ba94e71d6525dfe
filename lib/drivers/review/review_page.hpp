// The review page of a staging store (issue 14): one self-contained static
// HTML file — inline CSS, inline SVG, no script, no network, no framework —
// so a reviewer sees what a run achieved at a glance. Per record: its
// fields, its verdict from every gate, its quality signals (which say what
// to read first; they decide nothing), its packet's diff with the lines the
// record quotes highlighted; the refused packets with their reasons; the
// ladder picture, drawn here from the workspace's work files.
// Deterministic: the same store, packets and gate results give the same
// bytes.
//
// A staging store is untrusted (issue 27): everything the page shows of it
// is escaped text, the page embeds no staged markup (a staged
// reports/<slug>/ladder.svg is named, never inlined: the picture is drawn
// by report::ladder_svg from the rows), the store's reports are read
// beneath its root (store::read_staged_reports: a link out of the store is
// named, never followed), and a Content-Security-Policy forbids script.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gates/context.hpp"
#include "gates/finding.hpp"
#include "gates/gates.hpp"
#include "report/ladder_svg.hpp"
#include "report/record_signals.hpp"

namespace otm::review {

struct GateOutcome {
  const gates::GateInfo *gate = nullptr;
  gates::GateResult result;
};

struct PageInputs {
  // The records, packets and trace context the gates ran on (gates::build_context).
  const gates::Context *context = nullptr;
  std::vector<GateOutcome> gates; // one per gate, in registry order
  // The ladder to draw (the workspace's work/ladder.jsonl), and where it
  // came from, or why there is none.
  std::optional<report::LadderPicture> ladder;
  std::string ladder_source;
  config::Limits limits; // for reading the store's reports/
  // What the quality signals read (report/quality_report.hpp): per record a
  // signals box, and the records to read first.
  report::QualityRules quality = report::QualityRules::defaults();
};

// The ladder of the workspace `ws` (work/ladder.jsonl, the operator name
// from work/meta.json), read within `config`'s limits; nullopt with the
// reason in *why when it has none or it cannot be read.
std::optional<report::LadderPicture> workspace_ladder(const std::filesystem::path &ws, const config::Config &config,
                                                      std::string *why);

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
