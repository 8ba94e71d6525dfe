#include "text/literal_search.hpp"

#include <string.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <utility>

namespace otm::text {

bool contains(std::string_view hay, std::string_view needle) {
  if (needle.empty()) return true;
  return ::memmem(hay.data(), hay.size(), needle.data(), needle.size()) != nullptr;
}

bool contains_any(std::string_view hay, const std::vector<std::string> &needles) {
  return needles.empty() ||
         std::any_of(needles.begin(), needles.end(), [&](const std::string &n) { return contains(hay, n); });
}

LiteralSet::LiteralSet(std::vector<std::string> literals) : literals_(std::move(literals)) {
  for (std::size_t i = 0; i < literals_.size(); ++i) {
    const auto &l = literals_[i];
    if (l.empty()) continue;
    std::size_t off = 0;
    for (std::size_t j = 0; j < l.size(); ++j) {
      unsigned char c = static_cast<unsigned char>(l[j]);
      if (!std::isalnum(c)) {
        off = j;
        break;
      }
    }
    auto it = std::find_if(anchors_.begin(), anchors_.end(), [&](const Anchor &a) { return a.byte == l[off]; });
    if (it == anchors_.end()) it = anchors_.insert(anchors_.end(), Anchor{l[off], {}});
    it->at.emplace_back(i, off);
  }
}

bool LiteralSet::any_in(std::string_view hay) const {
  if (literals_.empty()) return true;
  for (const auto &l : literals_)
    if (l.empty()) return true;
  const char *begin = hay.data(), *end = hay.data() + hay.size();
  for (const auto &a : anchors_) {
    for (const char *p = begin; p < end;) {
      const auto *hit = static_cast<const char *>(std::memchr(p, a.byte, static_cast<std::size_t>(end - p)));
      if (!hit) break;
      auto pos = static_cast<std::size_t>(hit - begin);
      for (const auto &[i, off] : a.at) {
        const auto &l = literals_[i];
        if (pos >= off && pos - off + l.size() <= hay.size() && hay.compare(pos - off, l.size(), l) == 0) return true;
      }
      p = hit + 1;
    }
  }
  return false;
}

} // namespace otm::text
