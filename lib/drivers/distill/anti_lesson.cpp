#include "distill/anti_lesson.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "code/tile_constants.hpp"
#include "diff/diff_reading.hpp"
#include "distill/drafter.hpp"
#include "levers/lever_settings.hpp"
#include "record/established_fact.hpp"
#include "text/code_list.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::distill::drafting {

namespace {

// The other settings of the kernel a build failure was tried in (kit 29,
// R24; kit 27, P07: "BLOCK_S 8->16 does not build" is a fact of a kernel
// with HALF = 64 and four warps, not of every kernel): the module's
// whole-number settings of a lever's code name that the kernel reads,
// other than the ones the attempt states, at most four, in file order.
// Empty when the attempt's code names none.
std::string configuration_tried_in(const Context &c, const AntiFact &fact) {
  auto after = code_after(c);
  if (!after) return {};
  const std::string dsl = c.op.dsl;
  const auto &vocabulary = c.rules.retrieval.levers;
  std::set<std::string> own;
  const std::string_view claim = levers::claim_of(fact.attempted);
  for (const auto &st : levers::settings_in(vocabulary, claim))
    own.insert(levers::setting_name(claim.substr(st.begin, st.end - st.begin)));
  for (const auto &n : diff::names_of(claim)) own.insert(n.text);
  static const text::Regex setting_name(R"(^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*|k[A-Z]\w*)$)");
  const auto unread = kernel_inert_code(*after, c.kernel_block.kernel_file).unread_names;
  // A shared-memory overflow is the fact of the tile and stages the
  // footprint is sized by, whatever else the kernel sets.
  const auto *footprint =
      record::resource_named(fact.mechanism.text) == std::optional<std::string_view>("shared memory")
          ? c.rules.shared_memory_footprint.get()
          : nullptr;
  std::vector<std::string> shown;
  std::set<std::string> seen;
  for (const auto &[name, value] : code::tile_constants(*after, setting_name)) {
    if (own.count(name) || !seen.insert(name).second) continue;
    if (std::find(unread.begin(), unread.end(), name) != unread.end()) continue;
    // C++'s `kStages` style is read for the footprint only; the other
    // settings shown stay the module's upper-case lever names.
    if (footprint ? !footprint->contains(name) : name.starts_with('k') || vocabulary.levers_in_code(name, dsl).empty())
      continue;
    shown.push_back(name + " = " + std::to_string(value));
    if (shown.size() == 4) break;
  }
  if (shown.empty()) return {};
  if (footprint) {
    const std::string tile = " its shared memory is sized by " + text::quoted_code_list(shown);
    if (c.af.get("accounts_of_this_lever").as_int().value_or(1) > 1)
      return " In the kernel this attempt was made in," + tile +
             "; the run's other accounts of the lever may have been set otherwise.";
    return " In the kernel it was tried in," + tile + ": the limit is that tile's.";
  }
  // Kit 38, Q01: the run's other accounts of the lever may have failed in
  // kernels set otherwise (NUM_WARPS = 1 as well as 4); the packet holds
  // only this attempt's code, so the limit is not pinned on its settings.
  // The accounts are not counted as tries: a prose dead-end list restates
  // old ones (kit 39, K25: "tried it 12 times" of five real attempts).
  if (c.af.get("accounts_of_this_lever").as_int().value_or(1) > 1)
    return " This attempt was made in a kernel that sets " + text::quoted_code_list(shown) +
           "; the run's other accounts of the lever may have been set otherwise.";
  return " It was tried in a kernel that sets " + text::quoted_code_list(shown) + ": the limit is that kernel's.";
}

// The settings a build error names (`E_PAD=256` in "static_range unrolled
// 8x with E_PAD=256 exceeds the 255-register limit"): the configuration the
// toolchain says it refused (kit 38 Q01, kit 37 Z15, kit 36 Y15), each once.
std::vector<std::string> settings_the_error_names(const std::string &error) {
  static const text::Regex setting(R"(\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)\s*=\s*(\d+)\b)");
  std::vector<std::string> out;
  for (const auto &m : setting.find_all(error)) {
    std::string s = std::string(m[1]) + "=" + std::string(m[2]);
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(std::move(s));
  }
  return out;
}

// Of those, the one a shape axis sets (`E_PAD` pads the axis `E`): where
// the build fails is a part of the shape space, the fact's shape_regime.
std::string shape_setting_the_error_names(const std::vector<std::string> &settings, const json::Value &af) {
  const auto *axes = af.get("operator").get("variable_axes").as_array();
  if (!axes) return {};
  for (const auto &s : settings)
    for (const auto &a : *axes) {
      const auto *axis = a.as_string();
      if (!axis || axis->empty()) continue;
      const std::string name = text::to_lower(s.substr(0, s.find('='))), low = text::to_lower(*axis);
      if (name == low || name.starts_with(low + "_")) return s;
    }
  return {};
}

} // namespace

std::string shape_regime_the_error_names(const AntiFact &fact, const json::Value &af) {
  return shape_setting_the_error_names(settings_the_error_names(fact.mechanism.text), af);
}

// The transferable directive: not to expect the lever to pay here, and
// what the run did instead. Not the mechanism: that is the fact's own field.
std::string anti_lesson(const Context &c, const AntiFact &fact) {
  std::string attempted(text::rstrip_chars(text::strip(fact.attempted), " .;:,"));
  std::string where = (c.family.empty() ? std::string("this operator") : c.family) + " on " + c.gpu;
  std::string lesson;
  if (fact.did_not_build && record::launch_failure_regex().contains(fact.mechanism.text)) {
    // A launch the runtime refused (kit 47: shared memory over the opt-in
    // limit) built; it is the limit named in the error that failed.
    lesson = "Expect " + attempted + " not to launch for " + where +
             " with the runtime the run used; the run never measured its speed." + configuration_tried_in(c, fact);
    if (const auto resource = record::resource_named(fact.mechanism.text))
      lesson += " The runtime's error puts it over the " + std::string(*resource) + " limit.";
  } else if (fact.did_not_build) {
    lesson = "Expect " + attempted + " not to build for " + where +
             " with the toolchain the run used; the run never measured its speed." + configuration_tried_in(c, fact);
    if (const auto named = settings_the_error_names(fact.mechanism.text); !named.empty())
      lesson += " The toolchain's error names " + text::quoted_code_list(named) + ".";
  } else if (fact.verdict == "api-limitation")
    lesson = "Do not plan on " + attempted + " for " + where + ": the toolchain the run used cannot express it.";
  else if (fact.verdict == "accuracy-gate/ceiling")
    lesson = "Do not take " + attempted + " for " + where + " without an accuracy check: it failed the run's.";
  else
    lesson = "Do not expect " + attempted + " to pay off for " + where + "; the run reverted it.";
  if (fact.fix) lesson += std::string(kLessonAdvice) + *fact.fix;
  // What of the lever the run built and kept (kit 23: "4 works, 8 does not
  // build" was the usable part, and the record said only the second half).
  const auto kept = strings_at(c.af.get("kept_in_the_run_with_other_settings"));
  if (!kept.empty()) lesson += " Steps the run kept set it otherwise: " + text::quoted_code_list(kept) + ".";
  return lesson;
}

} // namespace otm::distill::drafting
