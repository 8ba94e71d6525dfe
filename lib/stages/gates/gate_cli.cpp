#include "gates/gate_cli.hpp"

#include <algorithm>
#include <iterator>

#include "error/error.hpp"
#include "gates/denylist.hpp"
#include "gates/gates.hpp"
#include "io/file.hpp"
#include "record/format_tags.hpp"
#include "schema/builtin_schemas.hpp"
#include "trace/git_dir_policy.hpp"
#include "trace/trace_location.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"

namespace otm::gates {

using config::Setting;

void add_context_options(cli::Options &opts) {
  opts.value("schema", "FILE",
             std::string("store schema to validate against (default: the live store's own with --live, else "
                         "the built-in ") +
                 record::kStoreSchemaTag + ")");
  opts.value("profile", "FILE", "opt-trace profile (default: the built-in opt-trace-1.0)");
  config::Settings::add_options(opts, {Setting::Store, Setting::Workspace, Setting::Trace, Setting::TraceLabel,
                                       Setting::Live, Setting::Denylist, Setting::ConfigFile});
}

Context build_context(const cli::Options &opts, const config::Settings &settings, const config::Config &config,
                      const std::vector<std::string> &inputs, bool stream_store,
                      const std::vector<const GateInfo *> &only) {
  // A single store gate (or the nine) loads what its gates read, not all a
  // trace gate might (issue 11: the index parse and the schema compile
  // were a quarter of a single gate's CPU).
  bool store_only = !only.empty() &&
                    std::all_of(only.begin(), only.end(), [](const GateInfo *g) { return g->kind == GateKind::Store; });
  auto needed = [&](bool GateInfo::*reads) {
    return !store_only || std::any_of(only.begin(), only.end(), [&](const GateInfo *g) { return g->*reads; });
  };
  Context ctx;
  std::vector<std::string> in = inputs;
  if (in.empty()) {
    auto store = workspace::configured_store(settings);
    if (!store)
      throw Error(ErrorKind::Usage, "no records given: pass a store directory, record files, or - for JSONL on stdin "
                                    "(or set --store / RTM_STORE)");
    in.push_back(store->string());
  }
  const config::Limits limits = config.limits();
  ctx.limits = limits;
  const io::InputBounds bounds = limits.input_bounds();
  std::vector<std::filesystem::path> files;
  for (const auto &arg : in) {
    if (arg == "-") {
      auto more = records_from_jsonl(io::read_stdin(bounds), "<stdin>", limits);
      ctx.records.insert(ctx.records.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    } else if (io::is_directory(arg)) {
      if (!io::is_directory(workspace::records_dir(arg)))
        throw Error(ErrorKind::Usage,
                    arg + ": not a store (no records/ directory); pass the directory that holds records/");
      if (ctx.store_root) throw Error(ErrorKind::Usage, "only one store directory per run");
      ctx.store_root = std::filesystem::absolute(arg).lexically_normal();
      if (stream_store && in.size() == 1) {
        ctx.store_records_streamed = true;
      } else {
        auto more = records_from_store(*ctx.store_root, limits);
        ctx.records.insert(ctx.records.end(), std::make_move_iterator(more.begin()),
                           std::make_move_iterator(more.end()));
      }
      try {
        if (needed(&GateInfo::reads_index)) ctx.index = load_gate_index(*ctx.store_root, limits);
      } catch (const json::ParseError &) {
        ctx.index_unreadable = true;
      }
    } else {
      files.emplace_back(arg);
    }
  }
  auto more = records_from_files(files, limits);
  ctx.records.insert(ctx.records.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));

  ctx.id_products = target_products(config);
  std::optional<std::filesystem::path> schema_file;
  if (auto f = opts.get("schema")) schema_file = *f;
  if (auto live = workspace::live_root(settings)) {
    load_live(ctx, *live);
    if (!schema_file) schema_file = schema::live_store_schema(*live);
  }
  if (schema_file || needed(&GateInfo::reads_schema)) ctx.store_schema = schema::store_schema(schema_file);
  std::optional<std::filesystem::path> profile_file;
  if (auto f = opts.get("profile")) profile_file = *f;
  // No store gate reads the profile: the one pass (stream_store) compiles it
  // only when one is named, so a bad --profile still fails as before.
  if (!(stream_store || store_only) || profile_file) ctx.profile = schema::profile_schema(profile_file);
  if (auto deny = settings.get(Setting::Denylist)) ctx.denylist = load_denylist(*deny);
  if (auto ws = settings.get(Setting::Workspace)) {
    if (!io::is_directory(*ws)) throw io::IoError(*ws + ": workspace directory does not exist");
    ctx.workspace = std::filesystem::path(*ws);
    ctx.packets = load_packets(*ctx.workspace);
    auto profiles = workspace::Workspace{*ctx.workspace}.profiles_file();
    if (io::is_regular_file(profiles)) {
      ctx.usable_captures = load_usable_captures(profiles);
      ctx.have_captures = true;
    }
  }
  if (auto trace = settings.get(Setting::Trace)) {
    ctx.trace_repo = io::expand_user(*trace);
    trace::check_git_dir(*ctx.trace_repo, settings);
  }
  ctx.trace_label = trace::trace_label(settings, ctx.trace_repo.value_or(std::filesystem::path()));
  return ctx;
}

} // namespace otm::gates
