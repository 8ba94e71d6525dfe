// gates.md §3.6, strict: git_commit must be a full 40-hex sha naming a commit
// of the trace (no revision expressions, nothing passed as an argument), and
// it must be the commit the record's packet cited.
#include "gates/gates.hpp"

#include <map>

#include "git/repository.hpp"
#include "text/regex.hpp"

namespace otm::gates {

GateResult gate_provenance(const Context &ctx) {
  constexpr Gate g = Gate::Provenance;
  if (!ctx.trace_repo) return cannot_run(g, "no trace given (--trace / RTM_TRACE): commits cannot be resolved");
  std::optional<git::Repository> repo;
  try {
    repo = git::Repository::open(*ctx.trace_repo);
  } catch (const git::GitError &e) {
    return cannot_run(g, e.what());
  }
  static const text::Regex full_sha("^[0-9a-f]{40}$");
  GateResult out;
  std::map<std::string, bool> resolved;
  std::size_t good = 0;
  for (const auto &r : ctx.records) {
    if (!r.parse_error.empty()) continue;
    const auto &raw = r.record.get("evidence").get("raw");
    const auto *source = raw.get("source_repo").as_string();
    if (!source || source->empty()) {
      out.findings.push_back(finding(g, r, "evidence.raw.source_repo is missing"));
    } else if (!ctx.trace_label.empty() && *source != ctx.trace_label) {
      out.findings.push_back(
          finding(g, r, "evidence.raw.source_repo is not this trace (" + ctx.trace_label + ")", *source));
    }
    const auto *commit = raw.get("git_commit").as_string();
    if (!commit || commit->empty()) {
      out.findings.push_back(finding(g, r, "evidence.raw.git_commit is missing"));
      continue;
    }
    if (!full_sha.fullmatch(*commit)) {
      out.findings.push_back(finding(g, r, "evidence.raw.git_commit is not a full 40-hex commit id", *commit));
      continue;
    }
    auto it = resolved.find(*commit);
    if (it == resolved.end()) it = resolved.emplace(*commit, repo->has_commit(*commit)).first;
    if (!it->second) {
      out.findings.push_back(finding(g, r, "evidence.raw.git_commit is not a commit of the trace", *commit));
      continue;
    }
    auto lookup = find_packet(ctx, r.record);
    if (lookup.packet) {
      const auto prov = lookup.packet->provenance();
      const auto *cited = prov && prov->git_commit ? &*prov->git_commit : nullptr;
      if (!cited || *cited != *commit) {
        out.findings.push_back(finding(g, r,
                                       "evidence.raw.git_commit is not the commit its packet cited (" +
                                           (cited ? *cited : std::string("none")) + ")",
                                       *commit));
        continue;
      }
    } else if (ctx.workspace) {
      out.findings.push_back(finding(g, r,
                                     lookup.ambiguous
                                         ? "several packets match its version: the cited commit cannot be confirmed"
                                         : "no packet: the cited commit cannot be confirmed"));
      continue;
    }
    ++good;
  }
  out.note = std::to_string(resolved.size()) + " commit sha(s) looked up in the trace, " + std::to_string(good) +
             " record(s) confirmed";
  return out;
}

} // namespace otm::gates
