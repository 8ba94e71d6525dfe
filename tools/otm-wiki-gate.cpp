// otm-wiki-gate: the admission gate, the only writer of the live store.
#include <iostream>

#include "admission/gate_command_line.hpp"
#include "cmdline/options.hpp"
#include "otm_tools.hpp"
#include "tool/exit_codes.hpp"
#include "tool/tool_setup.hpp"

using namespace otm;

static const char *kHelp = R"(usage: otm-wiki-gate match RECORD [--live DIR]
       otm-wiki-gate commit confirm|conflict RECORD --target ID [--live DIR] [--remote NAME]
       otm-wiki-gate commit insert|auto RECORD... [--live DIR] [--remote NAME]
       otm-wiki-gate compact [--live DIR] [--remote NAME]

The admission gate: the only writer of the live store (the directory holding
records/ and records/index.json, given by --live or RTM_LIVE).

Reads RECORD (a file, or - for stdin), validates it with lib/stages/gates (schema:
--schema, else the live store's own, else the built-in clean-1.3; established
fact; anonymization with the --denylist; raw-isolation; self-contained;
no-cross-reference) and checks that its type/scope/id make a safe store
path, then:

  match     prints one JSON line: the incoming summary, every live record in
            the same scope (dsl by the two-way `any` rule) and the ids whose
            episode_key equals the incoming one. Writes nothing.
  commit insert    writes the record at records/<type>/<vendor>/<arch>/<dsl>/
            <operator_family>/<id>.json and its index entry; refuses an id
            that exists in the index or as a file at that path.
  commit confirm --target ID   counts the record as a confirmation of ID,
            once per (ID, incoming id) pair, and re-ranks ID.
  commit conflict --target ID  queues a direction contradiction in
            <live>/conflicts/ for a human (never overwriting another).
  commit auto      decides by a fixed policy: no same-scope candidate or no
            exact episode_key match -> insert; a match pointing the same way
            -> confirm; the opposite way -> conflict. Prints the decision.
  commit insert|auto RECORD...   a batch: several record files, a staging
            store (the directory holding records/: each of its records), or
            - (stdin: one record, or a JSONL stream, one record a line).
            Every record is decided in order under one lock (a later one
            sees the earlier ones), each all or nothing; records/index.json
            is rewritten once; in a git-backed store the batch is one git
            commit and one push. A record that cannot be read, fails
            validation or is refused is reported (stderr, and a
            "refused: SOURCE" line) and the others go on. Each output line
            is prefixed with its record's source; the last line counts
            what was inserted, confirmed, queued and refused.
  compact   folds the index journal (records/index.journal) into
            records/index.json and removes it. Every commit does this
            before it releases the lock (and within a batch whenever the
            journal reaches limits.max_journal_entries lines), so `compact`
            is needed only after a writer was killed.

Writes: records/ changes are atomic as a whole (described first, the index
entry appended last to records/index.journal, under an exclusive lock on
the store), so parallel runs never lose an entry and a killed run never
leaves the index disagreeing with records/; before the lock is released the
journal is folded into records/index.json, which every other tool reads
(only the changed entries' bytes and `count` change). After an admitting commit the source file gets a
sidecar RECORD.merged ledger; the record itself is not modified.

Git-backed store: when the live store is a git work tree (its root, or a
directory whose records/index.json it tracks), each commit that changes the
store is also one git commit of exactly the files it wrote, "otm: <action>
<id>", by --author / OTM_LIVE_AUTHOR (default live_git.author of the
configuration). With --remote NAME (or OTM_LIVE_REMOTE) the commit is pushed
to that remote's branch of the same name; when another writer pushed first,
the store is reset to the remote's head and the action applied again (the
auto decision and the id check made afresh), with backoff, up to
--push-attempts / OTM_LIVE_PUSH_ATTEMPTS (live_git.push_attempts) attempts;
then it fails with the store back at the remote's head. Local and file://
remotes must be bare; ssh remotes use ssh-agent; https with a password is
not supported. See docs/scale-out.md.

Refuses to decide: whether two records are the same knowledge (match lists
candidates; the caller or the auto policy decides).

Exit: 0 match ok / action done (including an already counted confirm);
  a batch: every record admitted;
1 validation errors, insert refused, target not in the live store;
  a batch: at least one record refused (the others were admitted);
2 missing input, missing --target, bad arguments, unreadable live store;
  a git-backed store with uncommitted changes, a failed git commit, a push
  still rejected after the last attempt (nothing admitted in each case).
)";

int otm_wiki_gate_main(int argc, char **argv) {
  return tool::run_tool("otm-wiki-gate", [&] {
    cli::Options opts("otm-wiki-gate", kHelp);
    admission::add_gate_options(opts);
    if (!opts.parse(argc, argv)) return 0;
    const auto setup = tool::tool_setup(opts);
    const auto report = admission::run_gate_request(admission::gate_request(opts), setup.settings, setup.config);
    admission::print_gate_report(report, std::cout, std::cerr);
    return report.exit_code;
  });
}
