#include "trace/trace_location.hpp"

#include <cctype>

#include "error/error.hpp"
#include "git/repository.hpp"
#include "io/file.hpp"
#include "text/regex.hpp"
#include "text/sha256.hpp"
#include "text/utf8.hpp"
#include "trace/git_dir_policy.hpp"

namespace otm::trace {

namespace fs = std::filesystem;
using config::Setting;

std::string trace_slug(std::string_view base_name) {
  static const text::Regex campaign("^kernel_opt_([0-9]+)_(.+)");
  static const text::Regex other("[^\\w.-]+");
  std::string s;
  if (auto m = campaign.match(base_name)) {
    s = std::string((*m)[1]) + "-" + std::string((*m)[2]);
  } else {
    s = std::string(text::strip_chars(other.replace(base_name, "-"), "-_."));
  }
  // A slug names directories and make targets: ASCII only.
  std::string ascii;
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x80 || !(std::isalnum(u) || c == '.' || c == '-' || c == '_')) {
      if (ascii.empty() || ascii.back() != '-') ascii += '-';
    } else {
      ascii += c == '_' ? '-' : c;
    }
  }
  ascii = std::string(text::strip_chars(ascii, "-."));
  // Unique by construction: the slugging is not injective (`a_b`, `a-b` and
  // `a b` all give `a-b`), so a slug is kept plain only for the one name it
  // spells back to — the campaign form `kernel_opt_<n>_<words_joined_by_underscores>`
  // for `<n>-<words-joined-by-dashes>`, else the slug with '-' as '_'. Every
  // other name gets `_` and 8 hex digits of its SHA-256; a plain slug never
  // holds '_', so the two kinds never meet (docs/differences.md).
  static const text::Regex campaign_slug("^[0-9]+-.");
  std::string spelled_back = ascii;
  for (char &c : spelled_back)
    if (c == '-') c = '_';
  if (campaign_slug.search(ascii)) spelled_back = "kernel_opt_" + spelled_back;
  if (!ascii.empty() && spelled_back == base_name) return ascii;
  std::string tag = text::sha256_hex(base_name).substr(0, 8);
  return (ascii.empty() ? std::string("trace") : ascii) + "_" + tag;
}

std::optional<std::string> configured_trace_slug(const config::Settings &settings) {
  auto t = settings.get(Setting::Trace);
  if (!t) return std::nullopt;
  return trace_slug(workspace::resolve_dir(io::expand_user(*t)).filename().string());
}

std::string trace_label(const config::Settings &settings, const fs::path &trace_dir) {
  // The label is copied into records: valid UTF-8 like all trace text.
  if (auto label = settings.get(Setting::TraceLabel)) return *label;
  if (trace_dir.empty()) return "";
  return text::replace_invalid_utf8(workspace::resolve_dir(trace_dir).filename().string());
}

TraceLocation locate_trace(const config::Settings &settings, const config::Config &config) {
  TraceLocation loc;
  loc.settings = settings;
  auto name = settings.get(Setting::TraceName);
  if (name) {
    loc.registry = config.registry_entry(*name);
    if (!loc.registry) {
      std::string known;
      for (const auto &k : config.registry_names()) known += (known.empty() ? "" : ", ") + k;
      throw Error(ErrorKind::Usage,
                  "RTM_TRACE_NAME / --trace-name '" + *name +
                      "' is not in the trace registry (known: " + (known.empty() ? std::string("none") : known) +
                      "); register it in a configuration override (docs/configuration.md)");
    }
  }
  fs::path trace;
  if (auto t = settings.get(Setting::Trace)) {
    trace = io::expand_user(*t);
  } else if (loc.registry) {
    fs::path root = io::expand_user(settings.get(Setting::TraceRoot).value_or("."));
    trace = root / loc.registry->path;
  } else {
    throw Error(ErrorKind::Usage,
                "no trace configured: set RTM_TRACE (or --trace DIR), or RTM_TRACE_NAME (--trace-name) "
                "with RTM_TRACE_ROOT (--trace-root)");
  }
  loc.trace = workspace::resolve_dir(trace);
  const std::string shown = loc.trace.string();
  if (!io::is_directory(loc.trace)) throw Error(ErrorKind::UnreadableInput, shown + ": trace is not a directory");
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(loc.trace / ".git", ec)))
    throw Error(ErrorKind::UnreadableInput,
                shown + ": not a git repository (no .git); a trace's verdicts live in its commit subjects");
  check_git_dir(loc.trace, settings);
  try {
    if (!git::Repository::open(loc.trace).head())
      throw Error(ErrorKind::UnreadableInput,
                  shown + ": the trace has no commits; commit its versions (subjects 'v<N>: ...') first");
  } catch (const git::GitError &e) {
    throw Error(ErrorKind::UnreadableInput, std::string(e.what()));
  }

  loc.slug = trace_slug(loc.trace.filename().string());
  loc.label = trace_label(settings, loc.trace);
  auto ws = settings.get(Setting::Workspace);
  loc.workspace.root = ws ? workspace::resolve_dir(*ws) : workspace::default_workspace(loc.slug);
  loc.store = workspace::staging_store(settings);
  return loc;
}

} // namespace otm::trace
