// gates.md §2.7; a missing layer is a finding, never a crash.
#include "gates/gates.hpp"

#include "store/record_view.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::gates {

namespace {

const text::Regex &absolute_latency() {
  static const text::Regex r(R"((?i)[\d.]+\s*(?:us|\x{00b5}s|\x{03bc}s|ms)\b)");
  return r;
}
const text::Regex &time_unit() {
  static const text::Regex r(R"((?i)^\s*(?:us|\x{00b5}s|\x{03bc}s|ms|s|sec|ns|cycles?)\s*$)");
  return r;
}

bool blank(const json::Value &v) {
  const auto *s = v.as_string();
  return !s || text::strip(*s).empty();
}

void check_metric(const std::string &where, const json::Value &m,
                  const std::function<void(std::string, std::string)> &fail) {
  const auto &unit = m.get("unit");
  std::string unit_text = unit.is_string() ? *unit.as_string() : (unit.is_null() ? "" : unit.python_str());
  if (m.contains("unit") && time_unit().fullmatch(unit_text))
    fail(where + " has an absolute time unit; gains are relative", unit_text);
  if (m.string_or("metric") == "latency" && (!m.get("before").is_null() || !m.get("after").is_null()))
    fail(where + " stores absolute latencies (before/after); they belong in evidence.raw.effect", "");
  for (const char *k : {"note", "measured_over"})
    if (const auto *s = m.get(k).as_string())
      if (auto hit = absolute_latency().search(*s))
        fail(where + "." + k + " states an absolute latency", std::string((*hit)[0]));
  if (!m.get("source").truthy()) fail(where + " has no source", "");
  if (m.get("delta_pct").is_null() && m.get("before").is_null() && m.get("after").is_null() && !m.get("note").truthy())
    fail(where + " carries no number and no note", "");
}

} // namespace

std::unique_ptr<RecordPass> self_contained_pass(const Context &) {
  return make_pass([](const RecordEntry &r, GateResult &out) {
    if (!r.parse_error.empty()) return;
    auto fail = [&](std::string msg, std::string token) {
      out.findings.push_back(finding(Gate::SelfContained, r, std::move(msg), std::move(token)));
    };
    const auto &rec = r.record;
    // As staged: a field of another type reads as absent, the schema gate's
    // to refuse.
    const auto view = store::RecordView::shown(rec);
    const auto &payload = rec.get("payload");
    const auto &problem = payload.get("problem");
    std::string type = view.type.value_or("");
    bool builds = type == "strategy" || type == "reference-kernel";
    if (blank(payload.get("goal"))) fail("payload.goal is blank", "");
    if (blank(problem.get("statement"))) fail("payload.problem.statement is blank", "");
    if (blank(problem.get("target"))) fail("payload.problem.target is blank", "");
    if (view.level == "operator" && builds && !problem.get("operator").truthy())
      fail("an operator-level " + type + " names no payload.problem.operator", "");
    const auto &gain = rec.get("worth").get("gain");
    if (!gain.get("basis").truthy()) fail("worth.gain.basis is missing", "");
    if (const auto *o = gain.as_object())
      for (const auto &[k, v] : *o)
        if (const auto *s = v.as_string())
          if (auto hit = absolute_latency().search(*s))
            fail("worth.gain." + k + " states an absolute latency", std::string((*hit)[0]));
    std::vector<double> headline;
    for (const char *list : {"metrics", "regressions"}) {
      const auto *a = gain.get(list).as_array();
      if (!a) continue;
      for (std::size_t i = 0; i < a->size(); ++i) {
        const auto &m = (*a)[i];
        check_metric("worth.gain." + std::string(list) + "[" + std::to_string(i) + "]", m, fail);
        if (std::string(list) == "metrics" && m.get("metric") == gain.get("primary") && m.get("delta_pct").is_number())
          headline.push_back(*m.get("delta_pct").as_number());
      }
    }
    if (view.gain_basis == "measured" && type == "strategy") {
      bool any = false;
      if (const auto *a = gain.get("metrics").as_array())
        for (const auto &m : *a) any = any || m.get("delta_pct").is_number();
      if (!any) fail("a measured strategy has no metric with a delta_pct", "");
    }
    if (const auto *pct = gain.find("pct")) {
      if (!(pct->is_null() && headline.empty())) {
        bool found = false;
        for (double h : headline) found = found || (pct->is_number() && *pct->as_number() == h);
        if (!found) fail("worth.gain.pct is not the delta_pct of a primary-metric entry", pct->python_str());
      }
    } else if (!headline.empty()) {
      fail("worth.gain.pct is missing although a primary-metric delta exists", "");
    }
    if (builds) {
      if (blank(payload.get("trace").get("builds_on").get("approach")))
        fail("payload.trace.builds_on.approach is blank", "");
      const auto &impl = payload.get("implementation");
      std::string format = view.format.value_or("");
      if (format != "none" && blank(impl.get("snippet")))
        fail("implementation has format '" + format + "' but no snippet", "");
      std::string snippet(text::lstrip(view.snippet.value_or("")));
      if (!snippet.empty() && (snippet[0] == '-' || snippet[0] == '+') && format.rfind("unified-diff", 0) != 0)
        fail("snippet is a diff but implementation.format is not unified-diff", format);
    }
  });
}

GateResult gate_self_contained(const Context &ctx) { return over_records(self_contained_pass(ctx), ctx); }

} // namespace otm::gates
