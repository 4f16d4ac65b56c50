"""TrueSkill ranking the WMT14 way: active sampling of comparisons, many runs.

The procedure of Sakaguchi, Post & Van Durme (2014), as used for Table 11 of the E2E NLG
Challenge report (Dušek et al. 2020). In each of ``runs`` independent runs, starting
from ``mu = mu0``, ``sigma = sigma0`` for every system, each of ``steps`` steps

1. takes the system ``a`` with the largest sigma (the first one on ties),
2. picks an opponent ``b != a`` with probability proportional to
   ``exp(-|mu_a - mu_b|)``: the first one (in system order) whose cumulative weight
   exceeds ``u`` times the total, ``u`` uniform (``scripts/random_sample.py`` divides
   the cumulative weights by the total instead, which is the same up to rounding),
3. draws one comparison of the pair ``{a, b}`` uniformly, with replacement, and
4. applies the TrueSkill one-on-one update (a tie being a draw).

The defaults are the scripts': ``mu0 = 0``, ``sigma0 = 0.5``, ``tau = 0``, a draw
probability of 0.25, ``steps = number of comparisons + 1`` and
``beta = sigma0 * steps / 40``. A system's value is its mean mu over the runs; its rank
in a run is its position by mu; the rank range and the clusters follow
:mod:`~ranking.stats._clusters`.

Pairs without any comparison: the scripts pick the opponent among *all* other systems
and would crash (``random.choice`` of an empty list) on such a pair. Here opponents
without a comparison with ``a`` get weight zero, i.e. the choice is renormalised over the
pairs that have data; with complete data (every pair compared, as in E2E) this is the
scripts' procedure exactly. Systems without any comparison are rejected.

Randomness: ``rng.spawn(runs)`` gives each run its own stream; a run consumes two uniform
numbers per step (opponent, then comparison). The tests' plain reference loop over the
``trueskill`` package (``tests/ranking/stats/reference.py``) consumes them in the same
order, so both give the same runs for the same generator.

Two engines advance the runs, with bit-for-bit the same numbers: ``"numpy"`` (``_advance``:
all runs together, a fixed number of numpy calls per step; the oracle) and
``"compiled"`` (:mod:`~ranking.stats._wmt14_kernel`: each step's loops compiled, runs
split over threads; several times faster). The default ``"auto"`` takes the compiled one
whenever its checks for the shapes at hand pass.

Several comparison sets (e.g. the two criteria of a campaign) can be ranked side by side
with :func:`wmt14_many`: their runs are independent, so they share one set of arrays and
every numpy call of a step serves all of them, which roughly halves the time of two
criteria in one process. Each set's result equals its own :func:`wmt14` call.

References
----------
Sakaguchi, K., Post, M. and Van Durme, B. (2014). Efficient elicitation of annotations for
human evaluation of machine translation. WMT 2014, 1-11.
Bojar, O. et al. (2014). Findings of the 2014 Workshop on Statistical Machine Translation.
WMT 2014, 12-58.
Herbrich, R., Minka, T. and Graepel, T. (2007). TrueSkill(TM): A Bayesian skill rating
system. NIPS 19, 569-576.
Dušek, O., Novikova, J. and Rieser, V. (2020). Evaluating the state-of-the-art of
End-to-End Natural Language Generation: The E2E NLG Challenge. Computer Speech & Language
59, 123-156.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ._pairwise import Comparisons
from ._result import RankingResult
from ._trueskill import BatchUpdater, TrueSkillParams
from ._wmt14_tasks import _Task, pack, unpack

__all__ = ["ENGINES", "prepare", "wmt14", "wmt14_many", "wmt14_side_by_side"]

Progress = Callable[[float], None]
Advance = Callable[[Sequence["_Task"], int, int, Callable[[int], None]], None]

#: How the runs are advanced: see :func:`wmt14`'s ``engine``.
ENGINES = ("auto", "compiled", "numpy")


def prepare(
    comparisons: Comparisons, *, runs: int, steps: int | None, trueskill: dict[str, Any]
) -> tuple[int, TrueSkillParams, dict[str, Any]]:
    """Check the data, and give the steps per run, the environment and the parameters used.

    ``trueskill`` holds the TrueSkill parameters given (any of
    :data:`~ranking.stats._trueskill.TRUESKILL_DEFAULTS`); ``steps`` defaults to the
    number of comparisons + 1, and with it ``beta``.
    """
    if runs < 1:
        raise ValueError("runs must be at least 1")
    per_system = comparisons.per_system()
    missing = np.flatnonzero(per_system == 0)
    if missing.size:
        raise ValueError(f"systems without comparisons cannot be ranked: {missing.tolist()}")
    n_steps = len(comparisons) + 1 if steps is None else int(steps)
    if n_steps < 0:
        raise ValueError("steps must be non-negative")
    params = TrueSkillParams.wmt14(n_steps, **trueskill)
    return n_steps, params, {**params.as_parameters(), "steps": n_steps}


def _advance(
    tasks: Sequence[_Task], n_steps: int, block: int, report: Callable[[int], None]
) -> None:
    """Advance all runs of ``tasks`` by ``n_steps`` steps, side by side.

    Layout: the runs of all tasks are *lanes* ``0 .. L - 1`` (task after task); systems
    are padded to the largest ``n`` with phantoms (variance -inf: never the most
    uncertain; mean +inf: opponent weight ``exp(-inf) = 0``). The state is one
    ``(2, n, L)`` array, variances then means, so that every per-system operation runs
    along contiguous rows of length ``L``. A step is a fixed number of numpy calls:

    1. ``a``: the row-wise maximum of the variances, the rows equal to it weighted by
       ``n - j`` (uint8) and their maximum ``top = n - a`` (the first index on ties);
    2. the opponent weights ``exp(-|mu_j - mu_a|)`` (zero for ``a``: one scatter), their
       cumulative sums (``np.cumsum`` down the systems: each run's column summed in
       order, the same on every machine, unlike a BLAS product) and
       ``b = #{j : cumulative_j <= u * total}``, counted by summing the boolean rows
       viewed as int64 (eight lanes per word: counts below 256 never carry);
    3. the pair's comparison count and start (one take from a ``(2, tasks * n * n)``
       table at ``(task * n + a) * n + b``), the comparison ``start + floor(u' count)``,
       its winner's and loser's variance rows (times ``L``) and kind (one take from a
       ``(3, comparisons)`` table built for this ``L``), the state positions (plus the
       lane; plus ``n L`` for the means) and the game columns of the kind (a take from
       a ``(5, 2 tasks)`` table: only win or draw and the task's draw margin matter);
    4. one :meth:`BatchUpdater.play`.

    About 30 numpy calls besides the update's 40; the costly ones are the dozen that
    touch all ``n * L`` entries.
    """
    add, sub, mul = np.add, np.subtract, np.multiply
    intp = np.intp
    packed = pack(tasks)
    n, n_lanes, state = packed.n, packed.n_lanes, packed.state
    nl = n * n_lanes
    lane_task = packed.lane_task.astype(intp)
    lanes = np.arange(n_lanes, dtype=intp)
    # per comparison: the variance rows of winner and loser (times L) and its kind;
    # per kind: the game columns of BatchUpdater (a small table that stays in cache)
    game_table = packed.games.astype(intp)
    game_table[:2] *= n_lanes
    kind_table = packed.kind_table
    pair_table = np.stack([packed.pair_count.reshape(-1), packed.pair_start.reshape(-1)])
    mask_table = packed.mask_table
    complete = packed.complete
    update = BatchUpdater(n_lanes, beta=packed.beta, tau=packed.tau, margin=packed.margin)

    flat = state.reshape(-1)
    var, mu = state[0], state[1]
    small = n < 256
    small_int = np.uint8 if small else np.int64
    rev = (n - np.arange(n)).astype(small_int)[:, None]
    mx = np.empty(n_lanes)
    is_max = np.empty((n, n_lanes), dtype=np.bool_)
    keyed = np.empty((n, n_lanes), dtype=small_int)
    top = np.empty(n_lanes, dtype=small_int)  # n - a
    # [flat position of mu_a, pair key without b] = bases - (n - a) * [L, n]
    fa_key = np.empty((2, n_lanes), dtype=intp)
    fa, key = fa_key
    fa_key_base = np.stack([2 * nl + lanes, lane_task * n * n + n * n]).astype(intp)
    fa_key_mult = np.array([[n_lanes], [n]], dtype=intp)
    mu_a = np.empty(n_lanes)
    weights_buffer = np.zeros((2, n, n_lanes))  # the weights sit where mu sits in state
    weights, weights_flat = weights_buffer[1], weights_buffer.reshape(-1)
    mask_base = lane_task * n + n
    mask_key = np.empty(n_lanes, dtype=intp)
    cumulative = np.empty((n, n_lanes))
    total = cumulative[-1]
    threshold = np.empty(n_lanes)
    padded = -(-n_lanes // 8) * 8
    below_padded = np.zeros((n, padded), dtype=np.bool_)
    below = below_padded[:, :n_lanes]
    below_words = below_padded.view(np.int64)
    count_words = np.empty(padded // 8, dtype=np.int64)
    count_b = count_words.view(np.uint8)[:n_lanes] if small else np.empty(n_lanes, np.int64)
    count_start = np.empty((2, n_lanes), dtype=np.int64)
    pair_n, pair_first = count_start[0], count_start[1]
    pick = np.empty(n_lanes)
    chosen = np.empty(n_lanes, dtype=intp)
    upd_pos, upd_cols = update.pos, update.cols
    game = np.empty((3, n_lanes), dtype=intp)
    game_var, game_kind = game[0:2], game[2]
    pos_var, pos_mu = upd_pos[0:2], upd_pos[2:4]
    nl_intp = intp(nl)

    block = max(1, min(block, n_steps))
    uniforms = np.empty((n_lanes, block, 2))
    streams = [s for t in tasks for s in t.streams]
    done = 0
    while done < n_steps:
        nb = min(block, n_steps - done)
        for lane, stream in enumerate(streams):
            stream.random(out=uniforms[lane, :nb])
        for u_opponent, u_comparison in uniforms[:, :nb].transpose(1, 2, 0):
            # 1. the system with the largest variance
            np.maximum.reduce(var, axis=0, out=mx)
            np.greater_equal(var, mx, out=is_max)
            mul(is_max, rev, keyed)
            np.maximum.reduce(keyed, axis=0, out=top)
            mul(top, fa_key_mult, fa_key)
            sub(fa_key_base, fa_key, fa_key)
            # 2. the opponent: weights exp(-|mu_j - mu_a|), the first j whose cumulative
            # weight exceeds u * total
            flat.take(fa, out=mu_a, mode="clip")
            sub(mu, mu_a, weights)
            np.absolute(weights, weights)
            np.negative(weights, weights)
            np.exp(weights, weights)
            if complete:
                weights_flat[fa] = 0.0
            else:
                sub(mask_base, top, mask_key)
                mul(weights, mask_table.take(mask_key, axis=0).T, weights)
            np.cumsum(weights, axis=0, out=cumulative)
            mul(u_opponent, total, threshold)
            np.less_equal(cumulative, threshold, out=below)
            if small:
                np.add.reduce(below_words, axis=0, out=count_words)
            else:
                np.add.reduce(below, axis=0, dtype=np.int64, out=count_b)
            # 3. one comparison of the pair, uniformly: start + floor(u' * count)
            add(key, count_b, key)
            pair_table.take(key, axis=1, out=count_start, mode="clip")
            mul(u_comparison, pair_n, pick)
            np.copyto(chosen, pick, casting="unsafe")
            add(chosen, pair_first, chosen)
            game_table.take(chosen, axis=1, out=game, mode="clip")
            add(game_var, lanes, pos_var)
            add(pos_var, nl_intp, pos_mu)
            kind_table.take(game_kind, axis=1, out=upd_cols, mode="clip")
            # 4. the TrueSkill update
            update.play(flat)
        done += nb
        report(nb)

    unpack(tasks, state, n_steps)


def _pick_advance(tasks: Sequence[_Task], engine: str) -> Advance:
    """``_advance`` (numpy) or the compiled kernel's, per ``engine`` (see :func:`wmt14`)."""
    if engine == "numpy":
        return _advance
    try:
        from . import _wmt14_kernel
    except ImportError:  # numba missing: the numpy path
        if engine == "compiled":
            raise
        return _advance
    if _wmt14_kernel.usable(tasks):
        return _wmt14_kernel.advance
    if engine == "compiled":
        raise RuntimeError("the compiled WMT14 kernel cannot reproduce numpy for these shapes")
    return _advance


def wmt14_many(
    comparisons: Sequence[Comparisons],
    *,
    rngs: Sequence[np.random.Generator],
    runs: int = 200,
    confidence: float = 0.95,
    steps: int | None = None,
    progress: Progress | None = None,
    block: int = 2048,
    engine: str = "auto",
    **trueskill: Any,
) -> list[RankingResult]:
    """Rank several comparison sets (e.g. criteria) by :func:`wmt14`, side by side.

    ``wmt14_many([c1, c2], rngs=[r1, r2], **kw)`` gives (up to floating-point rounding)
    ``[wmt14(c1, rng=r1, **kw), wmt14(c2, rng=r2, **kw)]``, in about the time of the
    longer one alone: the runs of all sets advance together in one set of arrays, so
    each numpy call of a step serves them all. Defaults that depend on the data
    (``steps``, hence ``beta``) are each set's own. Once the shorter sets are done, the
    rest continue without them.

    Parameters
    ----------
    comparisons : sequence of Comparisons
        The comparison sets (every system of each needs at least one comparison).
    rngs : sequence of numpy.random.Generator
        One generator per set, used as :func:`wmt14` uses ``rng``.
    runs, confidence, steps, block, engine, **trueskill
        As for :func:`wmt14`, the same for every set.
    progress : callable, optional
        Called with the fraction of all runs' steps done after each block of steps.

    Returns
    -------
    list of RankingResult
        One per comparison set, in order.
    """
    if len(rngs) != len(comparisons):
        raise ValueError("wmt14_many needs one generator per comparison set")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}")
    tasks = []
    for c, rng in zip(comparisons, rngs, strict=True):
        n_steps, params, used = prepare(c, runs=runs, steps=steps, trueskill=trueskill)
        tasks.append(_Task(c, params, used, n_steps, rng.spawn(runs)))

    total = sum(t.n_steps * t.runs for t in tasks)
    progressed = 0.0

    def report(nb: int) -> None:
        nonlocal progressed
        progressed += nb * sum(t.runs for t in active)
        if progress is not None:
            progress(min(progressed / total, 1.0) if total else 1.0)

    active = [t for t in tasks if t.n_steps > 0]
    while active:
        phase = min(t.n_steps - t.done for t in active)
        _pick_advance(active, engine)(active, phase, block, report)
        active = [t for t in active if t.done < t.n_steps]
    return [t.result(confidence) for t in tasks]


def wmt14_side_by_side(
    comparisons: Comparisons,
    *,
    rngs: Sequence[np.random.Generator],
    runs: int,
    confidence: float = 0.95,
    steps: int | None = None,
    progress: Progress | None = None,
    block: int = 2048,
    **trueskill: Any,
) -> list[RankingResult] | None:
    """:func:`wmt14` of one comparison set once per generator, in one compiled pass.

    Result ``i`` is, bit for bit, ``wmt14(comparisons, rng=rngs[i], runs=runs, ...)``:
    each generator's runs draw from the streams it would spawn alone, and the compiled
    kernel computes every run on its own (its lanes never mix); here all the runs are
    the lanes of one set of tables. The kernel is used only where it reproduces the
    numpy path both for ``runs`` lanes (each call alone) and for all the lanes
    together. Where it does not (or numba is missing), nothing is drawn and None is
    returned: call :func:`wmt14` once per generator. What ``manage.py rank`` uses for
    the chunks of a run it computes in-process (five chunks of 40 runs of a million
    comparisons: 22 s side by side, 26 s one after the other, on this machine).
    """
    try:
        from . import _wmt14_kernel
    except ImportError:  # pragma: no cover - numba is a dependency
        return None
    n_steps, params, used = prepare(comparisons, runs=runs, steps=steps, trueskill=trueskill)
    if params.draw_margin <= 0 and bool(comparisons.draws.any()):
        return None
    n, lanes = comparisons.n_systems, runs * len(rngs)
    if not (_wmt14_kernel.available(n, runs) and _wmt14_kernel.available(n, lanes)):
        return None
    task = _Task(comparisons, params, used, n_steps, [s for r in rngs for s in r.spawn(runs)])
    if n_steps > 0:
        progressed = 0

        def report(nb: int) -> None:
            nonlocal progressed
            progressed += nb
            if progress is not None:
                progress(min(progressed / n_steps, 1.0))

        _wmt14_kernel.advance([task], n_steps, block, report)
    return [task.result(confidence, slice(i * runs, (i + 1) * runs)) for i in range(len(rngs))]


def wmt14(
    comparisons: Comparisons,
    *,
    rng: np.random.Generator,
    runs: int = 200,
    confidence: float = 0.95,
    steps: int | None = None,
    progress: Progress | None = None,
    block: int = 2048,
    engine: str = "auto",
    **trueskill: Any,
) -> RankingResult:
    """Rank systems by TrueSkill with WMT14 active sampling, all runs advanced together.

    Parameters
    ----------
    comparisons : Comparisons
        The pairwise comparisons (every system needs at least one).
    rng : numpy.random.Generator
        Source of randomness; each run gets a child stream (``rng.spawn``).
    runs : int, default 200
        Number of independent runs.
    confidence : float, default 0.95
        Share of runs the rank range covers.
    steps : int, optional
        Updates per run; default the number of comparisons + 1.
    progress : callable, optional
        Called with the fraction done (0-1) after each block of steps.
    block : int, default 2048
        Steps per block of pre-drawn random numbers (memory ``block * runs * 16`` bytes).
    engine : {"auto", "compiled", "numpy"}, default "auto"
        ``"compiled"``: each run in its own compiled loop
        (:mod:`~ranking.stats._wmt14_kernel`), bit for bit the numbers of ``"numpy"``,
        the runs advanced together by numpy calls (the oracle); ``"auto"`` takes the
        compiled loop when its checks pass for these shapes, else numpy.
    **trueskill
        The TrueSkill environment (:meth:`TrueSkillParams.wmt14`): ``mu0`` and
        ``sigma0`` (prior mean and standard deviation, default 0.0 and 0.5), ``beta``
        (performance noise; default ``sigma0 * steps / 40`` as in the WMT14 scripts),
        ``tau`` (dynamics, default 0.0) and ``draw_probability`` (default 0.25).

    Returns
    -------
    RankingResult
        ``value`` is the mean mu over runs, ``spread`` its standard deviation over runs.

    Notes
    -----
    The runs are the lanes of one ``(2, n_systems, runs)`` state array (variances, then
    means). A step costs a fixed number of numpy calls (about 70) on arrays of length
    ``runs`` or ``runs * n_systems``: the most uncertain system, the opponent weights
    and their cumulative sums (one matrix product with a triangular matrix), the
    comparison looked up in a per-pair index, and one
    :meth:`~ranking.stats._trueskill.BatchUpdater.play` (see ``_advance`` for the
    details). Random numbers are drawn per run in blocks. Memory is
    ``O(runs * (n_systems + block))`` besides the comparisons. The result equals the
    tests' plain loop over the ``trueskill`` package up to floating-point rounding
    (about 1e-15).
    :func:`wmt14_many` ranks several comparison sets in one pass.

    References
    ----------
    Sakaguchi, K., Post, M. and Van Durme, B. (2014). Efficient elicitation of annotations
    for human evaluation of machine translation. WMT 2014, 1-11.
    Dušek, O., Novikova, J. and Rieser, V. (2020). Evaluating the state-of-the-art of
    End-to-End Natural Language Generation: The E2E NLG Challenge. Computer Speech &
    Language 59, 123-156.
    """
    (result,) = wmt14_many(
        [comparisons],
        rngs=[rng],
        runs=runs,
        confidence=confidence,
        steps=steps,
        progress=progress,
        block=block,
        engine=engine,
        **trueskill,
    )
    return result


def warm() -> None:
    """Compile (or load from the on-disk cache) the kernel and run the checks once."""
    from ._pairwise import judgements_to_comparisons

    judgement = np.repeat(np.arange(12), 3)
    system = np.tile([0, 1, 2], 12)
    score = np.tile([3.0, 2.0, 2.0], 12)
    comparisons = judgements_to_comparisons(judgement, system, score, n_systems=3)
    wmt14(comparisons, rng=np.random.default_rng(0), runs=8)
