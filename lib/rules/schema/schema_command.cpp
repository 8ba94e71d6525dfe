#include "schema/schema_command.hpp"

#include "error/error.hpp"
#include "io/file.hpp"
#include "schema/builtin_schemas.hpp"
#include "schema/json_schema.hpp"
#include "schema/profile.hpp"
#include "text/sentences.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::schema {

namespace {

json::Value read_json(const std::optional<std::string> &file, const char *builtin, const std::string &what) {
  if (!file) return json::parse(builtin, "built-in " + what);
  if (!io::is_regular_file(*file)) throw Error(ErrorKind::UnreadableInput, *file + ": " + what + " not found");
  return json::parse_file(*file);
}

} // namespace

int run_schema_command(const SchemaCommand &cmd, std::ostream &out, std::ostream &err) {
  auto patches_doc = read_json(cmd.patches_file, builtin_patch_list_text(), "patch list");
  PatchList patches;
  try {
    patches = parse_patch_list(patches_doc, cmd.patches_file.value_or("built-in patch list"));
  } catch (const ProfileError &e) {
    throw Error(ErrorKind::UnreadableInput, e.what());
  }
  if (cmd.mode == SchemaCommand::Mode::Show) {
    out << patches.profile << ": " << patches.base << " + " << patches.patches.size() << " narrowing patches\n";
    for (std::size_t i = 0; i < patches.patches.size(); ++i) {
      const auto &p = patches.patches[i];
      out << "\n[" << i << "] " << p.dotted_path() << "  (" << p.op << ")\n";
      for (const auto &s : text::sentences(p.reason)) out << "    " << s << "\n";
    }
    return 0;
  }
  if (cmd.mode == SchemaCommand::Mode::Validate) {
    json::Value profile_doc;
    if (cmd.profile_file && !io::is_regular_file(*cmd.profile_file)) {
      err << *cmd.profile_file << ": no profile; generate it with otm-schema first\n";
      return 1;
    }
    profile_doc = read_json(cmd.profile_file, builtin_profile_text(), "profile");
    Schema profile(profile_doc, cmd.profile_file.value_or("built-in profile"));
    bool all_ok = true;
    for (const auto &file : cmd.records) {
      auto record = json::parse_file(file);
      auto errors = profile.validate(record);
      if (errors.empty()) {
        out << "ok    " << file << "\n";
        continue;
      }
      all_ok = false;
      out << "FAIL  " << file << "\n";
      for (const auto &e : errors) out << "      " << e.path << ": " << e.message << "\n";
    }
    return all_ok ? 0 : 1;
  }
  auto base = read_json(cmd.base_file, builtin_store_schema_text(), "base schema");
  if (cmd.mode == SchemaCommand::Mode::Check) {
    std::optional<json::Value> committed;
    if (!cmd.profile_file) {
      committed = json::parse(builtin_profile_text(), "built-in profile");
    } else if (io::is_regular_file(*cmd.profile_file)) {
      committed = json::parse_file(*cmd.profile_file);
    }
    CheckResult r;
    try {
      r = check_profile(base, patches, committed ? &*committed : nullptr);
    } catch (const ProfileError &e) {
      err << e.what() << "\n";
      return 1;
    }
    std::string where = cmd.profile_file.value_or("built-in profile");
    if (r.freshness == Freshness::Missing) {
      err << where << ": missing; generate it with otm-schema --profile " << where << "\n";
      return 1;
    }
    if (r.freshness == Freshness::Stale) {
      err << where << ": STALE (" << r.detail << "); regenerate it with otm-schema and review the diff\n";
      return 1;
    }
    out << where << ": up to date (" << patches.profile << " = " << patches.base << " + " << patches.patches.size()
        << " patches, base " << base_fingerprint(base).substr(0, 12) << ")\n";
    return 0;
  }
  json::Value profile;
  try {
    profile = generate_profile(base, patches);
  } catch (const ProfileError &e) {
    err << e.what() << "\n";
    return 1;
  }
  if (!cmd.profile_file) throw Error(ErrorKind::Usage, "generation needs --profile FILE (or - for stdout)");
  io::write_output(*cmd.profile_file, json::to_pretty(profile));
  if (*cmd.profile_file != "-") {
    out << "wrote " << *cmd.profile_file << "\n";
    for (const auto &p : patches.patches) {
      auto s = text::sentences(p.reason);
      out << "  " << p.dotted_path() << ": " << (s.empty() ? "" : s.front()) << "\n";
    }
  }
  return 0;
}

} // namespace otm::schema
