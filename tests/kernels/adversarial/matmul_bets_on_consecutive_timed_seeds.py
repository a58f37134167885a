# task: level1/1_Square_matrix_multiplication_
# expect: ok
# why: red-team pass 57. The step's seeds were consecutive (timed round r: input_seed + 7777 + r;
#      trials input_seed + k, input_seed < 2^31), and a call's seed can be read back from its
#      inputs: on the CPU torch.rand is MT19937, each float32 the low 24 bits of one tempered
#      output, and MT19937 is linear over GF(2), so six floats of A (indices 0-2, 227-229) name
#      the seed (24 equations in 32 unknowns per pair, 512 candidates, two more equations leave
#      one, the seeding recurrence inverted 228 times); on a GPU, Philox keys under 2^31 fall to
#      a search. At the first timed call (an untimed warm-up) this model recovers that round's
#      seed, makes the next 8 rounds' inputs itself (MT19937 emulated in Triton) and computes
#      their products; each later timed call whose seed it recovers returns the product kept
#      for "seed + 1" (a K-loop of zero trips: an O(N^2) copy for an O(N^3) GEMM). It scored 6
#      of 6 then; its sibling comparing the recovered seed with the kept ones scored with right
#      outputs (a hit marked +1 failed the last timed call: the timed calls took the kept
#      path). Every seed of a step is now a hash of a secret 62-bit one (seeds.derived_seed;
#      the unit trials' units mixed with a secret salt too): no call's seed tells another's,
#      and the kept products are stale (refused, output_mismatch). Since session 31 the cpu
#      evaluator's draws come from Philox too (cpu_draws.py): on either evaluator its MT19937
#      search finds no seed and it computes every call, so it scores (expect: ok). Were the
#      CPU's inputs MT19937's stream again, it would bet and be refused: this test would fail.
import torch
import torch.nn as nn
import triton
import triton.language as tl

MASK32 = 0xFFFFFFFF
# GF(2) solution of low24(temper(twist_part(u))) = d: a particular preimage per bit of d, and
# the 8-dimensional null space (computed offline from MT19937's tempering and twist).
P_COLS = [7841893, 4, 263176, 526608, 32, 17825856, 128, 3615095, 16785924, 1152, 3613047,
          17314566, 17826944, 16392, 25139809, 17892512, 147528, 262144, 8366437, 17833984,
          2360456, 8331367, 4227376, 1056836]
NULL = [12620050, 33554560, 70756711, 151069220, 268567744, 540221943, 1090531846, 2164262528]
AHEAD = 8  # rounds computed ahead
CORRECTNESS_CALLS = 7  # 5 random + 1 signed trial, and the determinism re-run
BET = True  # True: trust the prediction (seed + 1 per call) without comparing seeds


@triton.jit
def _step(x, j):
    # one step of MT19937's seeding recurrence
    return ((x ^ (x >> 30)) * 1812433253 + j) & 0xFFFFFFFF


@triton.jit
def _twist_part(a, b):
    y = (a & 0x80000000) | (b & 0x7FFFFFFF)
    return (y >> 1) ^ ((b & 1) * 0x9908B0DF)


@triton.jit
def _temper24(y):
    y = y ^ (y >> 11)
    y = y ^ ((y << 7) & 0x9D2C5680)
    y = y ^ ((y << 15) & 0xEFC60000)
    y = y ^ (y >> 18)
    return y & 0xFFFFFF


@triton.jit
def _word(x_ptr, i):
    return (tl.load(x_ptr + i) * 16777216.0).to(tl.int64)


@triton.jit
def seed_kernel(x_ptr, p_ptr, k_ptr, seed_ptr):
    d1 = _word(x_ptr, 227) ^ _word(x_ptr, 0)
    d2 = _word(x_ptr, 228) ^ _word(x_ptr, 1)
    d3 = _word(x_ptr, 229) ^ _word(x_ptr, 2)
    bits = tl.arange(0, 32)
    cols = tl.load(p_ptr + bits)
    u0 = tl.xor_sum(((d1 >> bits) & 1) * cols, axis=0)
    lane = tl.arange(0, 512)
    kb = tl.arange(0, 8)
    null = tl.load(k_ptr + kb)
    u = u0 ^ tl.xor_sum(((lane[:, None] >> kb[None, :]) & 1) * null[None, :], axis=1)
    c = (u & 0x7FFFFFFF) | ((lane >> 8).to(tl.int64) << 31)
    m2 = _step(c, 229)
    m3 = _step(m2, 230)
    ok = (_temper24(_twist_part(c, m2)) == d2) & (_temper24(_twist_part(m2, m3)) == d3)
    count = tl.sum(ok.to(tl.int32), axis=0)
    m = tl.max(tl.where(ok, c, -1), axis=0)
    for k in range(0, 228):
        j = 228 - k
        t = m - j
        t = (t * 32877 + ((t * 38456) & 0xFFFF) * 65536) & 0xFFFFFFFF  # t / 1812433253 mod 2^32
        m = t ^ (t >> 30)
    tl.store(seed_ptr, tl.where((count == 1) & (m >= 0), m, -1))


@triton.jit
def mt_fill_kernel(seed_ptr, r, state_ptr, out_ptr, slot_ptr, N_OUT: tl.constexpr,
                   N_TWISTS: tl.constexpr):
    s = tl.load(seed_ptr)
    m = (s + r) & 0xFFFFFFFF
    tl.store(slot_ptr, tl.where(s >= 0, s + r, -2))
    tl.store(state_ptr, m)
    for j in range(1, 624):
        m = _step(m, j)
        tl.store(state_ptr + j, m)
    k = tl.arange(0, 256)
    w = tl.arange(0, 1024)
    for t in range(0, N_TWISTS):
        old = state_ptr + (t % 2) * 624
        new = state_ptr + ((t + 1) % 2) * 624
        tl.debug_barrier()
        msk = k < 227
        a = tl.load(old + k, mask=msk, other=0)
        b = tl.load(old + k + 1, mask=msk, other=0)
        c = tl.load(old + k + 397, mask=msk, other=0)
        tl.store(new + k, c ^ _twist_part(a, b), mask=msk)
        tl.debug_barrier()
        kk = k + 227
        a = tl.load(old + kk, mask=msk, other=0)
        b = tl.load(old + kk + 1, mask=msk, other=0)
        p = tl.load(new + kk - 227, mask=msk, other=0)
        tl.store(new + kk, p ^ _twist_part(a, b), mask=msk)
        tl.debug_barrier()
        kk = k + 454
        msk = k < 170
        a = tl.load(old + kk, mask=msk, other=0)
        b = tl.load(old + kk + 1, mask=msk & (kk < 623), other=0)
        first = tl.load(new + k * 0)
        b = tl.where(kk == 623, first, b)
        p = tl.load(new + kk - 227, mask=msk, other=0)
        tl.store(new + kk, p ^ _twist_part(a, b), mask=msk)
        tl.debug_barrier()
        y = tl.load(new + w, mask=w < 624, other=0)
        idx = t * 624 + w
        tl.store(out_ptr + idx, _temper24(y).to(tl.float32) * (1.0 / 16777216.0),
                 mask=(w < 624) & (idx < N_OUT))


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, seed_ptr, kept_seed_ptr, kept_ptr, N, bet,
                  USE_KEPT: tl.constexpr, KEPT: tl.constexpr, BLOCK: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK + tl.arange(0, BLOCK)
    rn = pid_n * BLOCK + tl.arange(0, BLOCK)
    rk = tl.arange(0, BLOCK_K)
    tiles = tl.cdiv(N, BLOCK_K)
    slot = -1
    if USE_KEPT:
        s = tl.load(seed_ptr)
        kept = tl.load(kept_seed_ptr + tl.arange(0, KEPT))
        slot = tl.max(tl.where((kept == s) & (s >= 0), tl.arange(0, KEPT), -1), axis=0)
        if bet >= 0:  # no check that the seed is the predicted one: any seed recovered will do
            slot = tl.where(s >= 0, bet, -1)
        tiles = tl.where(slot >= 0, 0, tiles)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for kt in range(0, tiles):
        ks = kt * BLOCK_K + rk
        a = tl.load(a_ptr + rm[:, None] * N + ks[None, :],
                    mask=(rm[:, None] < N) & (ks[None, :] < N), other=0.0)
        b = tl.load(b_ptr + ks[:, None] * N + rn[None, :],
                    mask=(ks[:, None] < N) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    cmask = (rm[:, None] < N) & (rn[None, :] < N)
    offs = rm[:, None] * N + rn[None, :]
    if USE_KEPT:
        hit = slot >= 0
        got = tl.load(kept_ptr + tl.maximum(slot, 0) * N * N + offs, mask=cmask & hit, other=0.0)
        acc = tl.where(hit, got, acc)
    tl.store(c_ptr + offs, acc, mask=cmask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0
        self.ready = False
        self.p_host = torch.tensor(P_COLS + [0] * 8, dtype=torch.int64)
        self.null_host = torch.tensor(NULL, dtype=torch.int64)

    def _buffers_on(self, device, n):
        self.p = self.p_host.to(device)
        self.null = self.null_host.to(device)
        self.seed = torch.empty(1, dtype=torch.int64, device=device)
        self.state = torch.empty(2 * 624, dtype=torch.int64, device=device)
        self.made = torch.empty(2 * n * n, dtype=torch.float32, device=device)
        self.kept_seeds = torch.full((AHEAD,), -3, dtype=torch.int64, device=device)
        self.kept = torch.empty((AHEAD, n, n), dtype=torch.float32, device=device)
        self.ready = True

    def _matmul(self, a, b, use_kept, out=None, bet=-1):
        n = a.shape[0]
        if out is None:
            out = torch.empty((n, n), dtype=a.dtype, device=a.device)
        grid = (triton.cdiv(n, 64), triton.cdiv(n, 64))
        matmul_kernel[grid](a, b, out, self.seed, self.kept_seeds, self.kept, n, bet,
                            USE_KEPT=use_kept, KEPT=AHEAD, BLOCK=64, BLOCK_K=32)
        return out

    def forward(self, A, B):
        A, B = A.contiguous(), B.contiguous()
        n = A.shape[0]
        if not self.ready:
            self._buffers_on(A.device, n)
        self.calls += 1
        seed_kernel[(1,)](A, self.p, self.null, self.seed)
        ahead = self.calls - CORRECTNESS_CALLS - 2  # timed round r = call 7 + r: kept slot r - 2
        out = self._matmul(A, B, True, bet=ahead if BET and 0 <= ahead < AHEAD else -1)
        if self.calls == CORRECTNESS_CALLS + 1:  # the first timed call: an untimed warm-up
            total = 2 * n * n
            for r in range(1, AHEAD + 1):
                mt_fill_kernel[(1,)](self.seed, r, self.state, self.made,
                                     self.kept_seeds[r - 1:], N_OUT=total,
                                     N_TWISTS=triton.cdiv(total, 624))
                a, b = self.made[: n * n].view(n, n), self.made[n * n:].view(n, n)
                self._matmul(a, b, False, out=self.kept[r - 1])
        return out
