// The quality report of a staging store (issue 25): every staged record's
// signals (report/record_signals.hpp), its packet found the way the gates
// find it (gates::find_packet), in the order a reviewer should read them:
// the records with the most warnings first, then by id. It shows; it
// decides nothing the gates do not, and changes no record.
//
//   auto q = report::quality_report(ctx, report::QualityRules::from_config(config));
//   for (const auto &r : q.records) ...   // most-warned first
#pragma once

#include <cstddef>
#include <vector>

#include "gates/context.hpp"
#include "report/record_signals.hpp"

namespace otm::report {

struct QualityReport {
  std::vector<RecordSignals> records; // read-first order; RecordSignals::entry indexes ctx.records
  std::size_t without_packet = 0;     // records no packet was found for
  std::size_t unreadable = 0;         // record entries that did not parse (no signals; the gates fail them)
  bool packets_given = false;         // the context holds any packet
};

QualityReport quality_report(const gates::Context &ctx, const QualityRules &rules);

} // namespace otm::report
