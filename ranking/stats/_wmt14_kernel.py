"""The WMT14 runs compiled: bit for bit the numpy path's arithmetic, several times faster.

:func:`~ranking.stats._wmt14.wmt14` advances all runs together with a fixed number of
numpy calls per step (``_advance``); at a few hundred runs its time is the calls'
overhead and the passes over memory between them. Here each step is a few compiled
loops (numba; compiled once and cached on disk next to this module, ``make install``
warms the cache) over the systems and the runs, the runs split into one contiguous
group per thread (the loops release the GIL), giving *exactly* the numbers of the numpy
path (which stays the tests' oracle) for the same generator:

- the random numbers are drawn by the same per-run streams in the same order (two per
  step, opponent then comparison) into the same ``(runs, block, 2)`` buffer;
- every floating-point operation is the one numpy performs, in the same order. Three of
  numpy's operations are not plain IEEE arithmetic and are matched as follows:

  * ``np.exp`` is numpy's own vectorised loop (on AVX-512 machines it differs from the
    C library's ``exp`` in about 5 % of arguments): the kernel calls that very loop,
    whose address it reads from the ufunc (:func:`_exp_loop`);
  * (the opponent weights' cumulative sums are ``np.cumsum`` down each run's column,
    in order, like the kernel: plain IEEE additions. They were once a product with a
    lower-triangular matrix of ones, whose sums OpenBLAS orders by shape and CPU: on an
    AMD EPYC no shape matched and every run took the slow path.)
  * the erfc polynomial's ``(4, 5)`` coefficient product, which OpenBLAS computes with
    fused multiply-adds in order, like the kernel (an LLVM ``fma`` intrinsic).

  Whether the last holds depends on the BLAS build, the CPU and the shapes, so
  :func:`available` checks it (and the exp loop) on probe data of the exact shapes
  (once per shape and process), and the callers take the numpy path when a check fails;
- steps where the numpy path leaves its fast formula (some ``|t| + eps >= 6`` in *any*
  run: then every run of that step goes through the exact tail functions) are detected
  per run; the step is then replayed for all runs through the numpy code itself
  (:class:`~ranking.stats._trueskill.BatchUpdater`), after running every run up to it.

A zero draw margin with draws in the data sends most steps down the numpy path's tail
branch: such environments are left to the numpy path.
"""

from __future__ import annotations

import ctypes
import functools
import logging
import math
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ._trueskill import (
    _SAFE,
    _SQRT2,
    BatchUpdater,
    update_coefficients,
)
from ._wmt14_tasks import pack, unpack

if TYPE_CHECKING:
    from ._wmt14_tasks import _Task

__all__ = ["advance", "available", "usable"]

_C_2SQRT2 = 2.0 * _SQRT2


_COEFS = update_coefficients()


# --- numba building blocks ---------------------------------------------------------------


def _fma_intrinsic(typingctx: Any, a: Any, b: Any, c: Any) -> Any:
    """``a * b + c`` with one rounding (LLVM's ``llvm.fma.f64``)."""
    sig = types.float64(types.float64, types.float64, types.float64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        d = ir.DoubleType()
        fn = builder.module.declare_intrinsic("llvm.fma", [d], ir.FunctionType(d, [d, d, d]))
        return builder.call(fn, args)

    return sig, codegen


_fma: Any = intrinsic(_fma_intrinsic)


def _call_loop_intrinsic(
    typingctx: Any, fn: Any, args: Any, dims: Any, steps: Any, data: Any
) -> Any:
    """Call a numpy ufunc inner loop ``fn(char **args, intp *dims, intp *steps, void *data)``.

    All five are addresses (integers): passed at run time, they keep the kernel cacheable.
    """
    sig = types.void(types.intp, types.intp, types.intp, types.intp, types.intp)

    def codegen(context: Any, builder: Any, signature: Any, a: Any) -> Any:
        p = ir.IntType(8).as_pointer()
        fnty = ir.FunctionType(ir.VoidType(), [p, p, p, p])
        fptr = builder.inttoptr(a[0], fnty.as_pointer())
        builder.call(fptr, [builder.inttoptr(x, p) for x in a[1:]])
        return context.get_dummy_value()

    return sig, codegen


_call_loop: Any = intrinsic(_call_loop_intrinsic)


@njit(cache=True, nogil=True)
def _np_exp(src: Any, dst: Any, count: Any, call: Any, exp_fn: Any, exp_data: Any) -> None:
    # numpy's exp loop over count contiguous doubles; ``call`` holds 5 intp: args[2],
    # dims[1], steps[2] (steps preset to 8)
    call[0] = src.ctypes.data
    call[1] = dst.ctypes.data
    call[2] = count
    _call_loop(exp_fn, call.ctypes.data, call[2:].ctypes.data, call[3:].ctypes.data, exp_data)


@njit(cache=True, nogil=True)
def _probe(x: Any, out: Any, exp_fn: Any, exp_data: Any, coefs: Any, pw: Any, q: Any) -> None:
    # what the checks compare with numpy: numpy's exp loop called from compiled code,
    # and coefs @ pw by fused multiply-adds in order
    call = np.empty(5, np.intp)
    call[3] = 8
    call[4] = 8
    _np_exp(x, out, x.size, call, exp_fn, exp_data)
    for i in range(coefs.shape[0]):
        for j in range(pw.shape[1]):
            acc = 0.0
            for k in range(coefs.shape[1]):
                acc = _fma(coefs[i, k], pw[k, j], acc)
            q[i, j] = acc


@njit(cache=True, nogil=True, inline="always")
def _poly(coefs: Any, row: Any, tt: Any, tt2: Any, tt3: Any, sq: Any) -> Any:
    # one row of coefs @ [tt, tt^2, tt^3, 1, p^2]: fused multiply-adds in order, as dgemm
    acc = _fma(coefs[row, 0], tt, 0.0)
    acc = _fma(coefs[row, 1], tt2, acc)
    acc = _fma(coefs[row, 2], tt3, acc)
    acc = _fma(coefs[row, 3], 1.0, acc)
    return _fma(coefs[row, 4], sq, acc)


@njit(cache=True, nogil=True, inline="always")
def _largest_variance(var: Any, best: Any, a: Any, n: Any, g: Any) -> None:
    # 1. each run's first system with the largest variance
    for i in range(g):
        best[i] = var[0, i]
        a[i] = 0
    for j in range(1, n):
        for i in range(g):
            x = var[j, i]
            bi = best[i]
            larger = x > bi
            best[i] = x if larger else bi
            a[i] = j if larger else a[i]


@njit(cache=True, nogil=True, inline="always")
def _opponent(
    mu: Any,
    a: Any,
    b: Any,
    n: Any,
    g: Any,
    l0: Any,
    step: Any,
    scratch: Any,
    uniforms: Any,
    lane_task: Any,
    complete: Any,
    mask_table: Any,
    call: Any,
    exp_fn: Any,
    exp_data: Any,
) -> None:
    # 2. the opponent: weights exp(-|mu_j - mu_a|), cumulative sums in order
    mu_a, weights, cumulative, total, threshold = scratch
    for i in range(g):
        mu_a[i] = mu[a[i], i]
    for j in range(n):
        for i in range(g):
            weights[j, i] = -abs(mu[j, i] - mu_a[i])
    _np_exp(weights, cumulative, n * g, call, exp_fn, exp_data)
    if complete:
        for i in range(g):
            cumulative[a[i], i] = 0.0
    else:
        for i in range(g):
            row = lane_task[l0 + i] * n + a[i]
            for j in range(n):
                cumulative[j, i] = cumulative[j, i] * mask_table[row, j]
    for i in range(g):
        total[i] = 0.0
        b[i] = 0
    for j in range(n):
        for i in range(g):
            total[i] = total[i] + cumulative[j, i]
            cumulative[j, i] = total[i]
    for i in range(g):
        threshold[i] = uniforms[step, 0, l0 + i] * total[i]
    for j in range(n):
        for i in range(g):
            b[i] += cumulative[j, i] <= threshold[i]


@njit(cache=True, nogil=True, inline="always")
def _comparison(
    var: Any,
    mu: Any,
    a: Any,
    b: Any,
    n: Any,
    g: Any,
    l0: Any,
    step: Any,
    lanes: Any,
    uniforms: Any,
    lane_task: Any,
    two_beta2: Any,
    tau2: Any,
    has_tau: Any,
    pair_count: Any,
    pair_start: Any,
    games: Any,
    kind_table: Any,
    chosen_game: Any,
) -> bool:
    # 3. one comparison of the pair: start + floor(u' * count), indices clipped; 4. the
    # TrueSkill update, as BatchUpdater._update, up to the truncation points. True when
    # some run must not take the fast formula (some |p| >= 6 or not finite).
    game, s1v, s2v, s_sum, cc, diff, diff_k, p1, p2 = lanes
    nn = n * n
    n_pairs = pair_count.shape[0]
    n_games = games.shape[1]
    leave = False
    for i in range(g):
        key = lane_task[l0 + i] * nn + a[i] * n + b[i]
        key = min(max(key, 0), n_pairs - 1)
        pick = uniforms[step, 1, l0 + i] * float(pair_count[key])
        chosen = min(max(np.int64(pick) + pair_start[key], 0), n_games - 1)
        game[i] = chosen
        chosen_game[l0 + i] = chosen
        kind = games[2, chosen]
        x1 = var[games[0, chosen], i]
        x2 = var[games[1, chosen], i]
        if has_tau:
            x1 = x1 + tau2[l0 + i]
            x2 = x2 + tau2[l0 + i]
        s1v[i] = x1
        s2v[i] = x2
        ss = x1 + x2
        ss = ss + two_beta2[l0 + i]
        s_sum[i] = ss
        c = math.sqrt(ss)
        cc[i] = c
        d = mu[games[0, chosen], i] - mu[games[1, chosen], i]
        dk = d * kind_table[2, kind]
        diff[i] = d
        diff_k[i] = dk
        dd = d if d < dk else dk
        t1 = (kind_table[3, kind] + dd) / c
        t2 = (kind_table[4, kind] + dd) / c
        p1[i] = t1
        p2[i] = t2
        if not (abs(t1) < _SAFE and abs(t2) < _SAFE):
            leave = True
    return leave


@njit(cache=True, nogil=True, inline="always")
def _erfc_terms(p1: Any, p2: Any, tt1: Any, tt2: Any, q_in: Any, coefs: Any, g: Any) -> None:
    # the erfc polynomial's exponents at both truncation points (numpy's exp comes next)
    c_2sqrt2 = _C_2SQRT2
    for i in range(g):
        t1 = p1[i]
        t2 = p2[i]
        u1 = c_2sqrt2 / (abs(t1) + c_2sqrt2)
        u2 = c_2sqrt2 / (abs(t2) + c_2sqrt2)
        u1_2 = u1 * u1
        u1_3 = u1_2 * u1
        u2_2 = u2 * u2
        u2_3 = u2_2 * u2
        sq1 = t1 * t1
        sq2 = t2 * t2
        qa1 = _poly(coefs, 0, u1, u1_2, u1_3, sq1)
        qe1 = _poly(coefs, 1, u1, u1_2, u1_3, sq1)
        qb1 = _poly(coefs, 2, u1, u1_2, u1_3, sq1)
        qc1 = _poly(coefs, 3, u1, u1_2, u1_3, sq1)
        qa2 = _poly(coefs, 0, u2, u2_2, u2_3, sq2)
        qe2 = _poly(coefs, 1, u2, u2_2, u2_3, sq2)
        qb2 = _poly(coefs, 2, u2, u2_2, u2_3, sq2)
        qc2 = _poly(coefs, 3, u2, u2_2, u2_3, sq2)
        # A + tt^3 (B + tt^3 C)
        qc1 = qc1 * u1_3
        qc1 = qc1 + qb1
        qc1 = qc1 * u1_3
        q_in[0, i] = qa1 + qc1
        qc2 = qc2 * u2_3
        qc2 = qc2 + qb2
        qc2 = qc2 * u2_3
        q_in[1, i] = qa2 + qc2
        q_in[2, i] = qe1
        q_in[3, i] = qe2
        tt1[i] = u1
        tt2[i] = u2


@njit(cache=True, nogil=True, inline="always")
def _update(
    var: Any,
    mu: Any,
    g: Any,
    lanes: Any,
    tt1: Any,
    tt2: Any,
    q_out: Any,
    games: Any,
    kind_table: Any,
) -> None:
    # 4. the rest of the TrueSkill update: v and w from the truncation points' cdf and
    # pdf, then the two systems' variances and means
    game, s1v, s2v, s_sum, cc, diff, diff_k, p1, p2 = lanes
    for i in range(g):
        chosen = game[i]
        w = games[0, chosen]
        lo = games[1, chosen]
        drawn = kind_table[1, games[2, chosen]]
        t1 = p1[i]
        t2 = p2[i]
        cdf1 = tt1[i] * q_out[0, i]
        cdf2 = tt2[i] * q_out[1, i]
        pdf1 = q_out[2, i]
        pdf2 = q_out[3, i]
        h0 = 1.0 if t1 > 0.0 else 0.0
        cdf1 = abs(h0 - cdf1)
        ppdf1 = t1 * pdf1
        ppdf2 = t2 * pdf2
        pdf2 = pdf2 * drawn
        ppdf2 = ppdf2 * drawn
        cdf2 = cdf2 * drawn
        r0 = pdf1 - pdf2
        r1 = ppdf1 - ppdf2
        r2 = cdf1 - cdf2
        big_v = r0 / r2
        big_w = r1 / r2
        big_w = big_w + big_v * big_v
        v = big_v / math.copysign(cc[i], diff_k[i] - diff[i])
        wv = big_w / s_sum[i]
        # var_i -= var_i^2 w / c^2;  mu_1 += var_1 v / c;  mu_2 -= var_2 v / c
        x1 = s1v[i]
        x2 = s2v[i]
        m1 = mu[w, i]
        m2 = mu[lo, i]
        var[w, i] = x1 - (x1 * wv) * x1
        var[lo, i] = x2 - (x2 * wv) * x2
        mu[w, i] = m1 - (-1.0 * v) * x1
        mu[lo, i] = m2 - (1.0 * v) * x2


@njit(cache=True, nogil=True)
def _run_lanes(
    l0: Any,
    l1: Any,
    s0: Any,
    s1: Any,
    force_last: Any,
    state: Any,
    uniforms: Any,
    lane_task: Any,
    two_beta2: Any,
    tau2: Any,
    has_tau: Any,
    complete: Any,
    pair_count: Any,
    pair_start: Any,
    mask_table: Any,
    games: Any,
    kind_table: Any,
    coefs: Any,
    exp_fn: Any,
    exp_data: Any,
    stop: Any,
    chosen_game: Any,
) -> None:
    """Advance runs ``l0 .. l1 - 1`` through steps ``s0 .. s1 - 1`` of the block.

    ``state`` is ``(2, n, runs)`` (variances, then means) as in ``_advance``; the runs
    of ``l0 .. l1 - 1`` advance in step, each loop over systems running along the runs
    (independent lanes, so the compiler vectorises them without reordering any run's
    sums) and numpy's exp loop called once per step for all their weights and once for
    their updates. They stop together before a step whose fast formula some of them
    must not take (some ``|p| >= 6`` or not finite) or, with ``force_last``, before
    step ``s1 - 1``: ``stop`` gets that step and ``chosen_game`` each run's game there;
    otherwise ``stop`` gets ``s1``. Each step's parts are helpers compiled into this
    function (``inline="always"``).
    """
    n = state.shape[1]
    g = l1 - l0
    # contiguous copies of these runs' state (vectorisable loops), written back at the end
    var = np.ascontiguousarray(state[0, :, l0:l1])
    mu = np.ascontiguousarray(state[1, :, l0:l1])
    call = np.empty(5, np.intp)
    call[3] = 8
    call[4] = 8
    best = np.empty(g)
    a = np.empty(g, np.int64)
    b = np.empty(g, np.int64)
    # the opponent's: mu_a, weights, cumulative, total, threshold
    scratch = (np.empty(g), np.empty((n, g)), np.empty((n, g)), np.empty(g), np.empty(g))
    # each run's game, the two variances (with tau), their sum with 2 beta^2, its root,
    # the mean difference (and times the kind's sign), the two truncation points
    lanes = (
        np.empty(g, np.int64),
        np.empty(g),
        np.empty(g),
        np.empty(g),
        np.empty(g),
        np.empty(g),
        np.empty(g),
        np.empty(g),
        np.empty(g),
    )
    tt1 = np.empty(g)
    tt2 = np.empty(g)
    q_in = np.empty((4, g))
    q_out = np.empty((4, g))
    for i in range(l0, l1):
        stop[i] = s1
    for step in range(s0, s1):
        _largest_variance(var, best, a, n, g)
        _opponent(
            mu, a, b, n, g, l0, step, scratch, uniforms, lane_task, complete, mask_table,
            call, exp_fn, exp_data,
        )  # fmt: skip
        leave = _comparison(
            var, mu, a, b, n, g, l0, step, lanes, uniforms, lane_task, two_beta2, tau2,
            has_tau, pair_count, pair_start, games, kind_table, chosen_game,
        )  # fmt: skip
        if leave or (force_last and step == s1 - 1):
            for i in range(l0, l1):
                stop[i] = step
            break
        _erfc_terms(lanes[7], lanes[8], tt1, tt2, q_in, coefs, g)
        _np_exp(q_in, q_out, 4 * g, call, exp_fn, exp_data)
        _update(var, mu, g, lanes, tt1, tt2, q_out, games, kind_table)
    state[0, :, l0:l1] = var
    state[1, :, l0:l1] = mu


# --- checks ------------------------------------------------------------------------------


#: numpy versions (major, minor) whose ``PyUFuncObject`` this module was verified on. The
#: leading fields of that struct are numpy's public C API (``numpy/ufuncobject.h``) and
#: have kept their layout since numpy 1.x, but a release may change it: on any other
#: version :func:`_exp_loop` reads nothing and the runs take the numpy path (exact, slower).
#: pyproject.toml pins numpy below the next minor version; to allow it, run
#: ``tests/ranking/stats/test_wmt14_kernel.py`` on it and add it here.
VERIFIED_NUMPY: frozenset[tuple[int, int]] = frozenset({(2, 0), (2, 1), (2, 2), (2, 3), (2, 4)})


class _UFuncHead(ctypes.Structure):
    """The leading fields of numpy's ``PyUFuncObject`` (``numpy/ufuncobject.h``)."""

    _fields_ = (
        ("ob_refcnt", ctypes.c_ssize_t),
        ("ob_type", ctypes.c_void_p),
        ("nin", ctypes.c_int),
        ("nout", ctypes.c_int),
        ("nargs", ctypes.c_int),
        ("identity", ctypes.c_int),
        ("functions", ctypes.c_void_p),
        ("data", ctypes.c_void_p),
        ("ntypes", ctypes.c_int),
    )


def _numpy_verified(version: str | None = None) -> bool:
    """Whether this numpy's ``PyUFuncObject`` layout is one the kernel was verified on."""
    major, minor = (int(part) for part in (version or np.__version__).split(".")[:2])
    return (major, minor) in VERIFIED_NUMPY


def _exp_loop() -> tuple[int, int] | None:
    """The address of numpy's float64 ``exp`` inner loop and its data, or None.

    Read through :class:`_UFuncHead` (the public struct of the verified numpy versions,
    :data:`VERIFIED_NUMPY`; None on any other); the struct's own counts are checked
    against what Python sees of ``np.exp`` before any pointer is followed, and
    :func:`available` checks the loop's results against ``np.exp`` before use.
    """
    if not _numpy_verified():
        _log.warning(
            "numpy %s is not among the versions the compiled WMT14 kernel was verified on "
            "(%s); ranking runs use the numpy path (exact, slower).",
            np.__version__,
            ", ".join(f"{a}.{b}" for a, b in sorted(VERIFIED_NUMPY)),
        )
        return None
    try:
        index = np.exp.types.index("d->d")
        head = _UFuncHead.from_address(id(np.exp))
        if (head.nin, head.nout, head.nargs, head.ntypes) != (
            np.exp.nin,
            np.exp.nout,
            np.exp.nargs,
            np.exp.ntypes,
        ) or not head.functions:
            return None
        fn = ctypes.c_void_p.from_address(head.functions + 8 * index).value
        extra = ctypes.c_void_p.from_address(head.data + 8 * index).value if head.data else None
    except (ValueError, OSError):
        return None
    if not fn:
        return None
    return int(fn), int(extra or 0)


_checked: dict[tuple[int, int], bool] = {}
_lock = threading.Lock()
_log = logging.getLogger(__name__)


def available(n: int, lanes: int) -> bool:
    """Whether the kernel reproduces the numpy path for ``n`` systems and ``lanes`` runs.

    Checks (once per shape and process) numpy's exp loop through the kernel's call
    against ``np.exp`` and the coefficient product ``(4, 5) x (5, 2 lanes)`` against
    fused multiply-adds in order, each on random data of the exact shapes. (The
    cumulative sums are ``np.cumsum`` in both paths: nothing to check.)
    """
    key = (n, lanes)
    with _lock:
        if key not in _checked:
            _checked[key] = _check(n, lanes)
            if not _checked[key]:
                # Said once per shape and process: the numpy path is exact but far slower.
                _log.warning(
                    "The compiled WMT14 kernel does not reproduce numpy's sums for %d systems "
                    "x %d runs on this machine; these runs use the numpy path (slower).",
                    n,
                    lanes,
                )
        return _checked[key]


def _check(n: int, lanes: int) -> bool:
    loop = _exp_loop()
    if loop is None:
        return False
    rng = np.random.default_rng(20260101)
    x = np.concatenate(
        [-np.abs(rng.normal(0, 3, 4099)), rng.uniform(-40, 0.5, 4099), [0.0, -0.0, -800.0]]
    )
    for _ in range(3):
        p = rng.normal(0, 2, 2 * lanes)
        pw = np.empty((5, 2 * lanes))
        pw[0] = _C_2SQRT2 / (np.abs(p) + _C_2SQRT2)
        pw[1] = pw[0] * pw[0]
        pw[2] = pw[1] * pw[0]
        pw[3] = 1.0
        pw[4] = p * p
        q = np.empty((4, 2 * lanes))
        np.matmul(_COEFS, pw, out=q)
        mine_exp, mine_q = np.empty_like(x), np.empty_like(q)
        _probe(x, mine_exp, loop[0], loop[1], _COEFS, pw, mine_q)
        if not (np.array_equal(mine_exp, np.exp(x)) and np.array_equal(q, mine_q)):
            return False
    return True


def _threads(lanes: int) -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, lanes // 8 or 1, 8))


# --- the driver --------------------------------------------------------------------------


def advance(
    tasks: Sequence[_Task], n_steps: int, block: int, report: Callable[[int], None]
) -> None:
    """Advance all runs of ``tasks`` by ``n_steps`` steps: ``_wmt14._advance``, compiled.

    The same tables as ``_advance`` (systems padded to the largest ``n`` with phantoms)
    and state layout, ``(2, n, runs)``; each block's random numbers drawn as
    ``_advance`` draws them; the runs split over threads. Callers check
    :func:`available` first.
    """
    loop = _exp_loop()
    assert loop is not None
    packed = pack(tasks)
    n, n_lanes, state = packed.n, packed.n_lanes, packed.state
    lane_task, games, kind_table = packed.lane_task, packed.games, packed.kind_table
    pair_count, pair_start = packed.pair_count, packed.pair_start
    mask_table, complete = packed.mask_table, packed.complete
    beta, tau, margin = packed.beta, packed.tau, packed.margin
    # the numpy path's updater: its constants, and the steps it must play itself
    update = BatchUpdater(n_lanes, beta=beta, tau=tau, margin=margin)
    two_beta2 = update.two_beta2
    tau2 = update.tau2
    flat = state.reshape(-1)
    nl = n_lanes * n
    lanes = np.arange(n_lanes, dtype=np.intp)

    n_threads = _threads(n_lanes)
    bounds = np.linspace(0, n_lanes, n_threads + 1).astype(np.int64)
    stop = np.empty(n_lanes, dtype=np.int64)
    chosen = np.empty(n_lanes, dtype=np.int64)
    coefs = _COEFS

    block = max(1, min(block, n_steps))
    uniforms = np.empty((n_lanes, block, 2))
    by_step = np.empty((block, 2, n_lanes))
    streams = [s for t in tasks for s in t.streams]

    def run(s0: int, s1: int, force_last: bool) -> None:
        def part(i: int) -> None:
            _run_lanes(
                int(bounds[i]),
                int(bounds[i + 1]),
                s0,
                s1,
                force_last,
                state,
                by_step,
                lane_task,
                two_beta2,
                tau2,
                update.has_tau,
                complete,
                pair_count.reshape(-1),
                pair_start.reshape(-1),
                mask_table,
                games,
                kind_table,
                coefs,
                loop[0],
                loop[1],
                stop,
                chosen,
            )

        if n_threads == 1:
            part(0)
        else:
            list(pool.map(part, range(n_threads)))

    def numpy_step() -> None:
        # the step every run was stopped before, played by the numpy path's updater
        w, lo, kind = games[:, chosen]
        update.pos[0] = w * n_lanes + lanes
        update.pos[1] = lo * n_lanes + lanes
        update.pos[2] = update.pos[0] + nl
        update.pos[3] = update.pos[1] + nl
        kind_table.take(kind, axis=1, out=update.cols)
        update.play(flat)

    def fill(i: int, nb: int) -> None:
        # A block's random numbers for the runs of thread i: each run's own stream, then
        # per step the runs' numbers side by side (numpy releases the GIL for both, so
        # the threads draw and lay out their runs at the same time).
        l0, l1 = int(bounds[i]), int(bounds[i + 1])
        for lane in range(l0, l1):
            streams[lane].random(out=uniforms[lane, :nb])
        by_step[:nb, :, l0:l1] = uniforms[l0:l1, :nb].transpose(1, 2, 0)

    with ThreadPoolExecutor(max_workers=n_threads) as pool:
        done = 0
        while done < n_steps:
            nb = min(block, n_steps - done)
            if n_threads == 1:
                fill(0, nb)
            else:
                list(pool.map(functools.partial(fill, nb=nb), range(n_threads)))
            step = 0
            while step < nb:
                saved = state.copy()
                run(step, nb, False)
                first_stop = int(stop.min())
                if first_stop == nb:
                    break
                # some run must leave the fast formula at first_stop: replay every run
                # up to it, then play that step for all runs through numpy, as _advance
                state[...] = saved
                run(step, first_stop + 1, True)
                numpy_step()
                step = first_stop + 1
            done += nb
            report(nb)

    unpack(tasks, state, n_steps)


def usable(tasks: Sequence[_Task]) -> bool:
    """Whether :func:`advance` reproduces ``_advance`` for these tasks (see the module)."""
    if any(t.params.draw_margin <= 0 and bool(t.draws.any()) for t in tasks):
        return False
    return available(max(t.n for t in tasks), sum(t.runs for t in tasks))
