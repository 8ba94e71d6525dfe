// PCRE2 wrapper with the dialect the spec's patterns are written in: UTF and
// UCP (Unicode-aware \w \d \s \b, like Python 3's re on str), newline = LF,
// JIT-compiled where available. A Regex is compiled once and is safe to use
// from several threads. The fast path: match data is one buffer per thread
// (no allocation per call), and the scans over one subject (find_all,
// for_each_match, replace) check its UTF-8 once, not once per match.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "error/error.hpp"

namespace otm::text {

// A pattern that does not compile (UnreadableInput: patterns come from the
// configuration too), or a match PCRE2 could not finish (Refused: its
// resource limits, not a bug).
class RegexError : public Error {
public:
  RegexError(ErrorKind kind, const std::string &message) : Error(kind, message) {}
};

// One match: group 0 is the whole match; an unset group is nullopt.
struct Match {
  std::vector<std::optional<std::string_view>> groups;
  std::size_t begin = 0, end = 0; // byte offsets of group 0 in the subject
  std::string_view operator[](std::size_t i) const {
    return i < groups.size() && groups[i] ? *groups[i] : std::string_view();
  }
  bool has(std::size_t i) const { return i < groups.size() && groups[i].has_value(); }
};

class Regex {
public:
  // Throws RegexError naming the pattern when it does not compile.
  explicit Regex(std::string_view pattern);
  ~Regex();
  Regex(Regex &&) noexcept;
  Regex &operator=(Regex &&) noexcept;
  Regex(const Regex &) = delete;
  Regex &operator=(const Regex &) = delete;

  const std::string &pattern() const { return pattern_; }

  // re.search
  std::optional<Match> search(std::string_view subject, std::size_t start = 0) const;
  // Whether search() would find a match, without collecting its groups (no
  // allocation: the lexers ask this of every line).
  bool contains(std::string_view subject) const;
  // re.match (anchored at start)
  std::optional<Match> match(std::string_view subject) const;
  // re.fullmatch
  std::optional<Match> fullmatch(std::string_view subject) const;
  // re.finditer: all non-overlapping matches, left to right
  std::vector<Match> find_all(std::string_view subject) const;
  // The same matches without collecting them: `fn` sees each in turn (the
  // Match is reused between calls; copy what must outlive the call).
  void for_each_match(std::string_view subject, const std::function<void(const Match &)> &fn) const;
  // re.sub with a literal replacement (no backreferences).
  std::string replace(std::string_view subject, std::string_view replacement) const;
  // re.sub with a callback.
  std::string replace(std::string_view subject, const std::function<std::string(const Match &)> &fn) const;
  // re.split(subject, maxsplit=1): the part before the first match and the
  // part after it; nullopt second when there is no match.
  std::pair<std::string_view, std::optional<std::string_view>> split_once(std::string_view subject) const;

private:
  enum class Anchor { None, Start, Both };
  std::optional<Match> run(std::string_view subject, std::size_t start, Anchor anchor) const;
  // One match into `m` (groups resized and overwritten); false when none.
  // `valid_utf` says the caller has checked the subject is UTF-8.
  bool run_into(std::string_view subject, std::size_t start, Anchor anchor, bool valid_utf, Match &m) const;
  // The match itself, its result left in the thread's match data.
  bool matches(std::string_view subject, std::size_t start, Anchor anchor, bool valid_utf) const;
  std::string pattern_;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace otm::text
