"""A ranking split into chunks of runs that can be computed anywhere, in any order.

A request of ``runs`` runs is cut into chunks of ``chunk_runs`` runs (the last one
shorter): a stored parameter of the request, never derived from the number of workers.
Chunk ``i`` of ``n`` draws from its own generator, built from
``numpy.random.SeedSequence(seed).spawn(n)[i]``; the stability check of the merged
result draws from the next child, ``spawn(n + 1)[n]``. A chunk's output
(:class:`ChunkResult`: the per-run values, plus the fitted value of the methods whose
value is not a mean over runs) is serialised to bytes (``.npz``, no pickle) so that it
can be stored anywhere; :func:`merge_chunks` puts the chunks back in index order, so
the merged result is the same bit for bit whatever computed the chunks, in what order
and how many at a time. :func:`compute_chunked` does it all in one process (the
reference the fanned-out computation must equal).
"""

from __future__ import annotations

import io
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._compute import ComputedRanking, prepare_comparisons
from ._methods import check_parameters, run_method
from ._pairwise import Comparisons
from ._resample import one_blas_thread
from ._result import RankingResult, summarise_runs
from ._stability import MAX_RUNS, cluster_stability
from ._wmt14 import wmt14_side_by_side

__all__ = [
    "DEFAULT_CHUNK_RUNS",
    "GROUP_MAX_CHUNKS",
    "ChunkResult",
    "chunk_groups",
    "chunk_rng",
    "chunk_runs_for",
    "chunk_sizes",
    "chunks_side_by_side",
    "chunks_sized_by_comparisons",
    "compute_chunk",
    "compute_chunked",
    "compute_chunks",
    "merge_chunks",
]

#: runs per chunk of a new ranking run (stored with the run; changing it changes the
#: numbers of runs created afterwards only). A multiple of 8: the compiled WMT14 kernel
#: serves a chunk only when its exactness check passes for that many lanes, which on
#: this machine fails for e.g. 25, 50 or 100 runs of the 21 E2E systems (the numpy path
#: then computes the same numbers, 25x slower: 200 runs in chunks of 25 took 15.6 s,
#: in chunks of 40 0.62 s, unchunked 0.56 s). 40 also splits 200 and 400 runs evenly.
DEFAULT_CHUNK_RUNS = 40

#: methods whose value is the mean over runs; the others' value is a fit on all the
#: data, the same in every chunk
_MEAN_OF_RUNS = ("wmt14", "bootstrap")


#: WMT14 chunks advanced side by side in one compiled pass, in runs (lanes) at most: more
#: lanes outgrow the caches (E2E quality, 2,000 runs on one core: all 2,000 side by side
#: 7.7 s, 160 at a time 5.7 s, one chunk of 80 at a time 6.2 s)
SIDE_BY_SIDE_LANES = 200

#: the compute time a chunk is sized for: large against what a chunk costs beyond its
#: computation (a Celery message, claiming it, storing its result: 30-90 ms measured)
CHUNK_SECONDS = 1.0
#: fewest chunks a run is cut into when its runs allow. A fanned-out run's chunks go out
#: in a few tasks per worker (:func:`chunk_groups`), so a chunk no longer costs a message
#: of its own: 32 lets 2, 4 or 8 workers get even shares (E2E quality's 2,000 runs: 50
#: chunks of 40, ten side-by-side passes of 200 runs, five per worker of two; with 16,
#: 25 chunks of 80 left one of two workers 13 chunks and the other 12)
MIN_CHUNKS = 32
#: seconds per run per comparison, one core (WMT14's and TrueSkill bootstrap's steps:
#: E2E quality, about 30,000 comparisons, 2,000 runs in 22 s on this project's machine)
SECONDS_PER_COMPARISON = {"wmt14": 3.7e-7, "bootstrap": 3.7e-7}


def chunk_runs_for(
    method: str, runs: int, comparisons: int, *, unit: int = DEFAULT_CHUNK_RUNS
) -> int:
    """The runs per chunk of a new run, sized by cost: the largest multiple of
    :data:`DEFAULT_CHUNK_RUNS` whose chunk computes in about :data:`CHUNK_SECONDS` and
    that still cuts the run into :data:`MIN_CHUNKS` chunks when its runs allow, and never less than
    :data:`DEFAULT_CHUNK_RUNS` (a multiple of 8: the compiled kernel's lanes). Methods
    whose runs cost little per comparison (Bradley-Terry, expected wins: counts and
    fits) keep :data:`DEFAULT_CHUNK_RUNS`. Stored with the run, so its numbers never
    depend on this rule afterwards. ``unit``: the smallest chunk (the default's)."""
    per_run = SECONDS_PER_COMPARISON.get(method, 0.0) * max(comparisons, 0)
    if per_run <= 0:
        return unit
    by_cost = int(CHUNK_SECONDS // (per_run * unit))
    by_count = runs // (unit * MIN_CHUNKS)
    return unit * max(1, min(by_cost, by_count))


def chunks_sized_by_comparisons(method: str) -> bool:
    """Whether :func:`chunk_runs_for` sizes ``method``'s chunks by its comparisons (WMT14
    and TrueSkill bootstrap); the other methods' chunks are ``unit`` runs whatever the
    comparisons, so a caller need not count them."""
    return SECONDS_PER_COMPARISON.get(method, 0.0) > 0


def chunks_side_by_side(method: str, chunk_runs: int) -> int:
    """How many of a run's chunks :func:`compute_chunks` advances in one compiled pass
    (WMT14: :data:`SIDE_BY_SIDE_LANES` runs; the other methods one chunk at a time)."""
    if method != "wmt14":
        return 1
    return max(1, SIDE_BY_SIDE_LANES // max(chunk_runs, 1))


#: the Celery tasks a fanned-out run is dealt in, per worker process: each task claims
#: several consecutive chunks at once, computes them side by side and stores them in one
#: transaction (a task costs 30-90 ms beyond its computation: message, claim, store), and
#: a few per worker still even out workers that run at different speeds
GROUPS_PER_WORKER = 3
#: the most chunks one task takes (chunks are sized to about :data:`CHUNK_SECONDS` each,
#: at least :data:`DEFAULT_CHUNK_RUNS` runs): a task killed, or stopped at Celery's time
#: limit, loses at most this much work, and a long run is dealt in more tasks than
#: ``workers * GROUPS_PER_WORKER`` rather than in tasks of an hour
GROUP_MAX_CHUNKS = 60


def chunk_groups(
    indices: Sequence[int],
    *,
    workers: int,
    together: int = 1,
    per_worker: int = GROUPS_PER_WORKER,
    max_chunks: int = GROUP_MAX_CHUNKS,
) -> list[list[int]]:
    """Deal the chunks ``indices`` (a run's chunks to compute) into the tasks that compute
    them: at most ``workers * per_worker`` groups of consecutive indices, each made of
    whole units of ``together`` chunks (the chunks one compiled pass advances side by
    side) and as even as the units allow, the larger groups first, none of more than
    ``max_chunks`` chunks (or one unit, when a unit is larger). Which chunks go
    together never changes a chunk's numbers (:func:`compute_chunks`), only how many
    messages, claims and stores the run costs."""
    if workers < 1 or together < 1 or per_worker < 1 or max_chunks < 1:
        raise ValueError("workers, together, per_worker and max_chunks must be at least 1")
    ordered = sorted(set(indices))
    units: list[list[int]] = []
    for index in ordered:
        last = units[-1] if units else None
        if last is not None and len(last) < together and last[-1] + 1 == index:
            last.append(index)
        else:
            units.append([index])
    most_units = max(1, max_chunks // together)  # units per group at most
    n_groups = min(len(units), max(workers * per_worker, math.ceil(len(units) / most_units)))
    if n_groups == 0:
        return []
    base, extra = divmod(len(units), n_groups)
    groups: list[list[int]] = []
    start = 0
    for g in range(n_groups):
        size = base + (1 if g < extra else 0)
        group: list[int] = []
        for unit in units[start : start + size]:
            if group and group[-1] + 1 != unit[0]:  # a gap (chunks already done): a new task
                groups.append(group)
                group = []
            group.extend(unit)
        groups.append(group)
        start += size
    return groups


def chunk_sizes(runs: int, chunk_runs: int) -> list[int]:
    """The runs of each chunk: ``chunk_runs`` each, the last one what is left."""
    if runs < 1 or chunk_runs < 1:
        raise ValueError("runs and chunk_runs must be at least 1")
    return [min(chunk_runs, runs - start) for start in range(0, runs, chunk_runs)]


def chunk_rng(seed: int, n_chunks: int, index: int) -> np.random.Generator:
    """The generator of chunk ``index`` of ``n_chunks`` (``index == n_chunks``: the
    stability check's): ``SeedSequence(seed).spawn(n_chunks + 1)[index]``."""
    if not 0 <= index <= n_chunks:
        raise ValueError(f"chunk index {index} outside 0..{n_chunks}")
    return np.random.default_rng(np.random.SeedSequence(seed).spawn(n_chunks + 1)[index])


@dataclass(frozen=True, eq=False)
class ChunkResult:
    """What one chunk computed: enough to merge, nothing that depends on who ran it."""

    index: int
    method: str
    #: shape (runs of this chunk, ranked systems)
    run_values: NDArray[np.float64]
    #: the fitted value (methods that are not a mean over runs), else None
    value: NDArray[np.float64] | None
    comparisons: NDArray[np.int64]
    n_comparisons: int
    params: dict[str, Any]

    def to_bytes(self) -> bytes:
        buffer = io.BytesIO()
        arrays: dict[str, Any] = {
            "run_values": self.run_values,
            "comparisons": self.comparisons,
            "meta": np.array(
                json.dumps(
                    {
                        "index": self.index,
                        "method": self.method,
                        "n_comparisons": self.n_comparisons,
                        "params": self.params,
                    }
                )
            ),
        }
        if self.value is not None:
            arrays["value"] = self.value
        np.savez(buffer, **arrays)
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> ChunkResult:
        with np.load(io.BytesIO(bytes(data)), allow_pickle=False) as npz:
            meta = json.loads(str(npz["meta"]))
            return cls(
                index=int(meta["index"]),
                method=str(meta["method"]),
                run_values=np.asarray(npz["run_values"], dtype=np.float64),
                value=np.asarray(npz["value"], dtype=np.float64) if "value" in npz else None,
                comparisons=np.asarray(npz["comparisons"], dtype=np.int64),
                n_comparisons=int(meta["n_comparisons"]),
                params=dict(meta["params"]),
            )


def compute_chunk(
    comparisons: Comparisons,
    *,
    method: str,
    runs: int,
    chunk_runs: int,
    index: int,
    seed: int,
    confidence: float = 0.95,
    parameters: Mapping[str, Any] | None = None,
    progress: Callable[[float], None] | None = None,
) -> ChunkResult:
    """Compute chunk ``index`` of a ranking of ``runs`` runs (checked parameters).

    ``progress`` receives the fraction of this chunk done; raising from it stops it.
    """
    (chunk,) = compute_chunks(
        comparisons,
        method=method,
        runs=runs,
        chunk_runs=chunk_runs,
        indices=[index],
        seed=seed,
        confidence=confidence,
        parameters=parameters,
        progress=progress,
    )
    return chunk


def compute_chunks(
    comparisons: Comparisons,
    *,
    method: str,
    runs: int,
    chunk_runs: int,
    indices: Sequence[int],
    seed: int,
    confidence: float = 0.95,
    parameters: Mapping[str, Any] | None = None,
    progress: Callable[[float], None] | None = None,
) -> list[ChunkResult]:
    """Chunks ``indices`` of a ranking in this process: each exactly what
    :func:`compute_chunk` gives it, in the order of ``indices``.

    WMT14's full-size chunks are advanced side by side, about
    :data:`SIDE_BY_SIDE_LANES` runs per compiled pass, where the kernel allows it
    (:func:`~ranking.stats._wmt14.wmt14_side_by_side`); Bradley-Terry's
    and expected wins' chunks in a thread per core (:data:`_THREADED`); the others one
    after the other. ``progress`` receives the fraction of these chunks' runs done.
    """
    params = dict(parameters or {})
    check_parameters(method, params, runs=runs, confidence=confidence)
    sizes = chunk_sizes(runs, chunk_runs)
    for index in indices:
        if not 0 <= index < len(sizes):
            raise ValueError(f"chunk index {index} outside 0..{len(sizes) - 1}")
    total = sum(sizes[index] for index in indices)
    done = 0

    def share(size: int) -> Callable[[float], None] | None:
        if progress is None:
            return None
        before = done

        def report(fraction: float) -> None:
            progress(min((before + fraction * size) / total, 1.0))

        return report

    results: dict[int, RankingResult] = {}
    full = [i for i in indices if sizes[i] == chunk_runs] if method == "wmt14" else []
    group = max(2, SIDE_BY_SIDE_LANES // chunk_runs)
    for start in range(0, len(full), group):
        together = full[start : start + group]
        if len(together) < 2:
            break
        many = wmt14_side_by_side(
            comparisons,
            rngs=[chunk_rng(seed, len(sizes), i) for i in together],
            runs=chunk_runs,
            confidence=confidence,
            progress=share(chunk_runs * len(together)),
            **params,
        )
        if many is not None:
            results.update(zip(together, many, strict=True))
            done += chunk_runs * len(together)
    left = [index for index in indices if index not in results]
    threads = min(len(left), _cores()) if method in _THREADED else 1
    if threads > 1:

        def one(index: int) -> RankingResult:
            return run_method(
                method,
                comparisons,
                rng=chunk_rng(seed, len(sizes), index),
                runs=sizes[index],
                confidence=confidence,
                progress=None,
                parameters=params,
            )

        # each chunk computes exactly what it computes alone (its own generator, one
        # BLAS thread throughout); progress is heard here, a chunk at a time, and a
        # progress that raises (the run stopped) cancels the chunks not started
        with one_blas_thread():
            pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="chunk")
            try:
                futures = {pool.submit(one, index): index for index in left}
                for future in as_completed(futures):
                    index = futures[future]
                    results[index] = future.result()
                    report = share(sizes[index])
                    if report is not None:
                        report(1.0)
                    done += sizes[index]
            finally:
                pool.shutdown(wait=True, cancel_futures=True)
        left = []
    for index in left:
        results[index] = run_method(
            method,
            comparisons,
            rng=chunk_rng(seed, len(sizes), index),
            runs=sizes[index],
            confidence=confidence,
            progress=share(sizes[index]),
            parameters=params,
        )
        done += sizes[index]
    return [_chunk_result(index, method, results[index]) for index in indices]


#: methods whose chunks compute in several threads of one process (numpy releases the
#: GIL in their resampling and fits; WMT14 goes side by side in its compiled kernel)
_THREADED = ("bradley_terry", "expected_wins")


def _cores() -> int:
    try:
        return max(1, min(len(os.sched_getaffinity(0)), 8))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, min(os.cpu_count() or 1, 8))


def _chunk_result(index: int, method: str, result: RankingResult) -> ChunkResult:
    return ChunkResult(
        index=index,
        method=result.method,
        run_values=np.asarray(result.run_values, dtype=np.float64),
        value=None if method in _MEAN_OF_RUNS else np.asarray(result.value, dtype=np.float64),
        comparisons=np.asarray(result.comparisons, dtype=np.int64),
        n_comparisons=int(result.n_comparisons),
        params=_jsonable(result.params),
    )


def merge_chunks(
    chunks: Sequence[ChunkResult],
    *,
    ranked: ArrayLike,
    runs: int,
    chunk_runs: int,
    seed: int,
    confidence: float = 0.95,
    max_runs: int = MAX_RUNS,
) -> ComputedRanking:
    """Merge every chunk of a ranking (any order given) into the ranking to store
    (``max_runs``: the most runs the stability check may suggest)."""
    sizes = chunk_sizes(runs, chunk_runs)
    ordered = sorted(chunks, key=lambda c: c.index)
    if [c.index for c in ordered] != list(range(len(sizes))):
        raise ValueError(
            f"merging needs chunks 0..{len(sizes) - 1} once each, got {[c.index for c in ordered]}"
        )
    for chunk, size in zip(ordered, sizes, strict=True):
        if chunk.run_values.shape[0] != size:
            raise ValueError(
                f"chunk {chunk.index} has {chunk.run_values.shape[0]} runs, expected {size}"
            )
    first = ordered[0]
    result = summarise_runs(
        method=first.method,
        run_values=np.concatenate([c.run_values for c in ordered]),
        value=first.value,
        confidence=confidence,
        comparisons=first.comparisons,
        n_comparisons=first.n_comparisons,
        params=first.params,
    )
    stability = cluster_stability(
        result, rng=chunk_rng(seed, len(sizes), len(sizes)), max_runs=max_runs
    )
    return ComputedRanking(
        result=result,
        stability=stability.as_dict(),
        ranked=np.asarray(ranked, dtype=np.int64),
    )


def compute_chunked(
    *,
    method: str,
    n_systems: int,
    judgement: ArrayLike,
    system: ArrayLike,
    score: ArrayLike,
    slot: ArrayLike | None = None,
    runs: int = 200,
    chunk_runs: int = DEFAULT_CHUNK_RUNS,
    seed: int = 1,
    confidence: float = 0.95,
    parameters: Mapping[str, Any] | None = None,
    progress: Callable[[float], None] | None = None,
    min_comparisons: int = 0,
) -> ComputedRanking:
    """Every chunk in this process, one after the other, then :func:`merge_chunks`
    (``min_comparisons``: see :func:`~ranking.stats.prepare_comparisons`)."""
    comparisons, ranked = prepare_comparisons(
        n_systems=n_systems,
        judgement=judgement,
        system=system,
        score=score,
        slot=slot,
        min_comparisons=min_comparisons,
    )
    sizes = chunk_sizes(runs, chunk_runs)
    chunks = []
    done = 0
    for index, size in enumerate(sizes):

        def report(fraction: float, done: int = done, size: int = size) -> None:
            if progress is not None:
                progress(min((done + fraction * size) / runs, 1.0))

        chunks.append(
            compute_chunk(
                comparisons,
                method=method,
                runs=runs,
                chunk_runs=chunk_runs,
                index=index,
                seed=seed,
                confidence=confidence,
                parameters=parameters,
                progress=report,
            )
        )
        done += size
    return merge_chunks(
        chunks, ranked=ranked, runs=runs, chunk_runs=chunk_runs, seed=seed, confidence=confidence
    )


def _jsonable(params: Mapping[str, Any]) -> dict[str, Any]:
    """The method's parameters as JSON round-trips them (numpy scalars to Python)."""
    return dict(json.loads(json.dumps(dict(params), default=_to_python)))


def _to_python(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"parameter value {value!r} is not JSON")
