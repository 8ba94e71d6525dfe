#include <catch2/catch.hpp>

#include "test_paths.hpp"

#include <algorithm>
#include <set>

#include "trace/families.hpp"
#include "json/parse.hpp"

using namespace otm::trace;

namespace {
struct Example {
  const char *raw, *normalised, *slug, *family;
};
} // namespace

TEST_CASE("families.md §5 worked examples (with the two documented misfiles fixed)", "[families]") {
  const Example examples[] = {
      {"kernel_opt_12_Attention_Backward_Variable_Sequence", "Attention_Backward_Variable_Sequence", "attn-bwd-var-seq",
       "attention"},
      {"kernel-opt-3-root-foo", "foo", "foo", "misc"},
      {"007_x", "x", "x", "misc"},
      {"a_the_of_b", "a_the_of_b", "b", "misc"},
      {"attention_with_the_projection_for_the_position_embedding_generation",
       "attention_with_the_projection_for_the_position_embedding_generation", "attn-proj-pos-embed-gen", "rope"},
      {"mlp_expert_gather", "mlp_expert_gather", "mlp-expert-gather", "mask-index"},
      // The reference files these under rope (`rope` in `property`) and
      // conv-vision (`conv` in `converter`); otm matches whole tokens.
      {"tensor_property_lookup", "tensor_property_lookup", "tensor-property-lookup", "misc"},
      {"format_converter", "format_converter", "format-converter", "misc"},
  };
  for (const auto &e : examples) {
    INFO(e.raw);
    std::string n = normalise(e.raw);
    CHECK(n == e.normalised);
    CHECK(slugify(n) == e.slug);
    CHECK(family_of(n) == e.family);
  }
}

TEST_CASE("families.md §6 self-test cases", "[families]") {
  const Example cases[] = {
      {"kernel_opt_002_gqa_paged_decode_h32_kv8_d128", "", "gqa-paged-decode", "attention"},
      // Spec: mlp-activation; otm: a row softmax is a normalisation
      // (docs/differences.md), and a softmax_dropout still attention.
      {"kernel_opt_001_example_fused_softmax_h4096", "", "example-fused-softmax-h4096", "norm"},
      {"fused_softmax_dropout", "", "fused-softmax-dropout", "attention"},
      {"int4_gemv_w4a16", "", "int4-gemv-w4a16", "gemm-projection"},
      {"fused_swiglu", "", "fused-swiglu", "mlp-activation"},
      {"flash_attention", "", "flash-attn", "attention"},
      {"hyena_fft_size_padding_rfft", "", "hyena-fft-size-padding-rfft", "ssm-linear-attention"},
      {"rmsnorm_h8192", "", "rmsnorm-and-fused-add-rmsnorm", "norm"},
      {"moe_fp8_block_scale_routing_e128", "", "moe-fp8-block-scale-routing", "moe"},
      {"-root-work-traces-kernel-opt-042-causal-conv1d", "", "causal-conv1d", "conv-vision"},
      {"007", "", "unknown", "misc"},
  };
  for (const auto &c : cases) {
    INFO(c.raw);
    std::string n = normalise(c.raw);
    CHECK(slugify(n) == c.slug);
    CHECK(family_of(n) == c.family);
  }
}

TEST_CASE("normalise drops container segments but keeps the last part and case", "[families]") {
  CHECK(normalise("home_user_src_Foo_Bar") == "Foo_Bar");
  CHECK(normalise("traces") == "traces");
  CHECK(normalise("__x.y z") == "x_y_z");
  CHECK(normalise("") == "");
}

TEST_CASE("merge rules are case-insensitive", "[families]") {
  CHECK(slugify("GEMM_N4096_K4096") == "dense-gemm-shape-sweep");
  CHECK(slugify("gemm_n4096_k4096") == "dense-gemm-shape-sweep");
  CHECK(slugify("Fused_Add_RMSNorm_H4096") == "rmsnorm-and-fused-add-rmsnorm");
  CHECK(slugify("") == "unknown");
  CHECK(slugify("one_two_three_four_five_six") == "one-two-three-four-five");
}

TEST_CASE("family matching is by whole tokens, in rule order", "[families]") {
  CHECK(family_of("causal_conv1d") == "conv-vision"); // letters/digits split into tokens
  CHECK(family_of("topk_experts") == "moe");          // plural of a key
  // otm: a token router is MoE routing, though it runs a softmax (kit 23).
  CHECK(family_of("topk_softmax_router") == "moe");
  CHECK(family_of("topk_softmax") == "norm");
  CHECK(family_of("decoder_layer_fused") == "decoder-layer");
  CHECK(family_of("transcode_utils") == "misc"); // `decode` only inside a word
  CHECK(family_of("Flash_Attention_FWD") == "attention");
  CHECK(family_of("mlp_expert_gather") == "mask-index"); // rule 1 precedes rule 2
  CHECK(family_of("") == "misc");
}

TEST_CASE("technique_tag", "[families]") {
  CHECK(technique_tag("Vectorized the row loads to 128-bit for all") == "vectorized-row-loads-128");
  CHECK(technique_tag("") == "unnamed");
  CHECK(technique_tag("the and of") == "unnamed");
  CHECK(technique_tag("abcdefghij klmnopqrst uvwxyz0123 456789", 12) == "abcdefghij-k");
  CHECK(technique_tag("abcdefghij klmnop", 11) == "abcdefghij");
}

TEST_CASE("family vocabulary equals the store schema's workload_family enum", "[families][shared]") {
  OTM_REAL_STORE_OR_SKIP(wiki);
  auto schema = otm::json::parse_file(wiki / "schema/kernel/schema.json");
  const auto &e = schema.get("properties")
                      .get("retrieval")
                      .get("properties")
                      .get("generality")
                      .get("properties")
                      .get("workload_family")
                      .get("enum");
  REQUIRE(e.is_array());
  std::set<std::string> from_schema;
  for (const auto &v : *e.as_array()) from_schema.insert(*v.as_string());
  std::set<std::string> mirrored(family_vocabulary().begin(), family_vocabulary().end());
  CHECK(mirrored == from_schema);
  for (const auto &f : emittable_families()) {
    INFO(f);
    CHECK(from_schema.count(f) == 1);
  }
}
