#include "gates/report.hpp"

#include "text/markup.hpp"
#include "json/write.hpp"

namespace otm::gates {

using text::xml_escape;

namespace {

std::string pad(std::string s, std::size_t n) {
  if (s.size() < n) s.append(n - s.size(), ' ');
  return s;
}

std::string status_of(const GateResult &r) {
  if (r.passed()) return "PASS";
  return "FAIL (" + std::to_string(r.findings.size()) + ")";
}

std::string describe(const Finding &f) {
  std::string s = f.file.empty() ? "" : f.file + ": ";
  s += f.message;
  if (!f.token.empty()) s += " [" + f.token + "]";
  return s;
}

} // namespace

std::size_t ValidationReport::failed_groups() const {
  bool store_failed = false, trace_failed = false;
  for (const auto &run : runs)
    if (!run.result.passed()) (run.gate->kind == GateKind::Store ? store_failed : trace_failed) = true;
  return std::size_t(store_failed) + std::size_t(trace_failed);
}

std::string format_text(const ValidationReport &r, bool verbose) {
  std::string out =
      "store=" + r.store + "  records=" + std::to_string(r.records) + "  packets=" + std::to_string(r.packets) + "\n\n";
  for (auto kind : {GateKind::Store, GateKind::Trace}) {
    if (kind == GateKind::Store && r.store_gates_skipped) {
      out += "== store gates: skipped (--skip-store-gates)\n\n";
      continue;
    }
    if (kind == GateKind::Trace && r.trace_gates_skipped) {
      out += "== trace gates: not run (--store-gates)\n\n";
      continue;
    }
    out += kind == GateKind::Store ? "== store gates\n" : "== trace gates\n";
    for (const auto &run : r.runs) {
      if (run.gate->kind != kind) continue;
      out += "  " + pad(run.gate->name, 18) + " " + pad(status_of(run.result), 12) + " " + run.result.note + "\n";
      std::size_t shown = 0;
      for (const auto &f : run.result.findings) {
        if (!verbose && shown == 6) {
          out += "      ... " + std::to_string(run.result.findings.size() - 6) + " more (--verbose shows all)\n";
          break;
        }
        out += "      - " + describe(f) + "\n";
        ++shown;
      }
    }
    out += "\n";
  }
  out += verdict_text(verdict_of(r));
  out += r.passed() ? "\n" : " (" + std::to_string(r.failed_groups()) + " groups)\n";
  return out;
}

Verdict verdict_of(const ValidationReport &r) { return r.passed() ? Verdict::Pass : Verdict::Fail; }

std::string verdict_text(Verdict v) {
  switch (v) {
  case Verdict::Pass: return "ALL GATES PASS";
  case Verdict::Fail: return "GATES FAILED";
  case Verdict::NothingToValidate: break;
  }
  return "NOTHING TO VALIDATE";
}

std::optional<Verdict> read_verdict(std::string_view line) {
  for (auto v : {Verdict::Pass, Verdict::Fail, Verdict::NothingToValidate})
    if (line.starts_with(verdict_text(v))) return v;
  return std::nullopt;
}

std::string format_jsonl(const ValidationReport &r) {
  std::string out;
  for (const auto &run : r.runs)
    for (const auto &f : run.result.findings) out += json::to_line(to_json(f)) + "\n";
  return out;
}

std::string format_sarif(const ValidationReport &r, const std::string &tool_version) {
  json::Value rules = json::Value::array();
  for (const auto &g : all_gates()) {
    json::Value rule = json::Value::object();
    rule.set("id", g.name);
    rule.set("name", g.name);
    json::Value text = json::Value::object();
    text.set("text", g.summary);
    rule.set("shortDescription", text);
    json::Value props = json::Value::object();
    props.set("group", g.kind == GateKind::Store ? "store" : "trace");
    rule.set("properties", props);
    rules.push_back(rule);
  }
  json::Value driver = json::Value::object();
  driver.set("name", "otm-validate");
  driver.set("version", tool_version);
  driver.set("rules", rules);
  json::Value tool = json::Value::object();
  tool.set("driver", driver);
  json::Value results = json::Value::array();
  for (const auto &run : r.runs)
    for (const auto &f : run.result.findings) {
      json::Value res = json::Value::object();
      res.set("ruleId", f.gate);
      res.set("level", "error");
      json::Value msg = json::Value::object();
      msg.set("text",
              (f.record.empty() ? "" : f.record + ": ") + f.message + (f.token.empty() ? "" : " [" + f.token + "]"));
      res.set("message", msg);
      if (!f.file.empty()) {
        json::Value artifact = json::Value::object();
        artifact.set("uri", f.file);
        json::Value physical = json::Value::object();
        physical.set("artifactLocation", artifact);
        json::Value location = json::Value::object();
        location.set("physicalLocation", physical);
        json::Value locations = json::Value::array();
        locations.push_back(location);
        res.set("locations", locations);
      }
      results.push_back(res);
    }
  json::Value run = json::Value::object();
  run.set("tool", tool);
  run.set("results", results);
  json::Value runs = json::Value::array();
  runs.push_back(run);
  json::Value doc = json::Value::object();
  doc.set("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
  doc.set("version", "2.1.0");
  doc.set("runs", runs);
  return json::to_pretty(doc);
}

std::string format_junit(const ValidationReport &r) {
  std::size_t failures = 0;
  for (const auto &run : r.runs) failures += run.result.passed() ? 0 : 1;
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites name=\"otm-validate\" tests=\"" + std::to_string(r.runs.size()) + "\" failures=\"" +
         std::to_string(failures) + "\">\n";
  out += "  <testsuite name=\"" + xml_escape(r.store) + "\" tests=\"" + std::to_string(r.runs.size()) +
         "\" failures=\"" + std::to_string(failures) + "\" errors=\"0\">\n";
  for (const auto &run : r.runs) {
    std::string cls = run.gate->kind == GateKind::Store ? "otm.store" : "otm.trace";
    out += "    <testcase classname=\"" + cls + "\" name=\"" + xml_escape(run.gate->name) + "\"";
    if (run.result.passed()) {
      out += "/>\n";
      continue;
    }
    out += ">\n      <failure message=\"" + std::to_string(run.result.findings.size()) + " finding(s)\" type=\"" +
           (run.result.crashed ? "crash" : "gate") + "\">";
    for (const auto &f : run.result.findings) out += xml_escape(describe(f)) + "\n";
    out += "</failure>\n    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

} // namespace otm::gates
