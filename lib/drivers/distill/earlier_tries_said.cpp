#include "distill/earlier_tries_said.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "diff/diff_reading.hpp"
#include "levers/lever_settings.hpp"
#include "text/code_list.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"
#include "workspace/agent_facing.hpp"

namespace otm::distill::drafting {

// Whether a kept step's change text names a lever or a code name in its
// first sentence: a subject that is only the run's verdict ("kept ->
// 52.4→52.9µs (+0.9%) no improvement") names no change.
bool names_a_change(const Context &c, const std::string &step) {
  const std::string first = levers::what_a_change_did(step);
  if (!c.rules.retrieval.levers.named_in(first).empty()) return true;
  for (const auto &n : diff::names_of(first))
    if (n.strong && diff::is_code_name(n.text)) return true;
  return false;
}

namespace {

// Steps that each move one setting ("Changed GROUP_M 1->8", "Changed
// GROUP_M 8->16") said as the setting's net move since the last try
// ("Set GROUP_M 1->16 (over several kept steps)"), at the first one's place; a
// setting moved back where it started is left out, and moves that do not
// chain from one value to another stay as they are. Kit 40, L23: the last
// move alone ("GROUP_M 8->16") hid the grouped ordering (1->8) that the
// gain stood on.
std::vector<std::string> with_net_moves(const std::vector<std::string> &steps) {
  static const text::Regex move(
      R"(^\s*(?:[A-Z][a-z]+\s+)?([A-Za-z_][\w.]*)\s+(\d+)\s*(?:->|\x{2192})\s*(\d+)\s*\.?\s*$)");
  struct Move {
    std::size_t at;
    std::string from, to;
  };
  std::map<std::string, std::vector<Move>> moves;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::string did = levers::what_a_change_did(steps[i]); // the match's views point into it
    if (auto m = move.search(did))
      moves[std::string((*m)[1])].push_back({i, std::string((*m)[2]), std::string((*m)[3])});
  }
  std::map<std::size_t, std::string> replaced; // step -> its text, empty: left out
  for (const auto &[name, list] : moves) {
    if (list.size() < 2) continue;
    auto is_from = [&](const std::string &v) {
      return std::any_of(list.begin(), list.end(), [&](const Move &m) { return m.from == v; });
    };
    auto is_to = [&](const std::string &v) {
      return std::any_of(list.begin(), list.end(), [&](const Move &m) { return m.to == v; });
    };
    std::set<std::string> starts, ends;
    for (const auto &m : list) {
      if (!is_to(m.from)) starts.insert(m.from);
      if (!is_from(m.to)) ends.insert(m.to);
    }
    if (starts.size() > 1 || ends.size() > 1 || starts.size() != ends.size()) continue;
    for (const auto &m : list) replaced[m.at] = "";
    // No start: the moves return where they began (8->16, 16->8).
    if (!starts.empty()) replaced[list.front().at] = "Set " + name + " " + *starts.begin() + "->" + *ends.begin();
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    auto r = replaced.find(i);
    if (r == replaced.end())
      out.push_back(steps[i]);
    else if (!r->second.empty())
      out.push_back(r->second);
  }
  return out;
}

} // namespace

// The run's reverted tries of this same change before it, and what it kept
// since the last (kit 24: a persistent tile loop reverted four times, kept
// once grouped rasterisation was in; 128-bit loads slower until the online
// single pass): said, so the gain is read with what it stood on. Each kept
// step by its first sentence, at most three named (the packet lists the new
// bests first).
std::string tried_before(const Context &c) {
  const auto &af = c.af;
  const auto tries = af.get("reverted_earlier_tries_of_this_change").as_int();
  if (!tries || *tries <= 0) return {};
  std::string out = " The run had tried this change " +
                    (*tries == 1 ? std::string("once") : std::to_string(*tries) + " times") +
                    " before and reverted it"; // the count is the packet's
  // How they ended (kit 35, X12): a try that did not build or failed its
  // check was never weighed for speed, so no kept step is what the gain
  // may depend on.
  const auto ended = strings_at(af.get("how_its_earlier_tries_ended"), nullptr);
  std::vector<std::string> how;
  for (const auto &e : ended)
    if (std::find(how.begin(), how.end(), e) == how.end()) how.push_back(e);
  const bool never_measured =
      !ended.empty() && std::find(ended.begin(), ended.end(), workspace::kTryMeasured) == ended.end();
  if (never_measured)
    return out + " (" + text::prose_list(how, "or") + ": it was never measured against the code it was tried on).";
  // A try that already measured faster than the code it was tried on,
  // beyond the run's band, needed nothing the run kept since (kit 56, O27:
  // "may depend on" two kept steps, where the first try measured -4.9 %).
  const auto &band = af.get("measurements").get("same_code_spread_pct");
  const double floor = band.is_number() ? *band.as_number() : 0.0;
  const Value *fastest = nullptr;
  if (const auto *pcts = af.get("its_earlier_tries_slower_than_tried_on_pct").as_array())
    for (const auto &p : *pcts)
      if (p.is_number() && *p.as_number() < -floor && (!fastest || *p.as_number() < *fastest->as_number()))
        fastest = &p;
  if (fastest)
    return out + ", though " + (*tries == 1 ? "it" : "one of them") + " already measured " +
           json::Value(-*fastest->as_number()).python_str() +
           " % faster than the code it was tried on: what the run kept since is not shown to be what the gain "
           "needed.";
  // A kept step whose text names no lever and no code name (its subject is
  // only the run's verdict: "kept -> 52.4→52.9µs (+0.9%) no improvement")
  // says nothing the gain could depend on.
  // Nor does a step whose setting the kernel after the change no longer
  // holds (kit 36, Y19: "GROUP_M 8->16", undone by the next kept step, on
  // a kernel at GROUP_M 8).
  std::vector<std::string> since;
  const auto kept_since = strings_at(af.get("kept_since_its_last_reverted_try"), "change");
  for (auto &step : with_net_moves(kept_since))
    if (names_a_change(c, step) && how_the_kernel_holds(c, step) != ChangeInKernel::SettingNotHeld)
      since.push_back(std::move(step));
  // A knob the run toggled or set again is named by its last setting (kit
  // 39, K14: three num_stages flips named before the warp count).
  since = levers::without_superseded_steps(std::move(since), c.rules.retrieval.levers);
  if (since.empty()) return out + ".";
  constexpr std::size_t kNamed = 3;
  out += "; what it kept since the last try, which the gain may depend on: ";
  for (std::size_t i = 0; i < since.size() && i < kNamed; ++i) {
    out += (i ? "; " : "") + std::string(text::rstrip_chars(levers::what_a_change_did(since[i]), " ."));
    // A net move no one step made says so.
    if (std::find(kept_since.begin(), kept_since.end(), since[i]) == kept_since.end())
      out += " (over several kept steps)";
  }
  // No count: a number the packet does not hold is a fabrication (the
  // no-fabrication gate).
  if (since.size() > kNamed) out += ", and later kept steps";
  return out + ".";
}

} // namespace otm::distill::drafting
