#include "text_maker.hpp"

#include <vector>

namespace otm::bench {

namespace {

const std::vector<std::string> &nouns() {
  static const std::vector<std::string> w = {
      "tile",      "warp",       "register", "accumulator", "epilogue", "prologue",  "pipeline",   "stage",
      "operand",   "fragment",   "barrier",  "buffer",      "stride",   "layout",    "mask",       "reduction",
      "scheduler", "grid",       "block",    "lane",        "loop",     "predicate", "copy",       "prefetch",
      "cache",     "bank",       "swizzle",  "scale",       "exponent", "mantissa",  "head",       "token",
      "expert",    "router",     "gate",     "norm",        "row",      "column",    "vector",     "matrix",
      "kernel",    "launch",     "wave",     "queue",       "fence",    "counter",   "descriptor", "workspace",
      "partition", "checkpoint", "sweep",    "occupancy",   "spill",    "footprint", "shape",      "batch"};
  return w;
}
const std::vector<std::string> &verbs() {
  static const std::vector<std::string> w = {
      "loads",    "stores",   "fuses",      "splits",    "overlaps",   "hides",  "reorders",   "streams",
      "caches",   "stages",   "vectorises", "unrolls",   "transposes", "packs",  "unpacks",    "broadcasts",
      "reduces",  "rescales", "masks",      "schedules", "pins",       "shares", "prefetches", "drains",
      "balances", "shrinks",  "widens",     "narrows",   "keeps",      "moves"};
  return w;
}
const std::vector<std::string> &adjectives() {
  static const std::vector<std::string> w = {
      "shared",   "persistent", "async",  "wide",      "narrow",   "fused",      "split",     "double-buffered",
      "small",    "large",      "ragged", "quantised", "blocked",  "contiguous", "strided",   "warp-level",
      "per-row",  "per-head",   "tiled",  "padded",    "unpadded", "transposed", "coalesced", "partial",
      "low-rank", "grouped",    "dense",  "sparse",    "cold",     "hot"};
  return w;
}
const std::vector<std::string> &connectors() {
  static const std::vector<std::string> w = {"so that", "because",  "while", "before", "after",
                                             "when",    "and then", "which", "until",  "since"};
  return w;
}

std::string word(Random &rng) {
  switch (rng.below(4)) {
  case 0: return rng.pick(verbs());
  case 1: return rng.pick(adjectives());
  default: return rng.pick(nouns());
  }
}

std::string sentence(Random &rng) {
  std::string s =
      "The " + rng.pick(adjectives()) + " " + rng.pick(nouns()) + " " + rng.pick(verbs()) + " the " + rng.pick(nouns());
  std::size_t clauses = rng.below(3);
  for (std::size_t c = 0; c < clauses; ++c) {
    s += " " + rng.pick(connectors()) + " the " + rng.pick(adjectives()) + " " + rng.pick(nouns()) + " " +
         rng.pick(verbs()) + " " + std::to_string(2 + rng.below(254)) + " " + rng.pick(nouns()) + "s";
  }
  if (rng.chance(20)) s += ", saving " + std::to_string(1 + rng.below(60)) + "% of the " + rng.pick(nouns()) + " work";
  return s + ".";
}

std::string identifier(Random &rng) { return rng.pick(nouns()) + "_" + std::to_string(rng.below(16)); }

std::string python_line(Random &rng) {
  std::string indent(4 * (1 + rng.below(3)), ' ');
  switch (rng.below(6)) {
  case 0:
    return indent + identifier(rng) + " = tl.load(" + identifier(rng) + " + offs * " + identifier(rng) +
           ", mask=" + identifier(rng) + ")";
  case 1:
    return indent + "tl.store(" + identifier(rng) + " + offs, " + identifier(rng) + ", mask=" + identifier(rng) + ")";
  case 2: return indent + identifier(rng) + " = tl.dot(" + identifier(rng) + ", " + identifier(rng) + ", acc)";
  case 3: return indent + "for " + identifier(rng) + " in range(0, " + std::to_string(16 << rng.below(5)) + "):";
  case 4: return indent + "# " + phrase(rng, 3 + rng.below(6));
  default:
    return indent + identifier(rng) + " = " + identifier(rng) + " * " + identifier(rng) + " + " +
           std::to_string(rng.below(9));
  }
}

std::string cpp_line(Random &rng) {
  std::string indent(2 * (1 + rng.below(3)), ' ');
  switch (rng.below(6)) {
  case 0:
    return indent + "float " + identifier(rng) + " = " + identifier(rng) + "[threadIdx.x + " +
           std::to_string(32 * rng.below(8)) + "];";
  case 1: return indent + identifier(rng) + "[lane] = " + identifier(rng) + ";";
  case 2: return indent + "__syncthreads();";
  case 3:
    return indent + "for (int " + identifier(rng) + " = 0; " + identifier(rng) + " < " +
           std::to_string(4 << rng.below(5)) + "; ++" + identifier(rng) + ") {";
  case 4: return indent + "// " + phrase(rng, 3 + rng.below(6));
  default: return indent + identifier(rng) + " += " + identifier(rng) + " * " + identifier(rng) + ";";
  }
}

} // namespace

std::string prose(Random &rng, std::size_t length) {
  std::string out = sentence(rng);
  while (out.size() < length) out += " " + sentence(rng);
  return out;
}

std::string phrase(Random &rng, std::size_t words) {
  std::string out;
  for (std::size_t i = 0; i < words; ++i) out += (i ? " " : "") + word(rng);
  return out;
}

std::string slug(Random &rng, std::size_t words) {
  std::string out;
  for (std::size_t i = 0; i < words; ++i) {
    std::string w = rng.pick(rng.chance(50) ? nouns() : adjectives());
    out += (i ? "-" : "") + w;
  }
  return out;
}

std::string code(Random &rng, std::size_t length, bool python, bool diff) {
  std::string out;
  std::size_t line_no = 1 + rng.below(400);
  while (out.size() < length) {
    if (diff) {
      std::size_t lines = 3 + rng.below(8);
      out += "@@ -" + std::to_string(line_no) + "," + std::to_string(lines) + " +" + std::to_string(line_no) + "," +
             std::to_string(lines) + " @@\n";
      for (std::size_t i = 0; i < lines; ++i) {
        const char *mark = i % 3 == 1 ? "-" : i % 3 == 2 ? "+" : " ";
        out += mark + (python ? python_line(rng) : cpp_line(rng)) + "\n";
      }
      line_no += lines + rng.below(40);
    } else {
      out += (python ? python_line(rng) : cpp_line(rng)) + "\n";
    }
  }
  return out;
}

} // namespace otm::bench
