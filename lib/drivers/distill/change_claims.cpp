#include "distill/change_claims.hpp"

#include "code/kernel_loops.hpp"
#include "levers/name_in_words.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::distill {

// The cost of applying a change, from the lines it changes that run (the
// lexer's rule: comments, docstrings, blank lines and version stamps do not
// count).
json::Value cost_of(const diff::DiffReading &diff) {
  std::size_t running = diff.running_lines(), hunks = 0;
  for (const auto &h : diff.hunks)
    if (h.running_lines()) ++hunks;
  json::Value cost = json::Value::object();
  const char *scope = "kernel-rewrite", *risk = "med";
  if (running <= 2 && hunks == 1)
    scope = "one-line", risk = "low";
  else if (running >= kArchitectureLines)
    scope = "architecture", risk = "high";
  cost.set("edit_scope", scope);
  cost.set("risk", risk);
  // No count in the text: a number the packet does not hold is a fabrication.
  cost.set("risk_basis", "derived by otm-draft from how many changed lines run and in how many hunks (comments, "
                         "docstrings, blank lines and version stamps not counted), not judged");
  return cost;
}

// A function the diff adds and nothing calls that the change text describes
// (a word of its name, four letters or more, is a word of the text).
std::optional<std::string> described_dead_code(const diff::DiffReading &diff, const std::string &change) {
  static const text::Regex part("[A-Za-z][a-z0-9]{3,}|[A-Z0-9]{4,}");
  for (const auto &name : diff.dead_definitions)
    for (const auto &m : part.find_all(name)) {
      text::Regex word("(?i)\\b" + std::string(m[0]) + "\\b");
      if (word.contains(change)) return name;
    }
  return std::nullopt;
}

std::vector<levers::LeverSetting> settings_moved_away(const diff::DiffReading &diff,
                                                      const std::vector<levers::LeverSetting> &stated,
                                                      const levers::LeverVocabulary &vocabulary, std::string_view dsl) {
  std::vector<levers::LeverSetting> out;
  for (const auto &s : stated) {
    if (s.value.empty() || s.value.rfind("no ", 0) == 0) continue;
    bool removed = false, added = false;
    for (const auto &h : diff.hunks)
      for (const auto &c : h.running) {
        if (!levers::changes_lever(c, {s.lever}, vocabulary, dsl)) continue;
        if (diff::holds_name(c.changed.empty() ? c.code : c.changed, s.value)) (c.added ? added : removed) = true;
      }
    if (removed && !added) out.push_back(s);
  }
  return out;
}

std::optional<ContradictedValue> value_contradicted(const diff::DiffReading &diff,
                                                    const std::vector<levers::LeverSetting> &stated,
                                                    const levers::LeverVocabulary &vocabulary, std::string_view dsl) {
  static const text::Regex integer(R"((?<![\w.])(\d+)(?![\w.]))");
  for (const auto &s : stated) {
    if (s.value.empty() || s.value.find_first_not_of("0123456789") != std::string::npos) continue;
    std::set<std::string> set_to;
    for (const auto &h : diff.hunks)
      for (const auto &c : h.running)
        if (c.added && !c.dead) {
          // Only a line that sets the lever's own name (`ROWS = 2`,
          // `num_warps=8`): a grid that reads it holds other numbers.
          const std::string &name = !c.owner.empty() ? c.owner : c.defines;
          if (name.empty() || !vocabulary.in_code(s.lever, name, dsl)) continue;
          for (const auto &m : integer.find_all(c.changed.empty() ? c.code : c.changed)) set_to.emplace(m[1]);
        }
    if (set_to.size() == 1 && *set_to.begin() != s.value) return ContradictedValue{s, *set_to.begin()};
  }
  return std::nullopt;
}

std::optional<levers::LeverSetting> stated_value_absent(const diff::DiffReading &diff, std::string_view after,
                                                        std::string_view change,
                                                        const levers::LeverVocabulary &vocabulary,
                                                        std::string_view dsl) {
  // A width in bits or bytes ("128-bit accesses") is no setting's value.
  static const text::Regex width(R"((?i)^\s*-?\s*(?:bits?|bytes?)\b)");
  const auto claimed = vocabulary.claimed_in(change);
  // A knob the text states several numbers of ("num_warps to 8, instead of
  // leaving 4 warps") is borne out by any of them: one may be where it
  // started.
  std::map<std::string, std::optional<levers::LeverSetting>> absent; // by lever and axis; nullopt: held
  for (const auto &s : levers::settings_in(vocabulary, levers::claim_of(change))) {
    if (s.value.empty() || s.value.size() > 9 || s.value.find_first_not_of("0123456789") != std::string::npos ||
        std::find(claimed.begin(), claimed.end(), s.lever) == claimed.end() || !vocabulary.checkable(s.lever, dsl))
      continue;
    // A number the text writes into a name ("exp2") sets nothing.
    const text::Regex number("(?<![\\w.])" + s.value + "(?![\\w.])");
    const auto mention = change.substr(s.begin, s.end - s.begin);
    auto at_value = number.search(mention);
    if (!at_value || width.contains(change.substr(s.begin + at_value->end))) continue;
    // The code may write the setting in other units (a warp count as
    // threads): those values count on a line that holds the lever's code.
    std::string scaled;
    for (auto f : vocabulary.value_scales(s.lever)) {
      const long long v = std::stoll(s.value);
      scaled += (scaled.empty() ? "" : "|") + std::to_string(v * f);
      if (v % f == 0) scaled += "|" + std::to_string(v / f);
    }
    const text::Regex other_units("(?<![\\w.])(?:" + (scaled.empty() ? std::string("(?!)") : scaled) + ")(?![\\w.])");
    auto sets_the_lever = [&](std::string_view line) {
      for (const auto &form : vocabulary.code_forms_in(s.lever, line, dsl))
        if (s.axis.empty() || levers::tile_axis(form) == s.axis) return true;
      return false;
    };
    bool held = false;
    for (const auto &h : diff.hunks)
      for (const auto &c : h.running)
        held = held || (c.added && !c.dead &&
                        (number.contains(c.code) || (other_units.contains(c.code) && sets_the_lever(c.code))));
    for (std::size_t at = 0; !held && at < after.size();) {
      auto end = std::min(after.find('\n', at), after.size());
      const auto line = after.substr(at, end - at);
      at = end + 1;
      held = (number.contains(line) || other_units.contains(line)) && sets_the_lever(line);
    }
    const std::string knob = s.lever + "[" + s.axis + "]";
    if (held)
      absent[knob] = std::nullopt;
    else if (!absent.count(knob))
      absent[knob] = s;
  }
  for (const auto &[knob, setting] : absent)
    if (setting) return setting;
  return std::nullopt;
}

std::optional<ContradictedDirection> direction_contradicted(const diff::DiffReading &diff, std::string_view text,
                                                            const std::vector<levers::LeverSetting> &stated,
                                                            const levers::LeverVocabulary &vocabulary,
                                                            std::string_view dsl) {
  // A direction word, then at most a few words, ending where the setting's
  // mention begins.
  static const text::Regex up(
      R"((?i)\b(?:increas\w*|rais\w*|more|deeper|higher|bump\w*(?: up)?|doubl\w*|grow\w*)\b(?:\s+[\w.]+){0,3}\s*$)");
  static const text::Regex down(
      R"((?i)\b(?:decreas\w*|lower\w*|reduc\w*|fewer|shallower|smaller|halv\w*|cut\w*)\b(?:\s+[\w.]+){0,3}\s*$)");
  static const text::Regex integer(R"((?<![\w.])(\d+)(?![\w.]))");
  for (const auto &s : stated) {
    if (s.value.empty() || s.value.find_first_not_of("0123456789") != std::string::npos) continue;
    auto before_mention = text.substr(0, s.begin);
    bool says_up = up.contains(before_mention), says_down = down.contains(before_mention);
    if (says_up == says_down) continue;
    std::set<std::string> old_values;
    for (const auto &h : diff.hunks)
      for (const auto &c : h.running)
        if (!c.added && levers::changes_lever(c, {s.lever}, vocabulary, dsl))
          for (const auto &m : integer.find_all(c.changed.empty() ? c.code : c.changed)) old_values.emplace(m[1]);
    if (old_values.size() != 1) continue;
    const auto &was = *old_values.begin();
    if (was.size() > 9 || s.value.size() > 9) continue;
    long from = std::stol(was), to = std::stol(s.value);
    if ((says_up && to < from) || (says_down && to > from))
      return ContradictedDirection{s, says_up ? "raises" : "lowers", was};
  }
  return std::nullopt;
}

std::vector<LeverMove> lever_moves(const diff::DiffReading &diff, const std::vector<std::string> &levers,
                                   const levers::LeverVocabulary &vocabulary, std::string_view dsl) {
  static const text::Regex integer(R"((?<![\w.])(\d{1,9})(?![\w.]))");
  std::vector<LeverMove> out;
  for (const auto &lever : levers) {
    std::set<std::string> names;
    std::set<long> was, now;
    for (const auto &h : diff.hunks)
      for (const auto &c : h.running) {
        if (c.dead) continue;
        const std::string &name = !c.owner.empty() ? c.owner : c.defines;
        if (name.empty() || !vocabulary.in_code(lever, name, dsl)) continue;
        names.insert(name);
        for (const auto &m : integer.find_all(c.changed.empty() ? c.code : c.changed))
          (c.added ? now : was).insert(std::stol(std::string(m[1])));
      }
    if (names.size() == 1 && was.size() == 1 && now.size() == 1 && *was.begin() != *now.begin())
      out.push_back({lever, *names.begin(), *was.begin(), *now.begin()});
  }
  return out;
}

namespace {

// Whether `code` passes `name` as a keyword argument or sets it (`name=`,
// `name = `, not `name ==`).
bool passes_keyword(std::string_view code, std::string_view name) {
  for (auto pos = code.find(name); pos != std::string_view::npos; pos = code.find(name, pos + 1)) {
    auto at = code.find_first_not_of(" \t", pos + name.size());
    if (at != std::string_view::npos && code[at] == '=' && (at + 1 >= code.size() || code[at + 1] != '=')) return true;
  }
  return false;
}

// Whether a definition sets a value rather than computing one: `NUM_STAGES
// = 4`, `BLOCK_N: tl.constexpr = 1024`, `constexpr int kStages = 3;`,
// `#define UNROLL 2`, `ACC = tl.float32` set; `inv = 1.0 / denom` computes
// from a variable (a lower-case name other than a literal keyword), so it is
// no setting.
bool sets_a_constant(std::string_view code) {
  static const text::Regex assignment(R"(^[^=]*?[^=!<>+\-*/%&|^]=(?!=)(.*)$)");
  // A module's attribute (`tl.float32`, `torch.bfloat16`) is a constant:
  // names before or after a dot are not variables.
  static const text::Regex variable(
      R"((?<![.\w])(?!(?:true|false|none|True|False|None)\b)[a-z_][A-Za-z0-9_]*\b(?!\s*\.))");
  auto m = assignment.search(code);
  if (!m) return true; // `#define X 2`, a declaration without a value
  std::string value((*m)[1]);
  // A value the kernel reads at run time is computed (`tile_id =
  // tl.program_id(0)`: kit 24 named a persistent loop's index as a second
  // lever); a constructor of constants (`gl.BlockedLayout([2], ...)`) holds
  // a setting.
  static const text::Regex runtime(
      R"(\b(?:program_id|num_programs|arange|load|zeros|full|cdiv|next_power_of_2|numel|size|stride)\s*\()");
  if (runtime.contains(value)) return false;
  // Numbers' exponents and suffixes ("1e-5", "2.0f", "0x3f") are not names.
  static const text::Regex number(R"(\b\d[\w.]*)");
  value = number.replace(value, " ");
  return !variable.contains(value);
}

std::size_t indentation(std::string_view body) {
  auto at = body.find_first_not_of(" \t");
  return at == std::string_view::npos ? body.size() : at;
}

// Whether a changed line sits inside a Python function the diff adds whole:
// the nearest line above it in its hunk (removed lines aside) that is
// indented less is an added `def`. A local of new code (`layout =
// gl.BlockedLayout(...)` in a new reduce kernel) is part of that code, not
// another setting the diff moves.
bool inside_a_function_the_diff_adds(const diff::DiffReading &diff, const diff::HunkReading &hunk,
                                     const diff::ChangedLine &c) {
  auto line = diff.lines[c.line];
  if (line.empty()) return false;
  auto depth = indentation(line.substr(1));
  if (depth == 0) return false;
  for (std::size_t i = c.line; i-- > hunk.body_begin;) {
    auto l = diff.lines[i];
    if (l.empty() || l[0] == '-') continue;
    auto body = l.substr(1);
    if (text::strip(body).empty() || indentation(body) >= depth) continue;
    auto code = body.substr(indentation(body));
    return l[0] == '+' && (code.rfind("def ", 0) == 0 || code.rfind("async def ", 0) == 0);
  }
  return false;
}

} // namespace

namespace {

// The levers an account names, in prose or by their code.
std::vector<std::string> levers_named(std::string_view account, const levers::LeverVocabulary &vocabulary,
                                      std::string_view dsl) {
  auto out = vocabulary.named_in(account);
  for (auto &l : vocabulary.levers_in_code(account, dsl))
    if (std::find(out.begin(), out.end(), l) == out.end()) out.push_back(std::move(l));
  return out;
}

} // namespace

namespace {

// Whether every mention of `name` in `account` is an operand of a
// comparison ("SINGLE_PASS when next_pow2(N) <= MAX_BLOCK_N"): the account
// names it as a condition, never as something it set.
bool named_only_as_a_condition(std::string_view name, std::string_view account) {
  static const std::string_view ops[] = {"<=", ">=", "==", "!=", "<", ">"};
  auto next_to_op = [&](std::string_view side, bool before) {
    std::string_view t =
        before ? text::rstrip_chars(side, " \t") : side.substr(std::min(side.size(), side.find_first_not_of(" \t")));
    for (auto op : ops)
      if (before ? t.ends_with(op) : t.starts_with(op)) return true;
    return false;
  };
  std::size_t mentions = 0;
  for (auto pos = account.find(name); pos != std::string_view::npos; pos = account.find(name, pos + 1)) {
    auto end = pos + name.size();
    auto word = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
    if ((pos > 0 && word(account[pos - 1])) || (end < account.size() && word(account[end]))) continue;
    ++mentions;
    if (!next_to_op(account.substr(0, pos), true) && !next_to_op(account.substr(end), false)) return false;
  }
  return mentions > 0;
}

// The value a constant's definition sets (`MAX_BLOCK_N = 4096` -> "4096"),
// without a trailing comment; empty when it sets none.
std::string value_set(std::string_view code) {
  auto eq = code.find('=');
  if (eq == std::string_view::npos || (eq + 1 < code.size() && code[eq + 1] == '=')) return {};
  return std::string(text::strip(code.substr(eq + 1)));
}

} // namespace

std::vector<ConditionReset> conditions_reset(const diff::DiffReading &diff, std::string_view account) {
  std::vector<ConditionReset> out;
  for (const auto &h : diff.hunks)
    for (const auto &c : h.running) {
      if (c.dead || c.defines.empty() || !c.added || !sets_a_constant(c.code) ||
          !named_only_as_a_condition(c.defines, account))
        continue;
      auto to = value_set(c.code);
      if (to.empty() ||
          std::any_of(out.begin(), out.end(), [&](const ConditionReset &r) { return r.name == c.defines; }))
        continue;
      // The value it replaced: a removed definition of the same name.
      for (const auto &r : h.running)
        if (!r.added && r.defines == c.defines)
          if (auto from = value_set(r.code); !from.empty() && from != to) {
            out.push_back({c.defines, from, to});
            break;
          }
    }
  return out;
}

namespace {

// Whether the diff turns `name` from a number into a value computed from
// the problem (`BLOCK_N = 1024` -> `BLOCK_N = triton.next_power_of_2(N)`):
// the setting now follows the shape, part of the rewrite that needs it
// (kit 23, kit 24: a single-pass row's BLOCK_N flagged as a second lever).
bool becomes_computed(const diff::DiffReading &diff, std::string_view name) {
  static const text::Regex value_of(R"(^[^=]*?[^=!<>+\-*/%&|^]=(?!=)\s*(.*?)\s*;?\s*$)");
  static const text::Regex number(R"(^-?\d[\w.]*$)");
  static const text::Regex call(R"([A-Za-z_]\w*\s*\()");
  bool removed_number = false, added_computed = false;
  for (const auto &h : diff.hunks)
    for (const auto &c : h.running) {
      if (c.dead || c.defines != name) continue;
      auto m = value_of.search(c.code);
      if (!m) return false;
      const auto value = (*m)[1];
      if (c.added ? !call.contains(value) : !number.contains(value)) return false;
      (c.added ? added_computed : removed_number) = true;
    }
  return removed_number && added_computed;
}

} // namespace

std::vector<OtherSetting> other_settings_changed(const diff::DiffReading &diff, std::string_view account,
                                                 const levers::LeverVocabulary &vocabulary, std::string_view dsl) {
  const auto named = levers_named(account, vocabulary, dsl);
  std::vector<OtherSetting> out;
  for (const auto &h : diff.hunks)
    for (const auto &c : h.running) {
      if (c.dead) continue;
      // A setting: a name the line defines, or a keyword argument it passes
      // (`num_warps=8`), never a call it edits (`tl.store(...)`).
      // In a declaration of several names (`constexpr int BM = 128, ...,
      // THREADS = 64`) the setting changed is the one that owns the change,
      // not the first name declared (kit 47, T04).
      const bool declares_several =
          !c.defines.empty() && !c.owner.empty() && c.owner != c.defines && passes_keyword(c.code, c.owner);
      const std::string &name = declares_several ? c.owner : !c.defines.empty() ? c.defines : c.owner;
      if (name.empty() || (c.defines.empty() ? !passes_keyword(c.code, name) : !sets_a_constant(c.code)) ||
          levers::spells_out(name, account) || inside_a_function_the_diff_adds(diff, h, c) ||
          !diff::changes_name(diff, name) || becomes_computed(diff, name))
        continue;
      // A name several levers' code shares (`CTAS_PER_SM`: a persistent
      // grid's cap, an occupancy setting) is the named lever's when one of
      // them is named.
      auto levers = vocabulary.levers_in_code(name, dsl);
      if (levers.empty() || std::any_of(levers.begin(), levers.end(), [&](const std::string &l) {
            return std::find(named.begin(), named.end(), l) != named.end();
          }))
        continue;
      if (std::none_of(out.begin(), out.end(), [&](const OtherSetting &o) { return o.name == name; }))
        out.push_back({name, levers.front()});
    }
  return out;
}

namespace {

// Whether the diff brings `name` into the file or takes it out: added lines
// hold it, no removed line does and every line of the file after the
// change that holds it is an added line; or removed lines hold it, no added
// line does and no line after the change does. A name an added line reads
// that the file already had (`BLOCK` passed to a new call), or a line that
// moved (a loop body re-indented), is neither.
bool brings_in_or_takes_out(const diff::DiffReading &diff, std::string_view after, std::string_view name) {
  std::size_t added = 0, removed = 0;
  for (const auto &h : diff.hunks)
    for (const auto &c : h.running)
      if (!c.dead && diff::holds_name(c.code, name)) ++(c.added ? added : removed);
  std::size_t in_after = 0;
  for (std::size_t at = 0; at < after.size();) {
    auto end = after.find('\n', at);
    if (end == std::string_view::npos) end = after.size();
    if (diff::holds_name(after.substr(at, end - at), name)) ++in_after;
    at = end + 1;
  }
  return (added > 0 && removed == 0 && in_after <= added) || (removed > 0 && added == 0 && in_after == 0);
}

} // namespace

std::vector<OtherSetting> other_levers_changed(const diff::DiffReading &diff, std::optional<std::string_view> after,
                                               std::string_view account, const levers::LeverVocabulary &vocabulary,
                                               std::string_view dsl) {
  auto out = other_settings_changed(diff, account, vocabulary, dsl);
  if (!after) return out;
  const auto named = levers_named(account, vocabulary, dsl);
  auto listed = [&](const std::string &name) {
    return std::any_of(out.begin(), out.end(), [&](const OtherSetting &o) { return o.name == name; });
  };
  for (const auto &id : vocabulary.ids()) {
    if (std::find(named.begin(), named.end(), id) != named.end()) continue;
    for (const auto &h : diff.hunks)
      for (const auto &c : h.running) {
        if (c.dead) continue;
        for (const auto &form : vocabulary.code_forms_in(id, c.code, dsl)) {
          if (listed(form) || !diff::is_code_name(form) || diff::is_language_call(form) ||
              !brings_in_or_takes_out(diff, *after, form))
            continue;
          // A name the named levers' own code forms also match is theirs.
          if (std::any_of(named.begin(), named.end(),
                          [&](const std::string &l) { return vocabulary.in_code(l, form, dsl); }))
            continue;
          out.push_back({form, id});
        }
      }
  }
  return out;
}

// Accepts a matched retrieval term unless it is a code name the diff does
// not change.
TermVocabulary::Accept changed_by(const diff::DiffReading &diff) {
  return [&diff](std::string_view term) { return !diff::is_code_name(term) || diff::changes_name(diff, term); };
}

std::optional<std::string> loop_lever_without_a_loop(const std::vector<std::string> &levers,
                                                     std::optional<std::string_view> after,
                                                     const levers::LeverVocabulary &vocabulary) {
  auto first = std::find_if(levers.begin(), levers.end(), [&](const auto &l) { return vocabulary.acts_on_a_loop(l); });
  if (first == levers.end() || !after) return std::nullopt;
  auto loops = code::device_code_loops(*after);
  if (!loops || *loops) return std::nullopt;
  return *first;
}

std::optional<UnusedOption> lever_set_only_through_an_unused_option(const diff::DiffReading &diff,
                                                                    const std::vector<std::string> &levers,
                                                                    std::optional<std::string_view> after,
                                                                    const levers::LeverVocabulary &vocabulary,
                                                                    std::string_view dsl) {
  if (!after) return std::nullopt;
  // Whether some running line changes `lever` and each that does changes
  // only the option's name among the lever's code forms.
  auto set_only_through = [&](const std::string &lever, const std::string &option) {
    bool any = false;
    for (const auto &h : diff.hunks)
      for (const auto &c : h.running) {
        if (!levers::changes_lever(c, {lever}, vocabulary, dsl)) continue;
        auto forms = vocabulary.code_forms_in(lever, c.changed, dsl);
        if (forms.empty()) forms = vocabulary.code_forms_in(lever, c.owner, dsl);
        if (forms.empty() || std::any_of(forms.begin(), forms.end(), [&](const auto &f) { return f != option; }))
          return false;
        any = true;
      }
    return any;
  };
  std::optional<std::string> device;
  for (const auto &l : levers) {
    const auto *option = vocabulary.compiler_option(l);
    if (!option || !set_only_through(l, option->name())) continue;
    if (!device) device = code::device_code(*after);
    if (!device) return std::nullopt;
    if (auto why = option->unused_because(dsl, *device)) return UnusedOption{l, option->name(), *why};
  }
  return std::nullopt;
}

} // namespace otm::distill
