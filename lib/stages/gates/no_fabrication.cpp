// gates.md §3.5. Number extraction skips digits glued to identifiers
// (`sm_90`, `fp16`: `_` and letters in the look-behind) and reads an
// exponent as part of its number (`1e-05` is one number, not 1 and 5), as
// the reference's comment intended.
#include "gates/gates.hpp"

#include <set>

#include "gates/record_numbers.hpp"
#include "gates/record_text.hpp"

namespace otm::gates {

GateResult gate_no_fabrication(const Context &ctx) {
  constexpr Gate g = Gate::NoFabrication;
  if (!ctx.workspace)
    return cannot_run(g, "no workspace given (--workspace / RTM_WORKSPACE): nothing to audit numbers against");
  if (ctx.packets.empty()) return cannot_run(g, "the workspace has no packets: nothing can audit the records' numbers");
  GateResult out;
  std::size_t audited = 0;
  for (const auto &r : ctx.records) {
    if (!r.parse_error.empty()) continue;
    auto lookup = find_packet(ctx, r.record);
    if (!lookup.packet) {
      out.findings.push_back(finding(g, r,
                                     lookup.ambiguous
                                         ? "several packets match its version: nothing can audit its numbers"
                                         : "no packet: nothing can audit its numbers"));
      continue;
    }
    ++audited;
    std::set<std::string> pool = packet_numbers(lookup.packet->packet, lookup.packet->code_text);
    auto audit = [&](const std::string &path, const json::Value &v, bool in_code) {
      if (in_code || v.is_bool()) return;
      std::set<std::string> mine;
      number_keys(audited_text(v), mine);
      for (const auto &n : mine)
        if (!pool.count(n)) out.findings.push_back(finding(g, r, path + ": number " + n + " is not in the packet", n));
    };
    for (const auto &section : audited_sections()) walk_scalars(at_path(r.record, section), section, false, audit);
  }
  out.note = std::to_string(audited) + " record(s) audited against their packets";
  return out;
}

} // namespace otm::gates
