#include "trace/families.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::trace {
namespace {

using text::Regex;

bool is_container_segment(std::string_view lower) {
  static const std::array<std::string_view, 19> kSegments = {
      "root", "home", "users", "user", "workspace", "work", "projects", "project", "src",    "repos",
      "repo", "code", "tmp",   "mnt",  "data",      "opt",  "traces",   "trace",   "kernels"};
  return std::find(kSegments.begin(), kSegments.end(), lower) != kSegments.end();
}

bool is_stop_word(std::string_view w) {
  static const std::array<std::string_view, 9> kStop = {"with", "and", "the", "a", "of", "for", "to", "using", "based"};
  return std::find(kStop.begin(), kStop.end(), w) != kStop.end();
}

std::string_view abbreviation(std::string_view w) {
  static const std::array<std::pair<std::string_view, std::string_view>, 22> kAbbrev = {{
      {"attention", "attn"},      {"convolution", "conv"},  {"backward", "bwd"},        {"residual", "res"},
      {"forward", "fwd"},         {"distribution", "dist"}, {"projection", "proj"},     {"hypernetwork", "hypernet"},
      {"embedding", "embed"},     {"aggregation", "agg"},   {"normalization", "norm"},  {"accumulation", "accum"},
      {"position", "pos"},        {"variable", "var"},      {"positional", "pos"},      {"sequence", "seq"},
      {"computation", "compute"}, {"generation", "gen"},    {"calculation", "compute"}, {"preparation", "prep"},
      {"multihead", "mha"},       {"multimodal", "mm"},
  }};
  for (const auto &[word, abbr] : kAbbrev)
    if (word == w) return abbr;
  return w;
}

std::vector<std::string> split_nonempty(std::string_view s, const Regex &sep) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  for (const auto &m : sep.find_all(s)) {
    if (m.begin > pos) out.emplace_back(s.substr(pos, m.begin - pos));
    pos = m.end;
  }
  if (pos < s.size()) out.emplace_back(s.substr(pos));
  return out;
}

struct FamilyRule {
  const char *family;
  std::vector<const char *> keys;
};

const std::vector<FamilyRule> &family_rules() {
  static const std::vector<FamilyRule> kRules = {
      {"mask-index",
       {"mask_prep", "attention_mask", "hybrid_attention_mask", "scatter", "gather", "index_add", "token_repeat",
        "position_computation", "grid_based_indexing", "cu_seqlens_var"}},
      // otm (issue 25, kit 23): a token router (`topk_softmax_router`) is
      // MoE routing, which its softmax otherwise filed under norm.
      {"moe", {"moe", "expert", "topk_routing", "group_limited", "router"}},
      {"rope", {"rope", "rotary", "inverse_frequency", "position_embedding_generation", "multi_axis_rope", "yarn"}},
      {"norm",
       {"rmsnorm", "rms_norm", "layernorm", "layer_norm", "groupnorm", "group_norm", "instance_normalization", "grn",
        "altup", "modulation"}},
      {"ssm-linear-attention",
       {"mamba", "ssm", "selective_scan", "segsum", "hyena", "gated_delta", "gdn", "linear_attention", "chunk_scan",
        "fft", "rfft", "residual_coupling", "flow_block"}},
      {"decoder-layer",
       {"decoder_layer", "decoder_complete", "encoder_layer", "transformer_block", "joint_transformer", "full_block",
        "complete_forward", "layer_stack", "residual_path", "prenorm", "text_decoder_layer", "language_model_decoder"}},
      {"conv-vision",
       {"conv", "vae", "resnet", "unet", "convnext", "patch_embed", "upsample", "pyramid", "downsampling", "denoising",
        "window_partition"}},
      {"attention",
       {"attention", "attn", "gqa", "mla", "flash_attn", "prefill", "decode", "softmax_dropout", "qk_norm",
        "two_way_transformer"}},
      {"gemm-projection",
       {"gemm", "gemv", "matmul", "projection", "lm_head", "linear", "hypernetwork", "cublas", "cutlass_gemm"}},
      {"mlp-activation", {"mlp", "swiglu", "gelu", "silu", "ffn", "feedforward", "activation"}},
      // otm (issue 25): a row softmax is a row normalisation (max, sum,
      // divide), not an MLP activation, which reviewers read as wrong; last,
      // so `softmax_dropout` stays attention. A GEMV (above) is a projection.
      {"norm", {"softmax"}},
  };
  return kRules;
}

// Tokens for family matching: runs of letters and runs of digits, so that
// `conv1d` yields `conv`, `1`, `d` and `h4096` yields `h`, `4096`. Bytes of
// non-ASCII characters count as letters.
std::vector<std::string> family_tokens(std::string_view lower) {
  std::vector<std::string> out;
  auto kind = [](unsigned char c) {
    if (c >= '0' && c <= '9') return 1;
    if ((c >= 'a' && c <= 'z') || c >= 0x80) return 2;
    return 0;
  };
  std::string cur;
  int cur_kind = 0;
  for (unsigned char c : lower) {
    int k = kind(c);
    if (k != cur_kind && !cur.empty()) {
      out.push_back(cur);
      cur.clear();
    }
    cur_kind = k;
    if (k) cur.push_back(static_cast<char>(c));
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// A key matches when its tokens occur contiguously in the name's tokens; the
// last key token may carry a plural "s" (`experts`).
bool key_matches(const std::vector<std::string> &name, const std::vector<std::string> &key) {
  if (key.empty() || key.size() > name.size()) return false;
  for (std::size_t i = 0; i + key.size() <= name.size(); ++i) {
    bool ok = true;
    for (std::size_t j = 0; ok && j < key.size(); ++j) {
      const std::string &t = name[i + j];
      ok = t == key[j] || (j + 1 == key.size() && t.size() == key[j].size() + 1 && t.back() == 's' &&
                           t.compare(0, key[j].size(), key[j]) == 0);
    }
    if (ok) return true;
  }
  return false;
}

} // namespace

std::string normalise(std::string_view name) {
  static const Regex lead("^[-_.]+");
  static const Regex campaign("^.*?kernel[-_]opt[-_]\\d+[-_]");
  static const Regex kernel_opt("^kernel_opt_\\d+_");
  static const Regex counter("^\\d+[-_]");
  static const Regex nonword("[^\\w]+");
  std::string s = lead.replace(name, "");
  s = campaign.replace(s, "");
  s = kernel_opt.replace(s, "");
  s = counter.replace(s, "");
  s = nonword.replace(s, "_");
  s = std::string(text::strip_chars(s, "_"));
  std::vector<std::string> parts;
  std::size_t pos = 0;
  while (true) {
    auto us = s.find('_', pos);
    parts.push_back(s.substr(pos, us == std::string::npos ? std::string::npos : us - pos));
    if (us == std::string::npos) break;
    pos = us + 1;
  }
  std::size_t first = 0;
  while (parts.size() - first > 1 && is_container_segment(text::to_lower(parts[first]))) ++first;
  std::string out;
  for (std::size_t i = first; i < parts.size(); ++i) {
    if (i > first) out += '_';
    out += parts[i];
  }
  return out;
}

std::string slugify(std::string_view op_name) {
  std::string name = op_name.empty() ? std::string("unknown") : std::string(op_name);
  // Case-insensitive so `GEMM_N4096_K4096` merges like `gemm_n4096_k4096`.
  static const std::vector<std::pair<Regex, const char *>> kMerge = [] {
    std::vector<std::pair<Regex, const char *>> v;
    v.emplace_back(Regex("(?i)^gemm_n\\d+_k\\d+$"), "dense-gemm-shape-sweep");
    v.emplace_back(Regex("(?i)^(fused_add_)?rmsnorm_h\\d+$"), "rmsnorm-and-fused-add-rmsnorm");
    v.emplace_back(Regex("(?i)^gqa_paged_decode_"), "gqa-paged-decode");
    v.emplace_back(Regex("(?i)^gqa_paged_prefill_"), "gqa-paged-prefill-causal");
    v.emplace_back(Regex("(?i)^gqa_ragged_prefill_"), "gqa-ragged-prefill-causal");
    v.emplace_back(Regex("(?i)^mla_paged_decode_"), "mla-paged-decode");
    v.emplace_back(Regex("(?i)^mla_paged_prefill_"), "mla-paged-prefill-causal");
    v.emplace_back(Regex("(?i)^moe_fp8_block_scale_"), "moe-fp8-block-scale-routing");
    return v;
  }();
  for (const auto &[re, slug] : kMerge)
    if (re.match(name)) return slug;
  static const Regex sep("[_\\-]+");
  static const Regex digits("^\\d+$");
  std::vector<std::string> words;
  for (auto &w : split_nonempty(text::to_lower(name), sep)) {
    // The slug becomes part of ids and paths: ASCII letters and digits only
    // (other characters are dropped; ingest warns when that happens).
    std::erase_if(w, [](char c) {
      return static_cast<unsigned char>(c) >= 0x80 || !std::isalnum(static_cast<unsigned char>(c));
    });
    if (w.empty() || digits.match(w)) continue;
    std::string a(abbreviation(w));
    if (is_stop_word(a)) continue;
    words.push_back(std::move(a));
  }
  if (words.empty()) return "unknown";
  std::string out;
  for (std::size_t i = 0; i < words.size() && i < 5; ++i) {
    if (i) out += '-';
    out += words[i];
  }
  return out;
}

std::string family_of(std::string_view op_name) {
  auto tokens = family_tokens(text::to_lower(op_name));
  for (const auto &rule : family_rules())
    for (const char *key : rule.keys)
      if (key_matches(tokens, family_tokens(key))) return rule.family;
  return "misc";
}

std::string technique_tag(std::string_view text_in, std::size_t limit) {
  static const Regex sep("[^a-z0-9]+");
  std::vector<std::string> words;
  for (auto &w : split_nonempty(text::to_lower(text_in), sep))
    if (!is_stop_word(w)) words.push_back(std::move(w));
  std::string joined;
  for (std::size_t i = 0; i < words.size() && i < 4; ++i) {
    if (i) joined += '-';
    joined += words[i];
  }
  std::string out(text::rstrip_chars(text::prefix_code_points(joined, limit), "-"));
  return out.empty() ? "unnamed" : out;
}

const std::vector<std::string> &family_vocabulary() {
  static const std::vector<std::string> kVocabulary = {
      "attention", "conv-vision", "decoder-layer", "gemm-projection",      "mask-index", "misc", "mlp-activation",
      "moe",       "norm",        "rope",          "ssm-linear-attention", "any"};
  return kVocabulary;
}

std::vector<std::string> emittable_families() {
  std::vector<std::string> out;
  for (const auto &r : family_rules())
    if (std::find(out.begin(), out.end(), r.family) == out.end()) out.emplace_back(r.family);
  out.emplace_back("misc");
  return out;
}

} // namespace otm::trace
