"""Fused row softmax for 4096-wide bf16 rows (fictional example trace for otm).

Gluon port: explicit layouts instead of Triton's inferred ones.
"""
import torch
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

N_COLS = gl.constexpr(4096)
NUM_SMS = torch.cuda.get_device_properties(0).multi_processor_count

@gluon.jit
def fused_softmax_gluon_kernel(x_ptr, y_ptr, n_rows, stride_x, stride_y,
                               BLOCK_N: gl.constexpr, num_warps: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([8], [32], [num_warps], [0])
    smem_layout: gl.constexpr = gl.SwizzledSharedLayout(8, 1, 4, [0])
    scratch = gl.allocate_shared_memory(gl.float32, [num_warps], smem_layout)
    bar = gl.allocate_shared_memory(gl.int64, [2, 1], gl.SwizzledSharedLayout(1, 1, 1, [1, 0]))
    buf = gl.allocate_shared_memory(gl.bfloat16, [2, BLOCK_N], gl.SwizzledSharedLayout(8, 1, 4, [1, 0]))
    pid = gl.program_id(0)
    cols = gl.arange(0, BLOCK_N, layout=layout)
    for row in range(pid, n_rows, gl.num_programs(0)):
        x = gl.load(x_ptr + row * stride_x + cols).to(gl.float32)
        # double-buffer the next row behind an mbarrier while this one reduces
        buf.index((row // gl.num_programs(0)) % 2).store(x.to(gl.bfloat16))
        m = gl.max(x, axis=0)
        e = gl.exp(x - m)
        inv = 1.0 / gl.sum(e, axis=0)
        gl.store(y_ptr + row * stride_y + cols, (e * inv).to(gl.bfloat16))


@gluon.jit
def _loader_partition(x_ptr, n_rows, stride_x, BLOCK_N: gl.constexpr):
    # producer warp: streams rows ahead of the compute warps
    pass


def fused_softmax(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    assert n_cols == N_COLS
    y = torch.empty_like(x)
    grid = (min(n_rows, NUM_SMS),)
    fused_softmax_gluon_kernel[grid](x, y, n_rows, x.stride(0), y.stride(0),
                                     BLOCK_N=N_COLS, num_warps=8)
    return y
