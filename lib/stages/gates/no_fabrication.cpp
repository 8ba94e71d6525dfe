// gates.md §3.5. Number extraction skips digits glued to identifiers
// (`sm_90`, `fp16`: `_` and letters in the look-behind) and reads an
// exponent as part of its number (`1e-05` is one number, not 1 and 5), as
// the reference's comment intended.
#include "gates/gates.hpp"

#include <cmath>
#include <cstdio>
#include <set>

#include "gates/record_text.hpp"
#include "text/regex.hpp"
#include "json/write.hpp"

namespace otm::gates {

namespace {

std::string percent_g(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

void magnitudes(std::string_view text, std::set<std::string> &out) {
  static const text::Regex number(R"((?<![A-Za-z0-9_.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![A-Za-z_]))");
  for (const auto &m : number.find_all(text)) {
    std::string s(m[0]);
    double x = std::fabs(std::strtod(s.c_str(), nullptr));
    if (!std::isfinite(x)) continue;
    out.insert(percent_g(x));
    if (x == std::floor(x) && x < 1e18) out.insert(std::to_string(static_cast<long long>(x)));
  }
}

std::string scalar_text(const json::Value &v) {
  if (v.is_string()) return *v.as_string();
  if (v.is_number()) return v.python_str();
  return "";
}

} // namespace

GateResult gate_no_fabrication(const Context &ctx) {
  const std::string g = "no-fabrication";
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
    std::set<std::string> pool;
    magnitudes(json::to_line(lookup.packet->packet.get("agent_facing")), pool);
    magnitudes(lookup.packet->code_text, pool);
    magnitudes(json::to_line(lookup.packet->packet.get("target")), pool);
    auto audit = [&](const std::string &path, const json::Value &v, bool in_code) {
      if (in_code || v.is_bool()) return;
      std::set<std::string> mine;
      magnitudes(scalar_text(v), mine);
      for (const auto &n : mine)
        if (!pool.count(n)) out.findings.push_back(finding(g, r, path + ": number " + n + " is not in the packet", n));
    };
    walk_scalars(r.record.get("worth").get("gain"), "worth.gain", false, audit);
    walk_scalars(r.record.get("evidence").get("summary"), "evidence.summary", false, audit);
    walk_scalars(r.record.get("payload"), "payload", false, audit);
    walk_scalars(r.record.get("retrieval").get("signals").get("metrics"), "retrieval.signals.metrics", false, audit);
  }
  out.note = std::to_string(audited) + " record(s) audited against their packets";
  return out;
}

} // namespace otm::gates
