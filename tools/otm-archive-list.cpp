// otm-archive-list: the traces of an archive, as archive mode runs them.
#include <iostream>

#include "tool/exit_codes.hpp"
#include "cmdline/options.hpp"
#include "otm_tools.hpp"
#include "trace/archive_listing.hpp"

using namespace otm;

static const char *kHelp = R"(usage: otm-archive-list [--null] [--names] TRACES_DIR

Reads the directory TRACES_DIR (its entries only; nothing inside a trace).

Writes on stdout the traces of the archive, one a line (with --null, each
ended by a NUL byte): the absolute path of each real directory directly
under TRACES_DIR that holds .git (with --names, its name), in byte order.
This is the one rule of what a trace is for `make -f Makefile.pipeline
archive` and scripts/otm-slurm-archive; both read this list and never
hand a name to a shell to interpret.

Refuses, each on stderr with its reason, that trace alone: a directory whose
name holds anything but ASCII letters, digits, '.', '_', '+' and '-', or
begins with '-' (make and the shell cannot carry it as data: it is
reported, never run); a symbolic link to a trace (not a directory of the
archive: skipped). Names beginning with '.' and directories without .git
are not traces.

Exit: 0 listed (possibly nothing, when every entry was refused or skipped);
2 TRACES_DIR is not a readable directory or holds no trace at all.
)";

int otm_archive_list_main(int argc, char **argv) {
  return tool::run_tool("otm-archive-list", [&] {
    cli::Options opts("otm-archive-list", kHelp);
    opts.flag("null", "end each entry with a NUL byte instead of a newline");
    opts.short_alias('z', "null");
    opts.flag("names", "print each trace's directory name instead of its path");
    if (!opts.parse(argc, argv)) return tool::kSuccess;
    if (opts.positionals().size() != 1) throw Error(ErrorKind::Usage, "give exactly one TRACES_DIR (see --help)");
    const auto dir = std::filesystem::absolute(opts.positionals().front()).lexically_normal();
    const auto entries = trace::list_archive(dir);
    if (entries.empty())
      throw Error(ErrorKind::UnreadableInput, "no trace under TRACES_DIR '" + dir.string() +
                                                  "' (a trace is a directory directly under it holding .git)");
    const char end = opts.is_set("null") ? '\0' : '\n';
    const bool names = opts.is_set("names");
    for (const auto &e : entries) {
      if (e.kind == trace::ArchiveEntryKind::Trace)
        std::cout << (names ? e.name : (dir / e.name).string()) << end;
      else
        std::cerr << "otm-archive-list: " << trace::archive_entry_message(e) << '\n';
    }
    return tool::kSuccess;
  });
}
