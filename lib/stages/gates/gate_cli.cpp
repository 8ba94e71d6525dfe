#include "gates/gate_cli.hpp"

#include "error/error.hpp"
#include "gates/denylist.hpp"
#include "gates/gates.hpp"
#include "io/file.hpp"
#include "schema/builtin_schemas.hpp"
#include "store/store_reader.hpp"
#include "json/parse.hpp"

namespace otm::gates {

using config::Setting;

void add_context_options(cli::Options &opts) {
  opts.value("schema", "FILE",
             "store schema to validate against (default: the live store's own with --live, else "
             "the built-in clean-1.3)");
  opts.value("profile", "FILE", "opt-trace profile (default: the built-in opt-trace-1.0)");
  config::Settings::add_options(opts, {Setting::Store, Setting::Workspace, Setting::Trace, Setting::TraceLabel,
                                       Setting::Live, Setting::Denylist, Setting::ConfigFile});
}

namespace {

std::shared_ptr<const schema::Schema> load_schema(const std::optional<std::string> &file, const char *builtin,
                                                  const std::string &name) {
  try {
    if (file) return std::make_shared<const schema::Schema>(schema::Schema::from_file(*file));
    return std::make_shared<const schema::Schema>(json::parse(builtin, name), name);
  } catch (const schema::SchemaError &e) {
    throw Error(ErrorKind::UnreadableInput, e.what());
  }
}

} // namespace

Context build_context(const cli::Options &opts, const config::Settings &settings,
                      const std::vector<std::string> &inputs, bool stream_store) {
  Context ctx;
  std::vector<std::string> in = inputs;
  if (in.empty()) {
    auto store = settings.get(Setting::Store);
    if (!store)
      throw Error(ErrorKind::Usage, "no records given: pass a store directory, record files, or - for JSONL on stdin "
                                    "(or set --store / RTM_STORE)");
    in.push_back(*store);
  }
  auto config = config::Config::load(settings.get(Setting::ConfigFile));
  const config::Limits limits = config.limits();
  ctx.limits = limits;
  io::InputBounds bounds{limits.max_input_bytes, limits.max_line_bytes};
  std::vector<std::filesystem::path> files;
  for (const auto &arg : in) {
    if (arg == "-") {
      auto more = records_from_jsonl(io::read_stdin(bounds), "<stdin>", limits);
      ctx.records.insert(ctx.records.end(), more.begin(), more.end());
    } else if (io::is_directory(arg)) {
      if (!io::is_directory(std::filesystem::path(arg) / "records"))
        throw Error(ErrorKind::Usage,
                    arg + ": not a store (no records/ directory); pass the directory that holds records/");
      if (ctx.store_root) throw Error(ErrorKind::Usage, "only one store directory per run");
      ctx.store_root = std::filesystem::absolute(arg).lexically_normal();
      if (stream_store && in.size() == 1) {
        ctx.store_records_streamed = true;
      } else {
        auto more = records_from_store(*ctx.store_root, limits);
        ctx.records.insert(ctx.records.end(), more.begin(), more.end());
      }
      try {
        ctx.index = store::load_index(*ctx.store_root, limits);
      } catch (const json::ParseError &) {
        ctx.index_unreadable = true;
      }
    } else {
      files.emplace_back(arg);
    }
  }
  auto more = records_from_files(files, limits);
  ctx.records.insert(ctx.records.end(), more.begin(), more.end());

  ctx.id_products = target_products(config);
  auto schema_file = opts.get("schema");
  if (auto live = settings.get(Setting::Live)) {
    load_live(ctx, *live);
    if (!schema_file)
      if (auto own = schema::live_store_schema(*live)) schema_file = own->string();
  }
  ctx.store_schema = load_schema(schema_file, schema::builtin_store_schema_text(), "built-in clean-1.3 schema");
  // No store gate reads the profile: the one pass (stream_store) compiles it
  // only when one is named, so a bad --profile still fails as before.
  if (!stream_store || opts.get("profile"))
    ctx.profile = load_schema(opts.get("profile"), schema::builtin_profile_text(), "built-in opt-trace-1.0 profile");
  if (auto deny = settings.get(Setting::Denylist)) ctx.denylist = load_denylist(*deny);
  if (auto ws = settings.get(Setting::Workspace)) {
    if (!io::is_directory(*ws)) throw io::IoError(*ws + ": workspace directory does not exist");
    ctx.workspace = std::filesystem::path(*ws);
    ctx.packets = load_packets(*ctx.workspace);
    auto profiles = *ctx.workspace / "work" / "profiles.jsonl";
    if (io::is_regular_file(profiles)) {
      ctx.usable_captures = load_usable_captures(profiles);
      ctx.have_captures = true;
    }
  }
  if (auto trace = settings.get(Setting::Trace)) {
    ctx.trace_repo = io::expand_user(*trace);
    ctx.trace_label = ctx.trace_repo->lexically_normal().filename().string();
    if (ctx.trace_label.empty()) ctx.trace_label = ctx.trace_repo->lexically_normal().parent_path().filename().string();
  }
  if (auto label = settings.get(Setting::TraceLabel)) ctx.trace_label = *label;
  return ctx;
}

} // namespace otm::gates
