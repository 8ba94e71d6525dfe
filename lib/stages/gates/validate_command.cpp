#include "gates/validate_command.hpp"

#include "cmdline/build_info.hpp"
#include "error/error.hpp"
#include "gates/injection.hpp"
#include "gates/report.hpp"
#include "gates/store_gates.hpp"

namespace otm::gates {

namespace {

ValidateOutcome finish(const ValidationReport &report, const ValidateOptions &opts) {
  ValidateOutcome out;
  if (opts.format == "text")
    out.report = format_text(report, opts.verbose);
  else if (opts.format == "jsonl")
    out.report = format_jsonl(report);
  else if (opts.format == "sarif")
    out.report = format_sarif(report, cli::project_version());
  else
    out.report = format_junit(report);
  std::size_t failed = 0;
  for (const auto &run : report.runs) failed += !run.result.passed();
  out.summary =
      verdict_text(verdict_of(report)) + (report.passed() ? " (" + std::to_string(report.runs.size()) + " gates)"
                                                          : " (" + std::to_string(failed) + " gate(s) in " +
                                                                std::to_string(report.failed_groups()) + " group(s))");
  out.exit_code = report.passed() ? 0 : 1;
  return out;
}

} // namespace

ValidateOutcome run_validate(const Context &ctx, const ValidateOptions &opts) {
  ValidateOutcome out;
  if (opts.format != "text" && opts.format != "jsonl" && opts.format != "sarif" && opts.format != "junit")
    throw Error(ErrorKind::Usage, "--format must be text, jsonl, sarif or junit, not '" + opts.format + "'");
  if (opts.only_store_gates && (opts.skip_store_gates || opts.injection_tests))
    throw Error(ErrorKind::Usage, "--store-gates runs the store gates only; it does not combine with "
                                  "--skip-store-gates or --injection-tests");
  auto no_records = [&] {
    out.summary = "no records in " + opts.store_label + ": nothing to validate";
    out.exit_code = opts.allow_empty ? 0 : 1;
    if (opts.allow_empty && opts.format == "text")
      out.report = verdict_text(Verdict::NothingToValidate) + ": " + out.summary + "\n";
    return out;
  };
  ValidationReport report;
  report.store = opts.store_label;
  report.packets = ctx.packets.size();
  if (opts.only_store_gates) {
    auto run = run_passes(store_gates(), ctx,
                          ctx.store_records_streamed ? ctx.store_root : std::optional<std::filesystem::path>());
    if (run.records == 0) return no_records();
    report.records = run.records;
    report.runs = std::move(run.runs);
    report.trace_gates_skipped = true;
    return finish(report, opts);
  }
  if (ctx.records.empty()) return no_records();
  if (opts.injection_tests) {
    auto cases = run_injection_tests(ctx);
    out.report = format_injection(cases, opts.store_label);
    std::size_t fired = 0;
    for (const auto &c : cases) fired += c.status == InjectionStatus::Fired;
    out.summary = std::to_string(fired) + " of " + std::to_string(cases.size()) + " injection cases fired";
    out.exit_code = all_fired(cases) ? 0 : 1;
    return out;
  }
  report.records = ctx.records.size();
  report.store_gates_skipped = opts.skip_store_gates;
  for (const auto &g : all_gates()) {
    if (opts.skip_store_gates && g.kind == GateKind::Store) continue;
    report.runs.push_back({&g, run_gate(g, ctx)});
    if (opts.progress) opts.progress(g.name);
  }
  return finish(report, opts);
}

} // namespace otm::gates
