// The private denylist (spec scrubbing.md §6, README §4): substrings that must
// never reach an agent-facing layer, read from the file ATREX_WIKI_DENYLIST
// names. The file is never committed; only its compiled alternation is used,
// by the scrubber (replacement) and by every leak scan (detection).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::scrub {

class Denylist {
public:
  Denylist() = default;
  // Terms as given; sorted longest first (stable), blanks dropped.
  static Denylist from_terms(std::vector<std::string> terms);
  // Each line trimmed; blank lines skipped; a line whose trimmed text starts
  // with '#' is a comment. Throws io::IoError naming the file when it is
  // missing, not a regular file (a directory, a FIFO) or unreadable.
  static Denylist load(const std::filesystem::path &file);
  // The file named by `path` (~ expanded) when it is set: load(), so a
  // configured denylist that cannot be read refuses the run (the reference
  // silently ignores it); an empty denylist when unset or empty.
  static Denylist from_setting(const std::optional<std::string> &path);

  bool empty() const { return terms_.empty(); }
  const std::vector<std::string> &terms() const { return terms_; }
  // One case-insensitive alternation of the escaped terms; nullptr when empty.
  const text::Regex *regex() const { return regex_.get(); }
  // `text` with every term replaced by kPrivateIdentifier (as the scrubber
  // replaces it); `text` itself when empty.
  std::string redact(std::string_view text) const;
  // Every string value of `v` (not its keys), redacted in place.
  void redact_strings(json::Value &v) const;

private:
  std::vector<std::string> terms_;
  std::shared_ptr<text::Regex> regex_;
};

// The replacement text of a denylisted term.
inline constexpr const char *kPrivateIdentifier = "a private identifier";

} // namespace otm::scrub
