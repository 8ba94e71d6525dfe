// The write-side anonymiser (spec scrubbing.md): turns trace prose and code
// into text a distiller may quote verbatim. Leak shapes, version ids (with
// the vector-width exception) and workload hashes come from
// record/leak_shapes.hpp, the same table the packet pre-flight and the
// anonymization gate scan with. One instance per packet: it owns the
// packet-local shape-N label map. Departures from the reference are listed
// in docs/differences.md, "## Partition, packets, scrubbing, recon".
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "code/source_lexer.hpp"
#include "scrub/denylist.hpp"

namespace otm::scrub {

// The results of prose() and comment() that depended on the text alone (no
// shape label given out, no version id reworded, which depend on the
// scrubber's packet), for the scrubbers of one thread of one run with one
// denylist: a trace repeats the same texts (its harness, its open
// directions and pitfalls, its axes) in packet after packet. Not
// thread-safe: one per thread.
class ScrubMemo {
public:
  explicit ScrubMemo(const Denylist *denylist) : denylist_(denylist) {}
  const Denylist *denylist() const { return denylist_; }
  const std::string *find(bool prose, std::string_view text) const;
  void put(bool prose, std::string_view text, const std::string &result);

private:
  static constexpr std::size_t kMaxText = 4096, kMaxEntries = 1 << 16; // bounds its memory
  struct Hash {
    using is_transparent = void; // found by a string_view, no key copied
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using Map = std::unordered_map<std::string, std::string, Hash, std::equal_to<>>;
  const Denylist *denylist_;
  Map prose_, comment_;
};

class Scrubber {
public:
  // `denylist` may be null; it must outlive the scrubber. `this_version`
  // (e.g. "v25", any case) is the step the scrubbed text belongs to: its
  // mentions of itself become "this step", not "an earlier step". `memo`
  // (may be null; made for the same denylist, else unused) shares the
  // results that depend on the text alone.
  explicit Scrubber(const Denylist *denylist = nullptr, std::string this_version = "", ScrubMemo *memo = nullptr)
      : denylist_(denylist), this_version_(std::move(this_version)),
        memo_(memo && memo->denylist() == denylist ? memo : nullptr) {}

  // §1: denylist, leak shapes, hashes, trace-shaped references, version ids,
  // grammar tidy-up. Empty input gives "".
  std::string prose(std::string_view text);
  // The substitution applied inside comments and docstrings: §1 steps 1-5
  // without the start-of-text rule and without the tidy-up.
  std::string comment(std::string_view text);
  // §5: the comment and docstring spans (code/source_lexer.hpp) of source
  // in `language`, or of a unified diff (each file's language from its
  // path); executable code and data strings byte-for-byte as given.
  std::string code(std::string_view text, code::Language language = code::Language::Python);
  // The same for a unified diff `text` already lexed into `lines`
  // (code::lex_diff(text)): a caller that lexed it to judge it does not lex
  // it twice.
  std::string code(std::string_view text, const std::vector<code::DiffLine> &lines);

  // The packet-local label of a token: shape-1, shape-2, ... by first request.
  std::string label(const std::string &token);
  std::size_t labels_allocated() const { return labels_.size(); }

private:
  std::string substitute(std::string_view text, bool at_text_start);
  std::string version_phrase(std::string_view token, bool plural) const;
  std::string memoised(bool prose, std::string_view text);
  const Denylist *denylist_;
  std::string this_version_;
  std::map<std::string, std::string> labels_;
  ScrubMemo *memo_;
  // Set when a substitution gave out a label or reworded a version id: its
  // result depended on this scrubber, not on the text alone.
  mutable bool used_state_ = false;
};

// Whether a text holds a phrase the scrubber writes in place of a version
// id ("this step", "an earlier step", "earlier steps", "this and earlier
// steps", "an earlier state") or of a denied name ("a private identifier"):
// a quoted comment holding one reads as an artefact ("see an earlier
// step's note"), so a snippet leaves such comment lines out (issue 25).
bool holds_replacement_phrase(std::string_view text);

// The tidy-up of §4 alone (exposed for tests).
std::string tidy(std::string_view text);

} // namespace otm::scrub
