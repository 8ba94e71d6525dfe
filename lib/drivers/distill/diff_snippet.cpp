#include "distill/diff_snippet.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "code/module_outline.hpp"
#include "code/source_lexer.hpp"
#include "levers/lever_settings.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::distill {

namespace {

std::string join_lines(const std::vector<std::string_view> &lines, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end; ++i) {
    if (i > begin) out += '\n';
    out += lines[i];
  }
  return out;
}

struct HunkScore {
  std::size_t claimed = 0, strong = 0, weak = 0, running = 0;
  auto key() const { return std::tuple(claimed, strong, weak, running); }
};

bool hunk_holds(const diff::HunkReading &h, std::string_view name) {
  for (const auto &c : h.running)
    if (!c.dead && diff::holds_name(c.code, name)) return true;
  return false;
}

bool on_claim_in(const diff::HunkReading &h, const ClaimedLine &on_claim) {
  if (!on_claim) return false;
  for (const auto &c : h.running)
    if (!c.dead && on_claim(c)) return true;
  return false;
}

HunkScore score_of(const diff::HunkReading &h, const std::vector<diff::ChangeName> &names,
                   const ClaimedLine &on_claim) {
  HunkScore s;
  s.running = h.running_lines();
  if (on_claim)
    for (const auto &c : h.running)
      if (!c.dead && on_claim(c)) ++s.claimed;
  for (const auto &n : names)
    if (hunk_holds(h, n.text)) ++(n.strong ? s.strong : s.weak);
  return s;
}

// Whether a hunk's running change matches `pattern` on some live line.
bool changes_code_matching(const diff::HunkReading &h, const text::Regex &pattern) {
  return std::any_of(h.running.begin(), h.running.end(),
                     [&](const diff::ChangedLine &c) { return !c.dead && pattern.contains(c.code); });
}

// The keyword parameters the code passes `name` to (`SINGLE_PASS=single`
// in a launch the diff does not touch): a kernel reading the parameter
// reads what the name holds.
std::vector<std::string> passed_as(std::string_view code, const std::string &name) {
  std::vector<std::string> out;
  if (code.empty()) return out;
  static const text::Regex keyword(R"(([A-Za-z_]\w*)\s*=\s*([A-Za-z_]\w*)\s*[,)])");
  for (const auto &m : keyword.find_all(code))
    if (m[2] == name && m[1] != name) out.emplace_back(m[1]);
  return out;
}

// A function of the file after the change: its lines and the names its
// body reads (a Python `def`, a C/CUDA function of an embedded source).
struct FunctionSpan {
  std::string name;
  std::size_t begin = 0, end = 0; // lines [begin, end), 0-based
  const std::set<std::string> *reads = nullptr;
};

std::vector<FunctionSpan> functions_of(const code::ModuleOutline &outline) {
  std::vector<FunctionSpan> out;
  for (const auto &s : outline.statements)
    if (s.kind == code::PythonStatement::Kind::Function) out.push_back({s.name, s.header, s.end, &s.reads});
  for (const auto &c : outline.c_items)
    if (c.kind == code::CItem::Kind::Function && c.binds.size() == 1)
      out.push_back({c.binds.front(), c.begin, c.end, &c.reads});
  return out;
}

// The functions whose bodies hold a hunk's running changed lines, read off
// the "+start" of its header (a removed line sits where the file after
// continues).
std::set<std::string> functions_changed_by(const diff::DiffReading &d, const diff::HunkReading &h,
                                           const std::vector<FunctionSpan> &functions) {
  std::set<std::string> out;
  static const text::Regex header(R"(^@@ -\d+(?:,\d+)? \+(\d+))");
  auto m = header.search(d.lines[h.header]);
  if (!m || functions.empty()) return out;
  std::size_t after = std::stoul(std::string((*m)[1]));
  std::size_t next = 0; // the next running changed line of the hunk
  for (std::size_t i = h.body_begin; i < h.body_end; ++i) {
    const char kind = d.lines[i].empty() ? ' ' : d.lines[i].front();
    while (next < h.running.size() && h.running[next].line < i) ++next;
    if (next < h.running.size() && h.running[next].line == i && !h.running[next].dead && after > 0)
      for (const auto &f : functions)
        if (after - 1 > f.begin && after - 1 < f.end) out.insert(f.name); // the body, not the head
    if (kind == ' ' || kind == '+') ++after;
  }
  return out;
}

// Whether two hunks' running changes are one change: one sets a name
// (defines it, or passes it as a keyword) that the other reads, either way
// round (also through a keyword the code passes it as: `single = True`
// with `if SINGLE_PASS:` where the launch passes `SINGLE_PASS=single`); or
// one changes the launch grid and the other the kernel's
// indexing by its place in that grid (`grid = (B, HKV)` with
// `gl.program_id(1)` now a KV head): the grid and the program-id reads are
// one contract.
bool linked_changes(const diff::HunkReading &a, const diff::HunkReading &b, std::string_view after,
                    const std::set<std::string> &functions_a, const std::set<std::string> &functions_b,
                    const std::vector<FunctionSpan> &functions) {
  // One changes a function's body and the other the function that calls
  // it (round 10: an int4 dequant whose output now pairs nibbles j and j + 4,
  // and the caller's activations re-paired to match): the callee's new
  // contract and its caller's use of it are one change.
  auto calls = [&](const std::set<std::string> &callers, const std::set<std::string> &callees) {
    for (const auto &f : functions)
      if (callers.count(f.name))
        for (const auto &callee : callees)
          if (callee != f.name && f.reads->count(callee)) return true;
    return false;
  };
  if (calls(functions_a, functions_b) || calls(functions_b, functions_a)) return true;
  auto sets_what_other_reads = [after](const diff::HunkReading &setter, const diff::HunkReading &reader) {
    auto reads = [&](const std::string &name) {
      return std::any_of(reader.running.begin(), reader.running.end(),
                         [&](const diff::ChangedLine &r) { return !r.dead && diff::holds_name(r.code, name); });
    };
    for (const auto &c : setter.running) {
      if (c.dead) continue;
      for (const std::string *name : {&c.defines, &c.owner}) {
        if (name->empty()) continue;
        if (reads(*name)) return true;
        for (const auto &parameter : passed_as(after, *name))
          if (reads(parameter)) return true;
      }
    }
    return false;
  };
  static const text::Regex grid(R"((?<![\w.])grid\s*=(?!=)|<<<)");
  static const text::Regex place(R"(\b(?:program_id|num_programs|blockIdx|gridDim)\b)");
  auto grid_and_place = [&](const diff::HunkReading &g, const diff::HunkReading &p) {
    return changes_code_matching(g, grid) && changes_code_matching(p, place);
  };
  // One adds autotune configs and the other drops from a launch a keyword
  // they now set (kits 50 and 53, W07, Z03: the decorator quoted without
  // the launch hunk removing `BLOCK_N=1024, num_warps=4`, which Triton then
  // rejects as conflicting meta-parameters): one change.
  auto tuned_and_dropped = [](const diff::HunkReading &tune, const diff::HunkReading &launch) {
    static const text::Regex config(R"(\b(?:triton\.)?(?:Config|autotune)\b)");
    static const text::Regex key(R"(['"]([A-Za-z_]\w*)['"]\s*:)");
    static const text::Regex keyword(R"((?<![\w.])([A-Za-z_]\w*)\s*=(?!=))");
    std::set<std::string> tuned;
    for (const auto &c : tune.running) {
      if (c.dead || !c.added || !config.contains(c.code)) continue;
      for (const auto &m : key.find_all(c.code)) tuned.emplace(m[1]);
      for (const auto &m : keyword.find_all(c.code)) tuned.emplace(m[1]);
    }
    if (tuned.empty()) return false;
    return std::any_of(launch.running.begin(), launch.running.end(), [&](const diff::ChangedLine &c) {
      if (c.dead || c.added || config.contains(c.code)) return false;
      for (const auto &m : keyword.find_all(c.code))
        if (tuned.count(std::string(m[1]))) return true;
      return false;
    });
  };
  return sets_what_other_reads(a, b) || sets_what_other_reads(b, a) || grid_and_place(a, b) || grid_and_place(b, a) ||
         tuned_and_dropped(a, b) || tuned_and_dropped(b, a);
}

// The body lines of one hunk to quote: from kContextLines before its first
// running changed line to kContextLines after its last (comment, docstring
// and version-stamp changes around them are context, not the change), cut
// to kMaxSnippetLines around the first running line that holds a name.
std::pair<std::size_t, std::size_t> window_of(const diff::DiffReading &d, const diff::HunkReading &h,
                                              const std::vector<diff::ChangeName> &names, const ClaimedLine &on_claim) {
  std::size_t begin = h.body_begin, end = h.body_end;
  // Trailing empty strings come from the file's final newline, not the hunk.
  while (end > begin && d.lines[end - 1].empty()) --end;
  std::optional<std::size_t> first, last, named;
  for (const auto &c : h.running) {
    if (c.dead) continue;
    if (!first) first = c.line;
    last = c.line;
    if (!named && on_claim && on_claim(c)) named = c.line;
    if (!named)
      for (const auto &n : names)
        if (diff::holds_name(c.code, n.text)) named = c.line;
  }
  if (!first) return {begin, end};
  begin = std::max(begin, *first > kContextLines ? *first - kContextLines : 0);
  end = std::min(end, *last + kContextLines + 1);
  // A changed line at the window's edge is none of the change (it runs for
  // nothing), yet reads as part of it: the context starts after it and ends
  // before it (kit 35, X11: `+_SWEEP_NUM_WARPS = 1` heading a num_warps
  // change).
  auto changed = [&](std::size_t i) { return !d.lines[i].empty() && (d.lines[i][0] == '+' || d.lines[i][0] == '-'); };
  while (begin < *first && changed(begin)) ++begin;
  while (end > *last + 1 && changed(end - 1)) --end;
  if (end - begin <= kMaxSnippetLines) return {begin, end};
  std::size_t anchor = named ? *named : *first;
  begin = std::max(begin, anchor > kContextLines ? anchor - kContextLines : 0);
  return {begin, std::min(end, begin + kMaxSnippetLines)};
}

} // namespace

std::optional<DiffSnippet> choose_diff_hunks(const diff::DiffReading &diff, std::string_view change_text,
                                             const ClaimedLine &on_claim, std::string_view code_after) {
  auto names = diff::named_in(diff, change_text);
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < diff.hunks.size(); ++i)
    if (diff.hunks[i].running_lines() > 0) candidates.push_back(i);
  if (candidates.empty()) return std::nullopt;
  std::vector<HunkScore> scores(diff.hunks.size());
  for (auto i : candidates) scores[i] = score_of(diff.hunks[i], names, on_claim);
  auto best_holding = [&](const diff::ChangeName *name) {
    std::optional<std::size_t> best;
    for (auto i : candidates) {
      if (name && !hunk_holds(diff.hunks[i], name->text)) continue;
      if (!best || scores[i].key() > scores[*best].key()) best = i;
    }
    return best;
  };
  auto quoted_lines = [&](const std::vector<std::size_t> &hunks) {
    std::size_t lines = 0;
    for (auto i : hunks) {
      auto [begin, end] = window_of(diff, diff.hunks[i], names, on_claim);
      lines += end - begin;
    }
    return lines;
  };
  std::vector<std::size_t> chosen;
  bool pointed = std::any_of(candidates.begin(), candidates.end(),
                             [&](std::size_t i) { return scores[i].claimed || scores[i].strong; });
  // A claim of several changes at once ("enable skip full softmax +
  // pipeline stages 2->3") was measured as one: a snippet that fits quotes
  // every running hunk, not the one a known lever points into (round 18:
  // the NUM_STAGES hunk quoted for a top-k-first rewrite).
  if (levers::claims_several_changes(change_text) && candidates.size() <= kMaxHunks &&
      quoted_lines(candidates) <= kMaxSnippetLines) {
    chosen = candidates;
  } else if (!pointed && diff.running_lines() <= kQuoteAllLines && candidates.size() <= kMaxHunks) {
    chosen = candidates; // a small change the claim's names do not point into: all of it
  } else {
    chosen.push_back(*best_holding(nullptr));
    auto is_chosen = [&](std::size_t i) { return std::find(chosen.begin(), chosen.end(), i) != chosen.end(); };
    for (auto i : candidates)
      if (chosen.size() < kMaxHunks && !is_chosen(i) && on_claim_in(diff.hunks[i], on_claim)) chosen.push_back(i);
    for (const auto &n : names) {
      if (!n.strong || chosen.size() >= kMaxHunks) continue;
      bool covered = false;
      for (auto i : chosen) covered = covered || hunk_holds(diff.hunks[i], n.text);
      if (covered) continue;
      if (auto i = best_holding(&n)) chosen.push_back(*i);
    }
  }
  // 3. A hunk that sets a name a chosen hunk's change reads, or reads a
  // name a chosen hunk sets (`kSplitK = 4` for the loop over `K /
  // kSplitK`, the launch's `NUM_PROGRAMS=nprog` for the kernel's grid-stride
  // loop), is part of the same change: a reader applies the snippet as it
  // stands. Added while the quote stays within kMaxHunks and
  // kMaxSnippetLines.
  const auto outline = code_after.empty() ? code::ModuleOutline() : code::outline_module(code_after);
  const auto functions = functions_of(outline);
  std::vector<std::set<std::string>> changed_functions(diff.hunks.size());
  for (auto i : candidates) changed_functions[i] = functions_changed_by(diff, diff.hunks[i], functions);
  // 2b. A hunk that only deletes running code and one that only adds some,
  // in the same function (when the code after tells), are the halves of
  // one rewrite: either chosen brings the other (kit 28, Q20: the hunk
  // adding a softmax over the top-k winners quoted without the one deleting
  // the full-row max, exp, sum and divide, where the saving is).
  auto only = [&](std::size_t i, bool added) {
    const auto &r = diff.hunks[i].running;
    return std::any_of(r.begin(), r.end(), [](const diff::ChangedLine &c) { return !c.dead; }) &&
           std::all_of(r.begin(), r.end(), [&](const diff::ChangedLine &c) { return c.added == added; });
  };
  auto same_function = [&](std::size_t a, std::size_t b) {
    const auto &fa = changed_functions[a], &fb = changed_functions[b];
    return fa.empty() || fb.empty() ||
           std::any_of(fa.begin(), fa.end(), [&](const std::string &f) { return fb.count(f) > 0; });
  };
  for (std::size_t n = chosen.size(), k = 0; k < n; ++k)
    for (bool added : {false, true}) {
      if (!only(chosen[k], !added)) continue;
      for (auto i : candidates) {
        if (chosen.size() >= kMaxHunks || std::find(chosen.begin(), chosen.end(), i) != chosen.end()) continue;
        if (!only(i, added) || !same_function(i, chosen[k])) continue;
        auto with = chosen;
        with.push_back(i);
        if (quoted_lines(with) <= kMaxSnippetLines) chosen = std::move(with);
      }
    }
  for (bool grew = true; grew && chosen.size() < kMaxHunks;) {
    grew = false;
    for (auto i : candidates) {
      if (std::find(chosen.begin(), chosen.end(), i) != chosen.end()) continue;
      bool linked = std::any_of(chosen.begin(), chosen.end(), [&](std::size_t k) {
        return linked_changes(diff.hunks[i], diff.hunks[k], code_after, changed_functions[i], changed_functions[k],
                              functions);
      });
      if (!linked) continue;
      auto with = chosen;
      with.push_back(i);
      if (quoted_lines(with) > kMaxSnippetLines) continue;
      chosen = std::move(with);
      grew = true;
      break;
    }
  }
  std::sort(chosen.begin(), chosen.end());
  DiffSnippet s;
  s.hunks_quoted = chosen.size();
  std::vector<std::string_view> out;
  std::vector<std::pair<std::size_t, std::size_t>> windows;
  for (auto i : chosen) {
    const auto &h = diff.hunks[i];
    if (chosen.size() > 1) out.push_back(diff.lines[h.header]);
    auto [begin, end] = window_of(diff, h, names, on_claim);
    windows.emplace_back(begin, end);
    for (std::size_t k = begin; k < end; ++k)
      if (!diff.scrubbed_comment[k]) out.push_back(diff.lines[k]);
  }
  s.text = join_lines(out, 0, out.size());
  auto quoted = [&](std::size_t line) {
    for (auto [b, e] : windows)
      if (line >= b && line < e) return true;
    return false;
  };
  for (const auto &n : names) {
    if (!n.strong) continue;
    bool in = false;
    for (auto i : chosen)
      for (const auto &c : diff.hunks[i].running)
        if (!c.dead && diff::holds_name(c.code, n.text) && quoted(c.line)) in = true;
    if (in) s.names.push_back(n.text);
  }
  if (on_claim)
    for (auto i : chosen)
      for (const auto &c : diff.hunks[i].running)
        if (!c.dead && on_claim(c) && quoted(c.line)) s.claimed_code_quoted = true;
  return s;
}

} // namespace otm::distill
