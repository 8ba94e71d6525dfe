#include "record/leak_shapes.hpp"

#include <algorithm>
#include <cctype>

#include "text/literal_search.hpp"
#include "text/utf8.hpp"

namespace otm::record {

const char *markdown_page_pattern() { return R"(\b\w[\w/.-]*\.md\b)"; }

const std::vector<LeakShape> &store_leak_shapes() {
  // Character classes are the union of the reference's scrubber and store
  // gate, so whatever the scrubber leaves the gate cannot call a leak, and
  // whatever the gate calls a leak the scrubber removes.
  static const text::Regex path(R"((?:file://)?/(?:root|home|Users)/[\w.+-]+(?:/[\w.+-]*)*)");
  static const text::Regex email(R"((?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b)");
  static const text::Regex markdown(markdown_page_pattern());
  static const std::vector<LeakShape> shapes = {
      {"absolute path", "a local path", &path, {"/root/", "/home/", "/Users/"}},
      {"email", "an address", &email, {"@"}},
      {"markdown page", "a document", &markdown, {".md"}},
  };
  return shapes;
}

bool LeakShape::may_occur_in(std::string_view text) const {
  return needles.empty() ||
         std::any_of(needles.begin(), needles.end(), [&](std::string_view n) { return text::contains(text, n); });
}

const text::Regex &version_id_regex() {
  // Bounded by anything but a letter or a digit: '_' too, so a version id
  // inside a name (`v289_ncu_full`, a capture directory's; `kernel_v3.py`)
  // is one (issue 27). Not a dotted release number ("Triton v3.1", "CUDA
  // v12.4"): that is a toolchain, which a record may well name.
  static const text::Regex r(R"((?<![^\W_])[vV]\d+(?![^\W_])(?!\.\d))");
  return r;
}

const text::Regex &workload_hash_regex() {
  static const text::Regex r(R"(\b(?=[0-9a-f]{8}\b)(?=[0-9a-f]*[a-f])[0-9a-f]{8}\b)");
  return r;
}

bool is_vector_width(std::string_view text, std::size_t begin, std::size_t end) {
  static const text::Regex width(R"(^[vV](?:2|4|8|16|32|64|100)$)");
  static const text::Regex context(R"((?i)vec|\.f16|\.bf16|x2|float)");
  if (!width.search(text.substr(begin, end - begin))) return false;
  // 12 code points either side, clamped.
  std::size_t lo = begin, hi = end;
  for (int i = 0; i < 12 && lo > 0; ++i) {
    --lo;
    while (lo > 0 && (static_cast<unsigned char>(text[lo]) & 0xC0) == 0x80) --lo;
  }
  for (int i = 0; i < 12 && hi < text.size(); ++i) {
    ++hi;
    while (hi < text.size() && (static_cast<unsigned char>(text[hi]) & 0xC0) == 0x80) ++hi;
  }
  return context.search(text.substr(lo, hi - lo)).has_value();
}

bool is_mnemonic_segment(std::string_view text, std::size_t begin, std::size_t end) {
  // PTX types, and the state spaces, cache operators and instruction stems
  // a vector width sits between in `ld.global.nc.v4.f32`.
  static const std::string types = "[bfsu](?:8|16|32|64|128)|f16x2|bf16|bf16x2|tf32|e4m3|e5m2|pred";
  static const text::Regex ptx_word("(?i)^(?:ld|ldu|st|red|atom|cp|async|bulk|tensor|global|shared|local|const|"
                                    "param|nc|ca|cg|cs|lu|cv|wb|wt|relaxed|acquire|release|volatile|weak|l1|l2|" +
                                    types + ")$");
  static const text::Regex dotted_type("^\\.(?:" + types + ")\\b");
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  if (begin > 0 && text[begin - 1] == '.') return true;
  if (dotted_type.search(text.substr(end))) return true;
  if (begin > 1 && text[begin - 1] == '-') {
    std::size_t b = begin - 1;
    while (b > 0 && alnum(text[b - 1])) --b;
    if (ptx_word.search(text.substr(b, begin - 1 - b))) return true;
  }
  if (end + 1 < text.size() && text[end] == '-') {
    std::size_t e = end + 1;
    while (e < text.size() && alnum(text[e])) ++e;
    if (ptx_word.search(text.substr(end + 1, e - end - 1))) return true;
  }
  // The width at the end of a helper named after its mnemonic, `ld_nc_v4`,
  // `st_cs_v4`, `ld_evict_first_v4` (stop 44: scrubbed to "ld_nc_an earlier
  // step"): a part of the identifier is a load or store stem or a cache
  // operator.
  static const text::Regex stem("(?i)^(?:ld|ldg|ldu|st|stg|nc|ca|cg|cs|lu|cv|evict)$");
  if (begin > 1 && text[begin - 1] == '_' && (end == text.size() || !(alnum(text[end]) || text[end] == '_'))) {
    std::size_t b = begin - 1;
    while (b > 0 && (alnum(text[b - 1]) || text[b - 1] == '_')) --b;
    std::string_view name = text.substr(b, begin - 1 - b);
    for (std::size_t i = 0; i <= name.size();) {
      std::size_t j = std::min(name.find('_', i), name.size());
      if (j > i && stem.search(name.substr(i, j - i))) return true;
      i = j + 1;
    }
  }
  return false;
}

bool is_api_name_version(std::string_view text, std::size_t begin, std::size_t end) {
  // The identifier the match ends: `mma_v2`, `mma_v3` (Triton's and Gluon's
  // MMA generations, `gl.nvidia.ampere.mma_v2`), where `_` bounded a version id.
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  if (begin == 0 || text[begin - 1] != '_' || (end < text.size() && ident(text[end]))) return false;
  std::size_t b = begin - 1;
  while (b > 0 && ident(text[b - 1])) --b;
  static const text::Regex api(R"((?i)^(?:\w+_)?mma_$)");
  return api.contains(text.substr(b, begin - b));
}

bool is_model_generation(std::string_view text, std::size_t begin, std::size_t) {
  // `DeepSeek-V3`, `DeepSeek-V2-Lite`: a capital V after a hyphen ending a
  // capitalised name (stop 44: "DeepSeek-An earlier step linear layers").
  if (begin < 2 || text[begin] != 'V' || text[begin - 1] != '-') return false;
  std::size_t b = begin - 1;
  while (b > 0 && std::isalpha(static_cast<unsigned char>(text[b - 1]))) --b;
  return b < begin - 1 && std::isupper(static_cast<unsigned char>(text[b]));
}

bool is_version_id(std::string_view text, std::size_t begin, std::size_t end) {
  return !is_vector_width(text, begin, end) && !is_mnemonic_segment(text, begin, end) &&
         !is_api_name_version(text, begin, end) && !is_model_generation(text, begin, end);
}

bool may_hold_version_id(std::string_view text) {
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] != 'v' && text[i] != 'V') continue;
    auto next = static_cast<unsigned char>(text[i + 1]);
    if ((next >= '0' && next <= '9') || next >= 0x80) return true;
  }
  return false;
}

bool may_hold_workload_hash(std::string_view text) {
  // A match's neighbours are not word characters, so not hex digits: the
  // run of hex digits around a match is the match itself.
  std::size_t run = 0;
  bool letter = false;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : '\0';
    bool digit = c >= '0' && c <= '9', hex_letter = c >= 'a' && c <= 'f';
    if (digit || hex_letter) {
      ++run;
      letter = letter || hex_letter;
      continue;
    }
    if (run == 8 && letter) return true;
    run = 0;
    letter = false;
  }
  return false;
}

std::vector<text::Match> version_ids(std::string_view text) {
  std::vector<text::Match> out;
  if (!may_hold_version_id(text)) return out;
  for (auto &m : version_id_regex().find_all(text))
    if (is_version_id(text, m.begin, m.end)) out.push_back(std::move(m));
  return out;
}

std::string replace_version_ids(std::string_view text, const std::function<std::string(std::string_view)> &with) {
  std::string out;
  std::size_t last = 0;
  for (const auto &m : version_ids(text)) {
    out.append(text.substr(last, m.begin - last));
    out += with(m[0]);
    last = m.end;
  }
  out.append(text.substr(last));
  return out;
}

std::vector<Leak> find_leaks(std::string_view text, bool strict, const text::Regex *denylist) {
  std::vector<Leak> out;
  for (const auto &shape : store_leak_shapes())
    if (shape.may_occur_in(text))
      for (const auto &m : shape.regex->find_all(text)) out.push_back({shape.label, std::string(m[0])});
  if (strict) {
    for (const auto &m : version_ids(text)) out.push_back({"version id", std::string(m[0])});
    if (may_hold_workload_hash(text))
      for (const auto &m : workload_hash_regex().find_all(text)) out.push_back({"workload hash", std::string(m[0])});
  }
  if (denylist)
    for (const auto &m : denylist->find_all(text)) out.push_back({"private denylist", std::string(m[0])});
  return out;
}

} // namespace otm::record
