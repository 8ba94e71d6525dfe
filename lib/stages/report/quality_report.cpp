#include "report/quality_report.hpp"

#include <algorithm>

namespace otm::report {

QualityReport quality_report(const gates::Context &ctx, const QualityRules &rules) {
  QualityReport out;
  out.packets_given = !ctx.packets.empty();
  std::vector<const json::Value *> readable;
  for (const auto &r : ctx.records)
    if (r.parse_error.empty() && r.record.is_object()) readable.push_back(&r.record);
  const StagedTexts others(readable);
  for (std::size_t i = 0; i < ctx.records.size(); ++i) {
    const auto &r = ctx.records[i];
    if (!r.parse_error.empty() || !r.record.is_object()) {
      ++out.unreadable;
      continue;
    }
    const auto *packet = gates::find_packet(ctx, r.record).packet;
    if (!packet) ++out.without_packet;
    auto s = record_signals(r.record, packet, others, rules);
    s.entry = i;
    s.file = r.file;
    out.records.push_back(std::move(s));
  }
  std::stable_sort(out.records.begin(), out.records.end(), [](const RecordSignals &a, const RecordSignals &b) {
    if (a.warnings() != b.warnings()) return a.warnings() > b.warnings();
    if (a.id != b.id) return a.id < b.id;
    return a.file < b.file;
  });
  return out;
}

} // namespace otm::report
