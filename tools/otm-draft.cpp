// otm-draft: the extractive drafter: a packet -> one staging record, or a refusal.
// The refusal names the field the packet is too thin to fill. No model
// involved; see docs/tools/otm-draft.md.
#include <iostream>

#include "cmdline/options.hpp"
#include "config/config.hpp"
#include "config/settings.hpp"
#include "distill/draft_run.hpp"
#include "distill/drafter.hpp"
#include "distill/gates_for_trace.hpp"
#include "distill/packet_list.hpp"
#include "otm_tools.hpp"
#include "record/store_layout.hpp"
#include "scrub/denylist.hpp"
#include "tool/exit_codes.hpp"
#include "tool/tool_setup.hpp"
#include "trace/trace_location.hpp"
#include "workspace/layout.hpp"
#include "json/write.hpp"

using namespace otm;

int otm_draft_main(int argc, char **argv) {
  return tool::run_tool("otm-draft", [&] {
    cli::Options opts("otm-draft",
                      "Usage: otm-draft --trace DIR --live DIR [--store DIR] [--slug SLUG] [--denylist FILE] "
                      "PACKET|DIR...\n"
                      "       otm-draft --stdout PACKET\n\n"
                      "Reads packets (<seg_id>.json and the sibling .diff/.py they name; a directory means\n"
                      "every *.json in it) and drafts one record per packet by quoting only what the packet\n"
                      "holds. Runs every per-record gate on each draft in process (all but index and relations;\n"
                      "the trace for provenance, the live store for store-overlap) and writes only the records\n"
                      "that pass, to <store>/records/<type>/<vendor>/<arch>/<dsl>/<family>/<id>.json. Prints one\n"
                      "JSONL line per packet on stdout ({\"seg_id\",\"written\",\"thin\"} or\n"
                      "{\"seg_id\",\"refused\",\"why\"[,\"gate\"]}) and keeps refusals, a gate's among them, in\n"
                      "<store>/reports/<slug>/refusals.jsonl (<slug>: the trace's, as otm-stamp slug gives it,\n"
                      "unless --slug names another).\n"
                      "Reads the private denylist (--denylist FILE / ATREX_WIKI_DENYLIST, the setting every gate\n"
                      "reads): each packet's agent_facing text is redacted through it before drafting, and the\n"
                      "anonymization gate refuses a draft that still holds a term; a configured file that\n"
                      "cannot be read is exit 2.\n"
                      "With --stdout: one packet, the ungated draft (or the refusal line) on stdout, nothing\n"
                      "written (the agent protocol: otm-distill gates what it reads).\n\n"
                      "Refuses to decide: any code, number, mechanism or condition the packet does not state;\n"
                      "worth.rank (left provisional for otm-score); which of several prose dead-ends matters.\n"
                      "Refuses (a ledger line each; docs/tools/otm-draft.md): a claimed lever no running line\n"
                      "changes; a gain of a step whose own code runs nothing; the run's template reason as a\n"
                      "mechanism; a failed lever the run kept, never tried in running code, contradicted by\n"
                      "its own correctness check, or no slower than the run's noise band. Configuration:\n"
                      "levers, boilerplate, retrieval_terms, causal_sentences, limits.\n\n"
                      "Exit: 0 done (refusals, a gate's included, are reported, not failures; with --stdout: a\n"
                      "record), 1 with --stdout: the packet was refused, 2 cannot run (bad packet, unwritable\n"
                      "store, no trace or live store).");
    config::Settings::add_options(opts,
                                  {config::Setting::Store, config::Setting::Trace, config::Setting::TraceLabel,
                                   config::Setting::Live, config::Setting::Denylist, config::Setting::ConfigFile});
    opts.value("slug", "SLUG", "reports/<SLUG>/ that holds the refusal ledger (default: the trace's slug)");
    opts.flag("stdout", "draft one packet to stdout instead of the staging store");
    if (!opts.parse(argc, argv)) return tool::kSuccess;
    const auto [settings, config] = tool::tool_setup(opts);
    // The one reader of the one setting: a configured file that cannot be
    // read stops the run before anything is drafted.
    const auto denylist = scrub::Denylist::from_setting(settings.get(config::Setting::Denylist));
    auto rules = distill::DraftRules::from_config(config);
    auto packets = distill::expand_packet_args(opts.positionals());
    if (packets.empty())
      throw Error(ErrorKind::Usage, "no packets given (pass packet files or the packets/ directory)");
    if (opts.is_set("stdout")) {
      if (packets.size() != 1) throw Error(ErrorKind::Usage, "--stdout drafts exactly one packet");
      auto p = distill::load_packet(packets.front());
      distill::redact_packet(p, denylist);
      auto d = distill::draft_record(p, rules);
      if (d.record) {
        std::cout << json::to_pretty(*d.record);
        // The thin-field report of the agent protocol (docs/distill-brief.md §9).
        if (!d.thin.empty()) {
          json::Value thin = json::Value::object();
          thin.set("seg_id", p.seg_id());
          thin.set("thin", json::Value::strings(d.thin));
          std::cerr << json::to_line(thin) << '\n';
        }
        return tool::kSuccess;
      }
      std::cout << json::to_line(distill::refusal_line(p, *d.refusal, "otm-draft")) << '\n';
      return tool::kFailure;
    }
    auto store = workspace::staging_store(settings);
    auto given = opts.get("slug");
    auto slug = given ? *given : trace::configured_trace_slug(settings).value_or("");
    if (slug.empty())
      throw Error(ErrorKind::Usage,
                  "no reports/<slug>/ for the refusal ledger: give --trace DIR (its slug) or --slug SLUG");
    if (auto why = record::unsafe_component_reason(slug); !why.empty())
      throw Error(ErrorKind::Usage, "--slug '" + slug + "' " + why);
    distill::TraceGates gates(distill::trace_gate_inputs(settings, config, store.root));
    cli::Progress progress("otm-draft", "packets", packets.size());
    auto res = distill::draft_into_store(packets, store, slug, gates, rules, progress.fn(), &denylist);
    for (const auto &line : res.lines) std::cout << json::to_line(line) << '\n';
    std::cerr << "otm-draft: " << res.written << " record(s) written, " << res.refused << " packet(s) refused (reports/"
              << slug << "/refusals.jsonl)\n";
    return tool::kSuccess;
  });
}
