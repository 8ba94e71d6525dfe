// otm-schema: the opt-trace-1.0 profile from the store schema and its patch list.
// See docs/tools/otm-schema.md.
#include <iostream>

#include "cmdline/options.hpp"
#include "otm_tools.hpp"
#include "schema/schema_command.hpp"
#include "tool/exit_codes.hpp"

int otm_schema_main(int argc, char **argv) {
  return otm::tool::run_tool("otm-schema", [&] {
    otm::cli::Options opts(
        "otm-schema",
        "Generates the opt-trace-1.0 profile: the store schema (clean-1.3) narrowed by a declared patch list, "
        "refusing any patch that widens it.\n\nReads the base schema and the patch list (built-in copies of "
        "schema/ unless --base / --patches), writes the profile to --profile FILE (- for stdout). It decides "
        "nothing about records except, with --validate, whether they satisfy the profile.\n\n"
        "Exit: 0 generated / up to date / all valid; 1 stale or missing profile, a patch that no longer applies "
        "or widens, an invalid record; 2 usage or unreadable input.\n\n"
        "Usage: otm-schema [--check | --show | --validate RECORD.json...] [--base F] [--patches F] [--profile F]");
    opts.value("base", "FILE", "base store schema (default: built-in clean-1.3)")
        .value("patches", "FILE", "patch list (default: built-in opt-trace-1.0 patches)")
        .value("profile", "FILE", "profile to write (generate) or compare / validate against (default: built-in)")
        .flag("check", "exit 1 when the profile is missing or stale against the base and the patch list")
        .flag("show", "print the patches with their reasons")
        .flag("validate", "validate the record files given as arguments against the profile");
    if (!opts.parse(argc, argv)) return 0;
    otm::schema::SchemaCommand cmd;
    cmd.base_file = opts.get("base");
    cmd.patches_file = opts.get("patches");
    cmd.profile_file = opts.get("profile");
    cmd.records = opts.positionals();
    using Mode = otm::schema::SchemaCommand::Mode;
    if (opts.is_set("validate")) {
      cmd.mode = Mode::Validate;
      if (cmd.records.empty()) throw otm::Error(otm::ErrorKind::Usage, "--validate needs record files");
    } else if (opts.is_set("show")) {
      cmd.mode = Mode::Show;
    } else if (opts.is_set("check")) {
      cmd.mode = Mode::Check;
    }
    if (cmd.mode != Mode::Validate && !cmd.records.empty())
      throw otm::Error(otm::ErrorKind::Usage, "unexpected arguments (record files go with --validate)");
    return otm::schema::run_schema_command(cmd, std::cout, std::cerr);
  });
}
