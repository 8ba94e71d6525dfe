// Literal substring search (memmem: glibc's vectorised two-way search,
// several times faster than std::string_view::find on prose, whose first
// byte is common). The literal prefilters of the leak shapes and the
// id and path scans use it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace otm::text {

bool contains(std::string_view hay, std::string_view needle);
// True when `needles` is empty (nothing to rule a scan out with) or `hay`
// holds one of them.
bool contains_any(std::string_view hay, const std::vector<std::string> &needles);

// A set of literals searched together: each is looked for only where its
// anchor (its first byte that is not a letter or digit, rarer in prose;
// else its first) occurs, found by memchr, one scan per distinct anchor
// rather than one memmem per literal (the calls' setup dominated on the
// short strings of a record).
class LiteralSet {
public:
  explicit LiteralSet(std::vector<std::string> literals);
  // True when the set is empty (nothing to rule a scan out with) or `hay`
  // holds one of them, as contains_any.
  bool any_in(std::string_view hay) const;
  const std::vector<std::string> &literals() const { return literals_; }

private:
  struct Anchor {
    char byte;
    std::vector<std::pair<std::size_t, std::size_t>> at; // (literal, offset of the anchor in it)
  };
  std::vector<std::string> literals_;
  std::vector<Anchor> anchors_;
};

} // namespace otm::text
