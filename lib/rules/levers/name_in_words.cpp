#include "levers/name_in_words.hpp"

#include <cctype>
#include <string>
#include <vector>

namespace otm::levers {
namespace {

bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

std::vector<std::string> name_words(std::string_view name) {
  std::vector<std::string> words;
  std::string cur;
  auto flush = [&] {
    // Single letters (`BLOCK_N`'s N) and "num" say nothing a reader would write.
    if (cur.size() > 1 && cur != "num") words.push_back(cur);
    cur.clear();
  };
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (!alnum(c)) {
      flush();
      continue;
    }
    bool upper = std::isupper(static_cast<unsigned char>(c)) != 0;
    if (upper && i > 0 && std::islower(static_cast<unsigned char>(name[i - 1]))) flush();
    cur += lower(c);
  }
  flush();
  return words;
}

std::vector<std::string> text_words(std::string_view text) {
  std::vector<std::string> words;
  std::string cur;
  for (char c : text) {
    if (alnum(c)) {
      cur += lower(c);
    } else if (!cur.empty()) {
      words.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) words.push_back(std::move(cur));
  return words;
}

// "row" matches "rows"; "prog" abbreviates "program"; "ctas" is "ctas".
bool same_word(std::string_view name_word, std::string_view word) {
  auto singular = [](std::string_view w) { return w.size() > 3 && w.back() == 's' ? w.substr(0, w.size() - 1) : w; };
  name_word = singular(name_word);
  word = singular(word);
  if (name_word == word) return true;
  return name_word.size() >= 3 && word.size() > name_word.size() && word.substr(0, name_word.size()) == name_word;
}

} // namespace

bool spells_out(std::string_view code_name, std::string_view text) {
  auto want = name_words(code_name);
  if (want.size() < 2) return false;
  auto have = text_words(text);
  for (std::size_t i = 0; i + want.size() <= have.size(); ++i) {
    std::size_t k = 0;
    while (k < want.size() && same_word(want[k], have[i + k])) ++k;
    if (k == want.size()) return true;
  }
  return false;
}

} // namespace otm::levers
