#include "tracegen/kernel_source.hpp"

#include <vector>

namespace otm::tracegen {

namespace {

struct Lines {
  std::vector<std::string> v;
  void add(unsigned indent, const std::string &s) { v.push_back(std::string(indent, ' ') + s); }
  void raw(const std::string &s) { v.push_back(s); }
  std::string text() const {
    std::string out;
    for (const auto &l : v) out += l + "\n";
    return out;
  }
};

bool has_word(const std::string &name, const char *w) { return name.find(w) != std::string::npos; }

std::string header_docstring(const OperatorSpec &op, const KernelState &s) {
  std::string d = "\"\"\"" + op.what + " (generated trace for otm tests).\n\nTuning log: " + s.tuning_note + "\n";
  if (!s.docs_note.empty()) d += "\n" + s.docs_note + "\n";
  if (!s.doc_quote.empty()) d += "\n" + s.doc_quote + "\n";
  return d + "\"\"\"\n";
}

// A module constant nothing reads, under the comment that names it.
void tune_constant(Lines &L, const KernelState &s) {
  if (!s.tune_comment.empty()) L.raw("# " + s.tune_comment);
  if (s.tune_id) L.raw("_TUNE_ID = " + std::to_string(s.tune_id));
}

// What the uncalled helper computes, by the operator's kind.
void uncalled_python(Lines &L, const OperatorSpec &op, const KernelState &s) {
  if (s.uncalled_fn.empty()) return;
  if (op.kind == OpKind::RowNorm) {
    L.raw("def " + s.uncalled_fn + "(x: torch.Tensor, residual: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:");
    L.add(4, "\"\"\"" + s.uncalled_claim + "\"\"\"");
    L.add(4, "h = x + residual");
    L.add(4, "return h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps)");
  } else if (op.kind == OpKind::RowSoftmax) {
    L.raw("def " + s.uncalled_fn + "(x: torch.Tensor, scale: float) -> torch.Tensor:");
    L.add(4, "\"\"\"" + s.uncalled_claim + "\"\"\"");
    L.add(4, "return torch.softmax(x * scale, dim=-1)");
  } else {
    L.raw("def " + s.uncalled_fn + "(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:");
    L.add(4, "\"\"\"" + s.uncalled_claim + "\"\"\"");
    bool silu = has_word(op.name, "silu") || has_word(op.name, "swish");
    L.add(4, std::string("return torch.nn.functional.") + (silu ? "silu" : "gelu") + "(x + bias)");
  }
  L.raw("");
  L.raw("");
}

// ---- Triton and Gluon: one template, two namespaces ----

struct PyDsl {
  bool gluon;
  const char *ns() const { return gluon ? "gl" : "tl"; }
  std::string c(const std::string &what) const { return std::string(ns()) + "." + what; }
};

std::string load_expr(const PyDsl &d, const OperatorSpec &op, const KernelState &s, const std::string &offset) {
  std::string addr = "x_ptr + row * stride + " + offset;
  std::string other = op.kind == OpKind::RowSoftmax ? "-float(\"inf\")" : "0.0";
  std::string e = d.c("load(") + addr;
  if (!s.mask_free) e += ", mask=" + offset + " < N_COLS, other=" + other;
  if (s.load_cache == ".cg") e += ", cache_modifier=\".cg\"";
  if (s.evict_first) e += ", eviction_policy=\"evict_first\"";
  return e + ").to(" + d.c("float32") + ")";
}

std::string store_stmt(const PyDsl &d, const KernelState &s, const std::string &offset, const std::string &value) {
  std::string e = d.c("store(") + "y_ptr + row * stride + " + offset + ", (" + value + ").to(y_ptr.dtype.element_ty)";
  if (!s.mask_free) e += ", mask=" + offset + " < N_COLS";
  if (s.streaming_store) e += ", cache_modifier=\".cs\"";
  return e + ")";
}

std::string norm_expr(const PyDsl &d, const KernelState &s) {
  std::string mean = s.mean_by_multiply ? "acc * INV_N_COLS + eps" : "acc / N_COLS + eps";
  if (s.fast_math) return d.c("math.rsqrt_approx(" + mean + ")");
  if (s.reciprocal) return d.c("rsqrt(" + mean + ")");
  return "1.0 / " + d.c("sqrt(" + mean + ")");
}

std::string exp_expr(const PyDsl &d, const KernelState &s, const std::string &arg) {
  return s.fast_math ? d.c("extra.cuda.libdevice.fast_expf(" + arg + ")") : d.c("exp(" + arg + ")");
}

std::string elementwise_expr(const PyDsl &d, const OperatorSpec &op, const KernelState &s) {
  if (has_word(op.name, "silu") || has_word(op.name, "swish"))
    return s.fast_math ? "x * " + d.c("sigmoid(x)") : "x / (1.0 + " + d.c("exp(-x))");
  if (s.fast_math) return "0.5 * x * (1.0 + " + d.c("math.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))");
  return "0.5 * x * (1.0 + " + d.c("erf(x * 0.7071067811865476))");
}

void row_body(Lines &L, unsigned in, const PyDsl &d, const OperatorSpec &op, const KernelState &s) {
  bool one = s.single_pass || op.kind == OpKind::Elementwise;
  std::string off = one ? "cols" : "off + cols";
  auto tile_loop = [&](unsigned at) { L.add(at, "for off in range(0, N_COLS, " + s.block_name + "):"); };
  if (op.kind == OpKind::Elementwise) {
    tile_loop(in);
    L.add(in + 4, "x = " + load_expr(d, op, s, off));
    L.add(in + 4, "y = " + elementwise_expr(d, op, s));
    L.add(in + 4, store_stmt(d, s, off, "y"));
    return;
  }
  if (op.kind == OpKind::RowNorm) {
    if (one) {
      L.add(in, "x = " + load_expr(d, op, s, off));
      L.add(in, "acc = " + d.c("sum(x * x, axis=0)"));
      L.add(in, "r = " + norm_expr(d, s));
      L.add(in, store_stmt(d, s, off, "x * r"));
      return;
    }
    L.add(in, "acc = 0.0");
    tile_loop(in);
    L.add(in + 4, "x = " + load_expr(d, op, s, off));
    L.add(in + 4, "acc += " + d.c("sum(x * x, axis=0)"));
    L.add(in, "r = " + norm_expr(d, s));
    tile_loop(in);
    L.add(in + 4, "x = " + load_expr(d, op, s, off));
    L.add(in + 4, store_stmt(d, s, off, "x * r"));
    return;
  }
  // RowSoftmax
  std::string out = s.reciprocal ? "e * inv" : "e / s";
  if (one) {
    L.add(in, "x = " + load_expr(d, op, s, off));
    L.add(in, "m = " + d.c("max(x, axis=0)"));
    L.add(in, "e = " + exp_expr(d, s, "x - m"));
    L.add(in, "s = " + d.c("sum(e, axis=0)"));
    if (s.reciprocal) L.add(in, "inv = 1.0 / s");
    L.add(in, store_stmt(d, s, off, out));
    return;
  }
  L.add(in, "m = -float(\"inf\")");
  L.add(in, "s = 0.0");
  tile_loop(in);
  L.add(in + 4, "x = " + load_expr(d, op, s, off));
  L.add(in + 4, "m_new = " + d.c("maximum(m, ") + d.c("max(x, axis=0))"));
  L.add(in + 4,
        "s = s * " + exp_expr(d, s, "m - m_new") + " + " + d.c("sum(") + exp_expr(d, s, "x - m_new") + ", axis=0)");
  L.add(in + 4, "m = m_new");
  if (s.reciprocal) L.add(in, "inv = 1.0 / s");
  tile_loop(in);
  L.add(in + 4, "x = " + load_expr(d, op, s, off));
  L.add(in + 4, "e = " + exp_expr(d, s, "x - m"));
  L.add(in + 4, store_stmt(d, s, off, out));
}

std::string render_python(const PyDsl &d, const OperatorSpec &op, const KernelState &s, unsigned revision) {
  Lines L;
  L.raw(header_docstring(op, s) + "# revision " + std::to_string(revision));
  L.raw("import torch");
  if (d.gluon) {
    L.raw("from triton.experimental import gluon");
    L.raw("from triton.experimental.gluon import language as gl");
  } else {
    L.raw("import triton");
    L.raw("import triton.language as tl");
  }
  L.raw("");
  L.raw("N_COLS = " + std::to_string(op.n_cols));
  if (s.mean_by_multiply) L.raw("INV_N_COLS = 1.0 / N_COLS");
  if (!s.claim_comment.empty() && !s.claim_at_wrapper) L.raw("# " + s.claim_comment);
  L.raw("_WARMUP = " + std::to_string(s.warmup));
  tune_constant(L, s);
  if (s.persistent) L.raw("NUM_SMS = torch.cuda.get_device_properties(0).multi_processor_count");
  L.raw("");
  L.raw("");
  L.raw(d.gluon ? "@gluon.jit" : "@triton.jit");
  std::string k = kernel_name(op);
  std::string params = "x_ptr, y_ptr, n_rows, stride, eps, " + s.block_name + ": " + d.c("constexpr") +
                       ", ROWS_PER_PROG: " + d.c("constexpr");
  if (d.gluon) params += ", num_warps: gl.constexpr";
  L.raw("def " + k + "(" + params + "):");
  if (!s.note_comment.empty()) L.add(4, "# " + s.note_comment);
  if (d.gluon) {
    L.add(4, "layout: gl.constexpr = gl.BlockedLayout([" + std::to_string(s.vec) + "], [32], [num_warps], [0])");
    L.add(4, "cols = gl.arange(0, " + s.block_name + ", layout=layout)");
  } else {
    L.add(4, "cols = tl.arange(0, " + s.block_name + ")");
    if (s.vec > 1) {
      std::string v = std::to_string(s.vec);
      L.add(4, "cols = tl.max_contiguous(tl.multiple_of(cols, " + v + "), " + v + ")");
    }
  }
  L.add(4, "pid = " + d.c("program_id(0)"));
  if (!s.extra_comment.empty()) L.add(4, "# " + s.extra_comment);
  unsigned in = 4;
  std::string base = "pid";
  if (s.persistent) {
    L.add(in, "for row0 in range(pid * ROWS_PER_PROG, n_rows, " + d.c("num_programs(0)") + " * ROWS_PER_PROG):");
    in += 4;
    base = "row0";
  } else if (s.rows_per_prog > 1) {
    base = "pid * ROWS_PER_PROG";
  }
  if (s.rows_per_prog > 1) {
    L.add(in, "for r in range(ROWS_PER_PROG):");
    in += 4;
    L.add(in, "row = " + base + " + r");
    if (s.tail_guard) {
      L.add(in, "if row < n_rows:");
      in += 4;
    }
  } else {
    L.add(in, "row = " + base);
  }
  row_body(L, in, d, op, s);
  L.raw("");
  L.raw("");
  uncalled_python(L, op, s);
  if (!s.claim_comment.empty() && s.claim_at_wrapper) L.raw("# " + s.claim_comment);
  L.raw("def " + op.name + "(x: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:");
  L.add(4, "n_rows, n_cols = x.shape");
  L.add(4, "assert n_cols == N_COLS");
  L.add(4, "y = torch.empty_like(x)");
  std::string rows = std::to_string(s.rows_per_prog);
  std::string programs = s.rows_per_prog == 1 ? "n_rows" : "(n_rows + " + rows + " - 1) // " + rows;
  L.add(4, std::string("grid = (") + (s.persistent ? "min(" + programs + ", NUM_SMS)" : programs) + ",)");
  L.add(4, k + "[grid](x, y, n_rows, x.stride(0), eps,");
  L.add(4 + static_cast<unsigned>(k.size()) + 7,
        s.block_name + "=" + std::to_string(s.block) + ", ROWS_PER_PROG=" + rows +
            ", num_warps=" + std::to_string(s.warps) + ", num_stages=" + std::to_string(s.stages) + ")");
  L.add(4, "return y");
  return L.text();
}

// ---- CUDA C++ in load_inline strings ----

std::string cuda_load(const KernelState &s, const std::string &at) {
  if (s.load_cache == "nc" && s.vec == 4) return "const float4 v = load_v4(" + at + ");";
  if (s.load_cache == "nc" && s.vec == 2) return "const float2 v = load_v2(" + at + ");";
  if (s.vec == 4) return "const float4 v = *reinterpret_cast<const float4*>(" + at + ");";
  if (s.vec == 2) return "const float2 v = *reinterpret_cast<const float2*>(" + at + ");";
  if (s.load_cache == "ldg") return "const float v = __ldg(" + at + ");";
  return "const float v = *(" + at + ");";
}

// f applied to every lane of v, summed ("v.x * v.x + v.y * v.y").
std::string lanes(const KernelState &s, const std::string &f) {
  auto one = [&](const std::string &x) {
    std::string out = f;
    for (std::size_t p = out.find('@'); p != std::string::npos; p = out.find('@', p + x.size())) out.replace(p, 1, x);
    return out;
  };
  if (s.vec == 1) return one("v");
  std::string out;
  const char *names[] = {"v.x", "v.y", "v.z", "v.w"};
  for (unsigned i = 0; i < s.vec; ++i) {
    if (i) out += " + ";
    out += one(names[i]);
  }
  return out;
}

// The largest of m and every lane of v.
std::string lanes_max(const KernelState &s) {
  if (s.vec == 1) return "fmaxf(m, v)";
  if (s.vec == 2) return "fmaxf(m, fmaxf(v.x, v.y))";
  return "fmaxf(fmaxf(m, fmaxf(v.x, v.y)), fmaxf(v.z, v.w))";
}

std::string render_cuda(const OperatorSpec &op, const KernelState &s, unsigned revision) {
  Lines L;
  std::string k = kernel_name(op);
  L.raw(header_docstring(op, s) + "# revision " + std::to_string(revision));
  L.raw("import torch");
  L.raw("from torch.utils.cpp_extension import load_inline");
  L.raw("");
  L.raw("_WARMUP = " + std::to_string(s.warmup));
  tune_constant(L, s);
  L.raw("");
  L.raw("cuda_src = r\"\"\"");
  L.raw("#include <cuda_runtime.h>");
  L.raw("#include <torch/extension.h>");
  L.raw("");
  L.raw("#define THREADS " + std::to_string(s.block));
  L.raw("#define VEC " + std::to_string(s.vec));
  L.raw("#define UNROLL " + std::to_string(s.stages));
  L.raw("#define MIN_BLOCKS " + std::to_string(s.warps));
  L.raw("#define N_COLS " + std::to_string(op.n_cols));
  if (s.mean_by_multiply) L.raw("#define INV_N_COLS (1.0f / N_COLS)");
  L.raw("");
  if (s.load_cache == "nc" && s.vec == 4) {
    L.raw("// 128-bit read-only loads: one instruction per four floats");
    L.raw("__device__ __forceinline__ float4 load_v4(const float* p) {");
    L.add(4, "float4 v;");
    L.add(4, "asm volatile(\"ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];\"");
    L.add(17, ": \"=f\"(v.x), \"=f\"(v.y), \"=f\"(v.z), \"=f\"(v.w) : \"l\"(p));");
    L.add(4, "return v;");
    L.raw("}");
    L.raw("");
  } else if (s.load_cache == "nc" && s.vec == 2) {
    L.raw("// 64-bit read-only loads: one instruction per two floats");
    L.raw("__device__ __forceinline__ float2 load_v2(const float* p) {");
    L.add(4, "float2 v;");
    L.add(4, "asm volatile(\"ld.global.nc.v2.f32 {%0, %1}, [%2];\" : \"=f\"(v.x), \"=f\"(v.y) : \"l\"(p));");
    L.add(4, "return v;");
    L.raw("}");
    L.raw("");
  }
  if (!s.uncalled_fn.empty()) {
    L.raw("// " + s.uncalled_claim);
    L.raw("__device__ __forceinline__ float " + s.uncalled_fn + "(float x, float r) {");
    L.add(4, "return x + r;");
    L.raw("}");
    L.raw("");
  }
  // The block-wide reduction: warp shuffles, or a shared-memory tree.
  L.raw("__device__ float block_reduce(float v, float* partial, bool take_max) {");
  if (s.warp_shuffle) {
    L.add(4, "for (int o = 16; o > 0; o >>= 1) {");
    L.add(8, "const float w = __shfl_xor_sync(0xffffffff, v, o);");
    L.add(8, "v = take_max ? fmaxf(v, w) : v + w;");
    L.add(4, "}");
    L.add(4, "if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;");
    L.add(4, "__syncthreads();");
    L.add(4, "if (threadIdx.x == 0) {");
    L.add(8, "for (int w = 1; w < THREADS / 32; ++w) partial[0] = take_max ? fmaxf(partial[0], partial[w]) : "
             "partial[0] + partial[w];");
    L.add(4, "}");
  } else {
    L.add(4, "partial[threadIdx.x] = v;");
    L.add(4, "__syncthreads();");
    L.add(4, "for (int s = THREADS / 2; s > 0; s >>= 1) {");
    L.add(8, "if (threadIdx.x < s) partial[threadIdx.x] = take_max ? fmaxf(partial[threadIdx.x], partial[threadIdx.x + "
             "s]) : partial[threadIdx.x] + partial[threadIdx.x + s];");
    L.add(8, "__syncthreads();");
    L.add(4, "}");
  }
  L.add(4, "__syncthreads();");
  L.add(4, "const float out = partial[0];");
  L.add(4, "__syncthreads();");
  L.add(4, "return out;");
  L.raw("}");
  L.raw("");
  L.raw("__global__ void __launch_bounds__(THREADS, MIN_BLOCKS) " + k +
        "(const float* __restrict__ x, float* __restrict__ y, int n_rows, float eps) {");
  L.add(4, std::string("__shared__ float partial[") + (s.warp_shuffle ? "THREADS / 32" : "THREADS") + "];");
  if (!s.note_comment.empty()) L.add(4, "// " + s.note_comment);
  if (!s.extra_comment.empty()) L.add(4, "// " + s.extra_comment);
  unsigned in = 4;
  if (s.persistent) {
    L.add(in, "for (int row = blockIdx.x; row < n_rows; row += gridDim.x) {");
    in += 4;
  } else {
    L.add(in, "const int row = blockIdx.x;");
  }
  L.add(in, "const float* xr = x + (size_t)row * N_COLS;");
  L.add(in, "float* yr = y + (size_t)row * N_COLS;");
  auto vec_loop = [&](const std::string &body) {
    L.add(in, "#pragma unroll UNROLL");
    L.add(in, "for (int i = threadIdx.x * VEC; i < N_COLS; i += THREADS * VEC) {");
    L.add(in + 4, cuda_load(s, "xr + i"));
    L.add(in + 4, body);
    L.add(in, "}");
  };
  auto write = [&](const std::string &value) {
    L.add(in, "for (int i = threadIdx.x; i < N_COLS; i += THREADS) {");
    L.add(in + 4, s.streaming_store ? "__stcs(yr + i, " + value + ");" : "yr[i] = " + value + ";");
    L.add(in, "}");
  };
  if (op.kind == OpKind::RowNorm) {
    L.add(in, "float acc = 0.f;");
    vec_loop("acc += " + lanes(s, "@ * @") + ";");
    L.add(in, "acc = block_reduce(acc, partial, false);");
    std::string mean = s.mean_by_multiply ? "acc * INV_N_COLS + eps" : "acc / N_COLS + eps";
    L.add(in, "const float r = " +
                  std::string(s.fast_math    ? "__frsqrt_approx("
                              : s.reciprocal ? "rsqrtf("
                                             : "1.0f / sqrtf(") +
                  mean + ");");
    write("xr[i] * r");
  } else if (op.kind == OpKind::RowSoftmax) {
    L.add(in, "float m = -INFINITY;");
    vec_loop("m = " + lanes_max(s) + ";");
    L.add(in, "m = block_reduce(m, partial, true);");
    L.add(in, "float s = 0.f;");
    vec_loop("s += " + lanes(s, s.fast_math ? "__expf(@ - m)" : "expf(@ - m)") + ";");
    L.add(in, "s = block_reduce(s, partial, false);");
    if (s.reciprocal) L.add(in, "const float inv = 1.f / s;");
    write(std::string(s.fast_math ? "__expf" : "expf") + "(xr[i] - m)" + (s.reciprocal ? " * inv" : " / s"));
  } else {
    bool silu = has_word(op.name, "silu") || has_word(op.name, "swish");
    std::string f = silu ? (s.fast_math ? "xr[i] / (1.f + __expf(-xr[i]))" : "xr[i] / (1.f + expf(-xr[i]))")
                         : (s.fast_math ? "0.5f * xr[i] * (1.f + tanhf(0.7978845608f * xr[i]))"
                                        : "0.5f * xr[i] * (1.f + erff(xr[i] * 0.70710678f))");
    write(f);
  }
  if (s.persistent) L.add(4, "}");
  L.raw("}");
  L.raw("");
  L.raw("torch::Tensor " + op.name + "(torch::Tensor x, double eps) {");
  L.add(4, "auto y = torch::empty_like(x);");
  L.add(4, "const int n_rows = x.size(0);");
  L.add(4, std::string("const int blocks = ") + (s.persistent ? "std::min(n_rows, 132 * MIN_BLOCKS)" : "n_rows") + ";");
  L.add(4, k + "<<<blocks, THREADS>>>(x.data_ptr<float>(), y.data_ptr<float>(), n_rows, (float)eps);");
  L.add(4, "return y;");
  L.raw("}");
  L.raw("\"\"\"");
  L.raw("");
  L.raw("cpp_src = \"torch::Tensor " + op.name + "(torch::Tensor x, double eps);\"");
  L.raw("");
  L.raw("_ext = load_inline(name=\"" + op.name + "_ext\", cpp_sources=cpp_src, cuda_sources=cuda_src, functions=[\"" +
        op.name + "\"])");
  L.raw("");
  L.raw("");
  if (!s.claim_comment.empty()) L.raw("# " + s.claim_comment);
  L.raw("def " + op.name + "(x: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:");
  L.add(4, "return _ext." + op.name + "(x.contiguous(), eps)");
  return L.text();
}

} // namespace

OperatorSpec operator_spec(const std::string &name, unsigned n_cols) {
  OperatorSpec op;
  op.name = name;
  op.n_cols = n_cols;
  std::string N = std::to_string(n_cols);
  if (has_word(name, "softmax") || has_word(name, "logsumexp")) {
    op.kind = OpKind::RowSoftmax;
    op.what = "Row-wise softmax over a [M, " + N + "] float32 tensor";
  } else if (has_word(name, "norm")) {
    op.kind = OpKind::RowNorm;
    op.what = "Row-wise " + name + " over a [M, " + N + "] float32 tensor: one reduction and a rescale per row";
  } else {
    op.kind = OpKind::Elementwise;
    op.what = "Elementwise " + name + " over a [M, " + N + "] float32 tensor";
  }
  return op;
}

std::string kernel_name(const OperatorSpec &op) { return op.name + "_kernel"; }

std::string render_kernel(Dsl dsl, const OperatorSpec &op, const KernelState &s, unsigned revision) {
  switch (dsl) {
  case Dsl::Triton: return render_python(PyDsl{false}, op, s, revision);
  case Dsl::Gluon: return render_python(PyDsl{true}, op, s, revision);
  case Dsl::Cuda: return render_cuda(op, s, revision);
  }
  return {};
}

} // namespace otm::tracegen
