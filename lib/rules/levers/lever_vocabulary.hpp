// The levers a kernel engineer pulls, as data (the `levers` section of
// data/otm-config.json, overridable with --config / OTM_CONFIG): for each,
// the prose forms that name it in a change text and the code forms that
// realise it, per DSL:
//   "levers": {
//     "block-size-tuning": {
//       "prose": ["block[ _-]?sizes?", "BLOCK_SIZE", ...],      // any case, whole tokens
//       "code":  {"any": ["BLOCK(?:_\\w+)?", "TILE_\\w+"],        // case-sensitive, whole tokens,
//                 "cuda": ["THREADS(?:_PER_BLOCK)?", "blockDim"]} // "any" applies to every DSL
//     },
//     "persistent-kernel": {..., "on_or_off": true},      // pulled or not, no setting between
//     "single-pass": {..., "reads_each_input_once": true}, // not run by a kernel reading a pointer twice
//     "pipeline-stages": {..., "acts_on_a_loop": true,   // does nothing to a kernel without one
//                         "compiler_option": {...}},      // levers/compiler_option.hpp
//     ...
//   }
// A lever's id is also the technique tag a record carries. A lever without
// code forms for a DSL cannot be checked against that DSL's code ("fused
// the residual add" may be realised any way): a claim naming only such
// levers is judged by the other rules alone.
//
// Issue 25's rule, shared by the drafter, the quality report and the
// partition stage: a change text that names a checkable lever is borne out
// only by a diff whose running changes hold one of that lever's code forms.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "levers/compiler_option.hpp"
#include "levers/term_vocabulary.hpp"

namespace otm::levers {

// The part of a change text before the clause that gives its cause or its
// effect ("so", "so that", "because", "since", "to cut", "which", a dash or
// a semicolon): what it claims was done.
std::string_view claim_part(std::string_view change_text);

class LeverVocabulary {
public:
  LeverVocabulary() = default;
  // Throws otm::Error (Usage) naming `where` and the lever when the section
  // is malformed (not an object; a lever without prose; a code entry that
  // is not an object of DSL -> patterns; a pattern PCRE2 refuses).
  static LeverVocabulary from_json(const json::Value &section, std::string_view where);
  static LeverVocabulary from_config(const config::Config &config);
  static const LeverVocabulary &defaults();

  // The prose forms of every lever, as a vocabulary of technique tags.
  const TermVocabulary &prose() const { return prose_; }
  // The levers a text names, in vocabulary order. A name inside a longer
  // name of another lever is that lever's ("producer warps" names warp
  // specialisation, not num_warps; "cp.async stages" pipelining once).
  std::vector<std::string> named_in(std::string_view text) const;
  // Where a text names levers: each match of a prose form that is not
  // inside a longer match of another lever's, in text order.
  std::vector<TermVocabulary::Hit> mentions(std::string_view text) const;
  // The levers a change text claims to pull: those it names before the
  // clause giving their cause or effect ("BLOCK_SIZE 1024 -> 2048 so each
  // program covers the row with fewer warps" claims block size, not
  // num_warps), as named_in says.
  std::vector<std::string> claimed_in(std::string_view change_text) const;
  // Whether `lever` has code forms for `dsl` (or for any DSL).
  bool checkable(const std::string &lever, std::string_view dsl) const;
  // Whether one of `lever`'s code forms for `dsl` occurs in `code`.
  bool in_code(const std::string &lever, std::string_view code, std::string_view dsl) const;
  // The matches of `lever`'s code forms for `dsl` in `code`, in text order
  // (`multi_processor_count` for persistent-kernel).
  std::vector<std::string> code_forms_in(const std::string &lever, std::string_view code, std::string_view dsl) const;
  // The levers whose code forms for `dsl` occur in `code`, in vocabulary order.
  std::vector<std::string> levers_in_code(std::string_view code, std::string_view dsl) const;
  // Whether `lever` only acts on a loop of the kernel (software pipelining,
  // unrolling): on a kernel that runs none it changes nothing.
  bool acts_on_a_loop(const std::string &lever) const { return loop_levers_.count(lever) > 0; }
  // Whether `lever` is either pulled or not, with no setting between
  // (a persistent grid, warp specialisation, split-K): a failure of it
  // named without a value is a failure of any step that names it.
  bool on_or_off(const std::string &lever) const { return on_or_off_levers_.count(lever) > 0; }
  // A lever that is the kernel reading each input once ("single-pass"): a
  // kernel reading one pointer in two loops does not run it, whatever
  // names it holds (kit 56, O01, O19: a two-pass kernel tagged so).
  bool reads_each_input_once(const std::string &lever) const { return read_once_levers_.count(lever) > 0; }
  // The factors by which code may write `lever`'s setting in other units
  // (`value_scales`: a warp count as threads per block, 32); empty for none.
  std::vector<long long> value_scales(const std::string &lever) const {
    auto it = scales_.find(lever);
    return it == scales_.end() ? std::vector<long long>{} : it->second;
  }
  // Whether `lever`'s named settings are alternatives of one knob (a tensor
  // layout: NCHW or NHWC), whatever the text calls the knob: one replaces
  // another. A cache hint's `.cs` and `evict_first` are two knobs.
  bool named_settings_are_alternatives(const std::string &lever) const { return alternative_levers_.count(lever) > 0; }
  // The compiler option through which `lever` may be set, or nullptr.
  const CompilerOption *compiler_option(const std::string &lever) const {
    auto it = options_.find(lever);
    return it == options_.end() ? nullptr : &it->second;
  }
  // Every lever id, in vocabulary order.
  const std::vector<std::string> &ids() const { return ids_; }

private:
  struct Code {
    std::shared_ptr<const text::Regex> any;
    std::map<std::string, std::shared_ptr<const text::Regex>, std::less<>> by_dsl;
  };
  TermVocabulary prose_;
  std::vector<std::string> ids_;
  std::map<std::string, Code, std::less<>> code_;
  std::set<std::string, std::less<>> loop_levers_;
  std::set<std::string, std::less<>> on_or_off_levers_;
  std::set<std::string, std::less<>> read_once_levers_;
  std::set<std::string, std::less<>> alternative_levers_;
  std::map<std::string, CompilerOption, std::less<>> options_;
  std::map<std::string, std::vector<long long>, std::less<>> scales_;
};

} // namespace otm::levers
