#include "tracegen/prose.hpp"

#include <map>

namespace otm::tracegen {

namespace {

// British form -> American form.
const std::map<std::string, std::string, std::less<>> &variants() {
  static const std::map<std::string, std::string, std::less<>> v = {
      {"serialises", "serializes"},   {"serialise", "serialize"},
      {"serialised", "serialized"},   {"optimise", "optimize"},
      {"optimised", "optimized"},     {"optimisation", "optimization"},
      {"behaviour", "behavior"},      {"vectorised", "vectorized"},
      {"vectorise", "vectorize"},     {"normalise", "normalize"},
      {"normaliser", "normalizer"},   {"utilisation", "utilization"},
      {"minimises", "minimizes"},     {"amortises", "amortizes"},
      {"amortised", "amortized"},     {"favour", "favor"},
      {"centre", "center"},           {"analysed", "analyzed"},
      {"parallelise", "parallelize"}, {"recognised", "recognized"},
      {"synchronise", "synchronize"}, {"normalisation", "normalization"},
  };
  return v;
}

} // namespace

std::string Prose::fill(std::string_view t) {
  std::string out;
  std::size_t pos = 0;
  while (pos < t.size()) {
    auto open = t.find('{', pos);
    if (open == std::string_view::npos) {
      out.append(t.substr(pos));
      break;
    }
    auto close = t.find('}', open);
    if (close == std::string_view::npos) {
      out.append(t.substr(pos));
      break;
    }
    out.append(t.substr(pos, open - pos));
    auto word = t.substr(open + 1, close - open - 1);
    auto it = variants().find(word);
    if (it == variants().end()) {
      out.append(t.substr(open, close - open + 1));
    } else {
      bool british = spelling_ == Spelling::British || (spelling_ == Spelling::Mixed && rng_.chance(50));
      out += british ? it->first : it->second;
    }
    pos = close + 1;
  }
  return out;
}

std::string Prose::pick(const std::vector<std::string> &templates) {
  return fill(templates[rng_.below(templates.size())]);
}

} // namespace otm::tracegen
