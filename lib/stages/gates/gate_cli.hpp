// What the gate executables and otm-validate share on the command line:
// where records come from (store directories, record files, or JSONL on
// stdin as "-"), the schemas, and the trace context.
#pragma once

#include <string>
#include <vector>

#include "cmdline/options.hpp"
#include "config/config.hpp"
#include "config/settings.hpp"
#include "gates/context.hpp"
#include "gates/gates.hpp"

namespace otm::gates {

// Registers --schema, --profile and the settings --store, --workspace,
// --trace, --trace-label, --live, --denylist, --config.
void add_context_options(cli::Options &opts);

// Builds the context from `inputs` (positionals; when empty, the staging
// store from --store / RTM_STORE). Throws an Error (Usage, UnreadableInput, Io) when
// an input cannot be read. With `stream_store`, a store directory that is
// the only input is not loaded (store_records_streamed): run_passes reads
// its records one at a time. With `only` (the gates that will run, all of
// them store gates), the index and the built-in store schema are loaded
// only when one of them reads it (GateInfo::reads_index / reads_schema); a
// schema named by --schema or the live store is loaded either way, so a bad
// one still fails.
Context build_context(const cli::Options &opts, const config::Settings &settings, const config::Config &config,
                      const std::vector<std::string> &inputs, bool stream_store = false,
                      const std::vector<const GateInfo *> &only = {});

} // namespace otm::gates
