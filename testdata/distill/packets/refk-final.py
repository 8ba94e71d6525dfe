import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, in_ptr, n_cols, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(in_ptr + row * n_cols + offs, mask=mask, other=-float("inf")) * scale
    m = tl.max(x, axis=0)
    e = tl.exp(x - m)

    s = tl.sum(e, axis=0)
    tl.store(out_ptr + row * n_cols + offs, e / s, mask=mask)


@triton.jit
def _helper(x):
    return x * 2


def softmax(x, scale):
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    BLOCK = min(triton.next_power_of_2(n_cols), 8192)
    softmax_kernel[(n_rows,)](out, x, n_cols, scale, BLOCK=BLOCK, num_warps=8)
    return out
