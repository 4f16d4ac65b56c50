"""TrueSkill two-player updates with draws, in closed form and vectorised over games.

For two players the TrueSkill factor graph (Herbrich, Minka & Graepel 2007) has a single
truncation factor, and message passing converges in one sweep to a closed form. With
``s_i^2 = sigma_i^2 + tau^2``, ``c^2 = 2 beta^2 + s_1^2 + s_2^2``, ``t = (mu_1 - mu_2) / c``
and ``eps = draw_margin / c`` (player 1 the winner, or either player for a draw)::

    mu_1'    = mu_1 + s_1^2 / c * v            mu_2'    = mu_2 - s_2^2 / c * v
    sigma_1'^2 = s_1^2 (1 - s_1^2 / c^2 * w)   sigma_2'^2 = s_2^2 (1 - s_2^2 / c^2 * w)

with ``v, w = v_win(t, eps), w_win(t, eps)`` for a win and the draw versions for a draw.

The ``trueskill`` package (Lee 2012-2016), which the WMT14 scripts and the E2E NLG
Challenge used, evaluates the normal cdf with the Numerical Recipes ``erfcc``
approximation (fractional error below 1.2e-7) and the draw margin with its own inverse.
This module reproduces that arithmetic, so that results agree with
``trueskill.TrueSkill(..., backend=None).rate_1vs1`` to rounding (about 1e-15 per
update) rather than to the approximation error (the package itself is the oracle of
the tests, ``tests/ranking/stats/reference.py``, not a dependency of this code). Where the package gives up (it raises
``FloatingPointError`` far in the tails, when ``w`` leaves ``(0, 1)``), the exact
values computed stably with :func:`scipy.special.erfcx` are used instead.

References
----------
Herbrich, R., Minka, T. and Graepel, T. (2007). TrueSkill(TM): A Bayesian skill rating
system. Advances in Neural Information Processing Systems 19, 569-576.
Moser, J. (2010). Computing your skill (The Math Behind TrueSkill).
Press, W. H. et al. (1992). Numerical Recipes in C, 2nd ed., section 6.2 (``erfcc``).
Sakaguchi, K., Post, M. and Van Durme, B. (2014). Efficient elicitation of annotations for
human evaluation of machine translation. WMT 2014, 1-11.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "TRUESKILL_DEFAULTS",
    "BatchUpdater",
    "TrueSkillParams",
    "draw_margin",
    "normal_cdf",
    "normal_pdf",
    "normal_ppf",
    "vw_draw",
    "vw_win",
]

FloatArray = NDArray[np.float64]

_SQRT2 = math.sqrt(2)
_PDF_K = 1 / math.sqrt(2 * math.pi)
#: Numerical Recipes ``erfcc`` coefficients, constant term first.
_ERFC_C0 = -1.26551223
_ERFC_POLY = (
    1.00002368,
    0.37409196,
    0.09678418,
    -0.18628806,
    0.27886807,
    -1.13520398,
    1.48851587,
    -0.82215223,
    0.17087277,
)
#: ``|t| + eps`` below this keeps the package's arithmetic well inside its valid range.
_SAFE = 6.0


# --- the trueskill package's normal distribution ---------------------------------------


def _erfc(x: FloatArray) -> FloatArray:
    """Numerical Recipes ``erfcc``, operation for operation as ``trueskill.backends``."""
    z = np.abs(x)
    t = 1.0 / (1.0 + z / 2.0)
    poly: FloatArray = np.full_like(t, _ERFC_POLY[-1])
    for coef in _ERFC_POLY[-2::-1]:
        poly = coef + t * poly
    r = t * np.exp(-z * z + _ERFC_C0 + t * poly)
    return np.where(x < 0, 2.0 - r, r)


def normal_cdf(x: ArrayLike) -> FloatArray:
    """Standard normal cdf as the ``trueskill`` package computes it (``backend=None``)."""
    xs = np.asarray(x, dtype=np.float64)
    return 0.5 * _erfc(-xs / _SQRT2)


def normal_pdf(x: ArrayLike) -> FloatArray:
    """Standard normal density as the ``trueskill`` package computes it."""
    xs = np.asarray(x, dtype=np.float64)
    return _PDF_K * np.exp(-(xs**2) / 2)


def _erfc_scalar(x: float) -> float:
    return float(_erfc(np.asarray(x, dtype=np.float64)))


def _erfcinv(y: float) -> float:
    # Rational first guess and two Halley-like steps on the approximate erfc, as the
    # package does: the result inverts the *approximate* cdf.
    if y >= 2:
        return -100.0
    if y <= 0:
        return 100.0
    lower = y < 1
    if not lower:
        y = 2 - y
    t = math.sqrt(-2 * math.log(y / 2.0))
    x = -0.70711 * ((2.30753 + t * 0.27061) / (1.0 + t * (0.99229 + t * 0.04481)) - t)
    for _ in range(2):
        err = _erfc_scalar(x) - y
        x += err / (1.12837916709551257 * math.exp(-(x**2)) - x * err)
    return x if lower else -x


def normal_ppf(p: float) -> float:
    """Inverse of :func:`normal_cdf`, as the ``trueskill`` package computes it."""
    return -_SQRT2 * _erfcinv(2 * p)


def draw_margin(draw_probability: float, beta: float, size: int = 2) -> float:
    """Draw margin for a draw probability, as ``trueskill.calc_draw_margin``.

    ``epsilon = ppf((p + 1) / 2) * sqrt(size) * beta``, ``size`` being the number of
    players in the two teams (2 for a one-on-one game).
    """
    return normal_ppf((draw_probability + 1) / 2.0) * math.sqrt(size) * beta


@dataclass(frozen=True)
class TrueSkillParams:
    """A TrueSkill environment: prior ``mu``, ``sigma``; ``beta``, ``tau``, draw probability.

    Attributes
    ----------
    mu, sigma : float
        Prior mean and standard deviation of every system's skill.
    beta : float
        Performance noise (the skill distance giving about a 76% chance of winning).
    tau : float
        Dynamics: added (as variance) to each player's sigma before every game.
    draw_probability : float
        Probability of a draw between equal players; sets the draw margin.
    """

    mu: float
    sigma: float
    beta: float
    tau: float
    draw_probability: float

    def __post_init__(self) -> None:
        if not self.sigma > 0 or not self.beta > 0 or self.tau < 0:
            raise ValueError("TrueSkill needs sigma > 0, beta > 0 and tau >= 0")
        if not 0 <= self.draw_probability < 1:
            raise ValueError("draw_probability must lie in [0, 1)")

    @classmethod
    def wmt14(
        cls,
        n_steps: int,
        *,
        mu0: float = 0.0,
        sigma0: float = 0.5,
        beta: float | None = None,
        tau: float = 0.0,
        draw_probability: float = 0.25,
    ) -> TrueSkillParams:
        """The WMT14 scripts' environment: ``beta = sigma0 * n_steps / 40`` unless given.

        Sakaguchi et al.'s ``infer_TS.py`` sets ``mu = 0``, ``sigma = 0.5``, ``tau = 0``,
        a draw rate of 0.25 and ``beta = sigma * (number of steps / 40)``; the E2E NLG
        Challenge kept these settings. The keyword arguments are the TrueSkill methods'
        parameters (:data:`TRUESKILL_DEFAULTS`): the methods pass theirs through as they
        are given, so that the names and defaults live here only.
        """
        if beta is None:
            beta = sigma0 * (n_steps / 40.0)
        return cls(mu=mu0, sigma=sigma0, beta=beta, tau=tau, draw_probability=draw_probability)

    def as_parameters(self) -> dict[str, Any]:
        """The environment as the methods' parameters (``mu0``, ``sigma0``, ...), as used."""
        return {
            "mu0": self.mu,
            "sigma0": self.sigma,
            "beta": self.beta,
            "tau": self.tau,
            "draw_probability": self.draw_probability,
        }

    @property
    def draw_margin(self) -> float:
        """The one-on-one draw margin (``trueskill.calc_draw_margin(p, 2, env)``)."""
        return draw_margin(self.draw_probability, self.beta, 2)


#: The TrueSkill methods' parameters and their defaults (None: computed from the data)
TRUESKILL_DEFAULTS: dict[str, Any] = {
    name: p.default
    for name, p in inspect.signature(TrueSkillParams.wmt14).parameters.items()
    if p.kind is inspect.Parameter.KEYWORD_ONLY
}


# --- v and w ---------------------------------------------------------------------------


def _mills(z: FloatArray) -> FloatArray:
    """Mills ratio ``Phi(-z) / phi(z)``, stable for large ``z``."""
    # imported here: scipy.special costs about 0.3 s at every start-up, and only the far
    # tails (rare) need it
    from scipy.special import erfcx

    return math.sqrt(math.pi / 2) * erfcx(z / _SQRT2)


def _vw_win_exact(x: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Exact ``v = phi(x) / Phi(x)`` and ``w = v (v + x)``, stable in both tails."""
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        v = 1.0 / _mills(-x)
        w = v * (v + x)
        # Far in the lower tail ``v + x`` cancels; the asymptotic series of the Mills
        # ratio, R(z) ~ (1 - 1/z^2 + 3/z^4 - ...)/z, gives w = z^2 (1 - s) / s^2 with
        # s = z R(z).
        z = -x
        far = z > 10
        if np.any(far):
            zf = z[far]
            inv = 1.0 / (zf * zf)
            one_minus_s = inv * (1 - inv * (3 - inv * (15 - inv * (105 - inv * 945))))
            s = 1 - one_minus_s
            w = w.copy()
            w[far] = one_minus_s / (inv * s * s)
    return v, np.clip(w, 0.0, np.nextafter(1.0, 0.0))


def _vw_draw_exact(t: FloatArray, eps: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Exact draw ``v`` and ``w`` via Mills ratios (for the far tails)."""
    at = np.abs(t)
    a = eps - at
    b = -eps - at
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        e = np.exp(-2.0 * eps * at)  # phi(b) / phi(a)
        denom = _mills(-a) - e * _mills(-b)  # (Phi(a) - Phi(b)) / phi(a)
        big = (e - 1.0) / denom  # (phi(b) - phi(a)) / (Phi(a) - Phi(b))
        w = big * big + (a - b * e) / denom
        v = np.where(t < 0, -big, big)
    v = np.nan_to_num(v, nan=0.0)
    w = np.nan_to_num(w, nan=0.0)
    return v, np.clip(w, 0.0, np.nextafter(1.0, 0.0))


def vw_win(t: ArrayLike, eps: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """``v`` and ``w`` of a win for ``t = (mu_winner - mu_loser) / c``, ``eps = margin / c``.

    ``v = pdf(x) / cdf(x)`` and ``w = v (v + x)`` with ``x = t - eps``, evaluated exactly as
    ``trueskill.TrueSkill.v_win`` / ``w_win`` with the package's own cdf and pdf; where the
    package would raise (``w`` outside ``(0, 1)``), the exact tail values are returned.

    Returns
    -------
    v, w : ndarray of float64
        Broadcast shape of ``t`` and ``eps``.
    """
    tt, ee = np.broadcast_arrays(np.asarray(t, np.float64), np.asarray(eps, np.float64))
    x = tt - ee
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        denom = normal_cdf(x)
        v = np.where(denom != 0, normal_pdf(x) / np.where(denom != 0, denom, 1.0), -x)
        w = v * (v + x)
    bad = ~((w > 0) & (w < 1))
    if np.any(bad):
        v = np.array(v, copy=True)
        w = np.array(w, copy=True)
        v[bad], w[bad] = _vw_win_exact(x[bad])
    return v, w


def vw_draw(t: ArrayLike, eps: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """``v`` and ``w`` of a draw, as ``trueskill.TrueSkill.v_draw`` / ``w_draw``.

    With ``a = eps - |t|`` and ``b = -eps - |t|``:
    ``v = sign(t) (pdf(b) - pdf(a)) / (cdf(a) - cdf(b))`` (sign +1 at ``t = 0``) and
    ``w = v^2 + (a pdf(a) - b pdf(b)) / (cdf(a) - cdf(b))``; exact tail values where the
    package would raise.
    """
    tt, ee = np.broadcast_arrays(np.asarray(t, np.float64), np.asarray(eps, np.float64))
    at = np.abs(tt)
    a = ee - at
    b = -ee - at
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        denom = normal_cdf(a) - normal_cdf(b)
        pa, pb = normal_pdf(a), normal_pdf(b)
        safe = np.where(denom != 0, denom, 1.0)
        mag = np.where(denom != 0, (pb - pa) / safe, a)
        v = np.where(tt < 0, -mag, mag)
        w = mag * mag + (a * pa - b * pb) / safe
    bad = ~((w > 0) & (w < 1) & (denom != 0))
    if np.any(bad):
        v = np.array(v, copy=True)
        w = np.array(w, copy=True)
        v[bad], w[bad] = _vw_draw_exact(tt[bad], ee[bad])
    return v, w


# --- the fast kernel -------------------------------------------------------------------


def _const(x: float) -> FloatArray:
    # 0-d arrays: cheaper ufunc operands than Python floats
    return np.array(x, dtype=np.float64)


def update_coefficients() -> FloatArray:
    """The (4, 5) coefficient matrix of :class:`BatchUpdater`'s polynomial step (the
    compiled kernel multiplies by the same matrix)."""
    coefs = np.zeros((4, 5))
    coefs[0, :3] = _ERFC_POLY[0:3]
    coefs[0, 3] = _ERFC_C0 + math.log(0.5)
    coefs[1, 3] = math.log(_PDF_K)
    coefs[0:2, 4] = -0.5
    coefs[2, :3] = _ERFC_POLY[3:6]
    coefs[3, :3] = _ERFC_POLY[6:9]
    return coefs


class BatchUpdater:
    """In-place TrueSkill updates of one game in each of ``size`` independent lanes (runs).

    The ratings of all lanes live in one flat float array, the *state* (its layout is
    the caller's: :func:`~ranking.stats._wmt14.wmt14` uses ``(2, n_systems, lanes)``, variances
    then means). A step fills two buffers and calls :meth:`play`:

    ``pos`` (intp, shape ``(4, size)``)
        Flat state positions of, per lane, the first player's variance, the second
        player's variance, the first player's mean and the second player's mean. The
        first player is the winner (either player for a draw).
    ``cols`` (float, shape ``(5, size)``)
        The game's columns of a table made by :meth:`game_columns`: ``1``, the draw flag
        ``d`` (1.0 or 0.0), ``1 - 2 d``, and the offsets ``(2 d - 1) margin`` and
        ``-margin`` of the two truncation points.

    :meth:`play` gathers ``X = state[pos]`` (rows ``var_1, var_2, mu_1, mu_2``), updates
    it and scatters it back: about 40 numpy calls on arrays of ``size`` or ``2 * size``
    elements, whatever ``size`` is, which is what makes the WMT14 and bootstrap samplers
    fast. Callers fill the buffers with ``take(..., out=updater.pos)`` so that no array
    is allocated per step.

    The arithmetic is that of the ``trueskill`` package's ``rate_1vs1`` up to the order
    of floating-point operations (agreement to about 1e-15 per update).
    Win and draw share one formula. With ``D = mu_1 - mu_2``, ``c^2 = 2 beta^2 + s_1 +
    s_2`` (``s_i = var_i + tau^2``) and ``D' = D`` for a win, ``-|D|`` for a draw
    (``min(D, (1 - 2 d) D)``), the truncation points are ``p_1 = (D' + (2 d - 1)
    margin) / c`` (``t - eps`` for a win, ``eps - |t|`` for a draw) and ``p_2 = (D' -
    margin) / c``; then ``V = (pdf(p_1) - d pdf(p_2)) / (cdf(p_1) - d cdf(p_2))`` and
    ``w = V^2 + (p_1 pdf(p_1) - d p_2 pdf(p_2)) / (cdf(p_1) - d cdf(p_2))``. A draw's
    ``v`` is ``-V`` when ``D > 0`` (the package's ``sign(t)``): dividing by
    ``copysign(c, (1 - 2 d) D - D)`` gives ``v / c`` in one call.

    The normal cdf is the package's Numerical Recipes ``erfcc``: with
    ``tt = 1 / (1 + |p| / (2 sqrt 2))``, ``cdf(-|p|) = tt exp(-p^2 / 2 + C_0 + log(1/2) +
    sum_k c_k tt^k)`` (``k = 1 .. 9``). The rows ``tt, tt^2, tt^3``, ones and ``p^2`` of
    both players are stacked into one ``(5, 2 size)`` array; one matrix product with a
    ``(4, 5)`` coefficient matrix gives ``A`` (the terms ``k <= 3``, the constants and
    ``-p^2 / 2``), the pdf exponent ``log(1 / sqrt(2 pi)) - p^2 / 2`` and the cubic
    parts ``B``, ``C`` of the terms ``k = 4..6`` and ``7..9``; four calls form
    ``A + tt^3 (B + tt^3 C)`` and one ``exp`` call gives ``cdf(-|p|) / tt`` and
    ``pdf(p)``. ``cdf(p)`` is ``|[p > 0] - cdf(-|p|)|`` (only ``p_1`` can be positive).

    Steps that reach into the tails (some ``|p| >= 6``) go through :func:`vw_win` /
    :func:`vw_draw` for all lanes of that step; so do steps with a draw when some lane
    has a zero draw margin.

    Parameters
    ----------
    size : int
        Number of simultaneous games (lanes).
    beta, tau, margin : float or ndarray of shape (size,)
        Performance noise, dynamics factor and draw margin (arrays let lanes with
        different environments, e.g. two criteria, advance side by side). :meth:`play`
        takes the margin from the game columns, which must be made with the same one.
    """

    def __init__(
        self,
        size: int,
        *,
        beta: float | FloatArray,
        tau: float | FloatArray,
        margin: float | FloatArray,
    ) -> None:
        self.size = size
        ones = np.ones(size)
        self.two_beta2 = 2.0 * np.asarray(beta, np.float64) ** 2 * ones
        self.tau2 = np.asarray(tau, np.float64) ** 2 * ones
        self.has_tau = bool(np.any(self.tau2 > 0))
        self.margin = np.asarray(margin, np.float64) * ones
        self.zero_margin = bool(np.any(self.margin <= 0))
        self.pos = np.zeros((4, size), dtype=np.intp)
        self.cols = np.zeros((5, size))
        self.cols[0] = 1.0

        # The erfcc polynomial sum_k c_k tt^k (k = 1..9) as A + tt^3 (B + tt^3 C) with A, B,
        # C combinations of tt, tt^2, tt^3: one matrix product of the rows tt, tt^2, tt^3,
        # ones and p^2 gives A (with the constant and -p^2 / 2 folded in), the pdf
        # exponent log(1 / sqrt(2 pi)) - p^2 / 2, B and C.
        pw = np.empty((5, 2 * size))
        pw[3] = 1.0
        coefs = update_coefficients()
        q = np.empty((4, 2 * size))
        # b, per player: exp(cdf exponent) = cdf(-|p|) / tt, pdf(p), p pdf(p), cdf(p);
        # rows 1-3 of the first player minus d times the second player's give the
        # numerator of V, the numerator of w - V^2 and their denominator
        b = np.empty((4, 2, size))
        x = np.empty((4, size))
        c, diff, diff_k, diff_d, h0 = (np.empty(size) for _ in range(5))
        denominators = np.empty((2, size))  # [+-c, c^2]: v / c and w / c^2 in one call
        r = np.empty((3, size))  # [V then v / c, w then w / c^2, denominator]
        p, ap = np.empty((2, size)), np.empty((2, size))
        k = np.empty((2, 2, size))
        self._x = x
        self._views: tuple[Any, ...] = (
            x.reshape(2, 2, size),  # [[var_1, var_2], [mu_1, mu_2]]
            x[0:2],
            x[0],
            x[1],
            x[2],
            x[3],
            c,
            diff,
            diff_k,
            diff_d,
            h0,
            denominators,
            denominators[0],
            denominators[1],
            p,
            p[0],
            ap,
            ap.reshape(-1),
            self.cols[1],
            self.cols[2],
            self.cols[3:5],
        )
        self._poly: tuple[Any, ...] = (
            pw,
            pw[0].reshape(2, size),
            pw[0],
            pw[1],
            pw[2],
            pw[4].reshape(2, size),
            coefs,
            q,
            q[0],
            q[2],
            q[3],
            q[0:2],
            b[0:2].reshape(2, 2 * size),
            b[0],
            b[1],
            b[2],
            b[3],
            b[3, 0],
            b[1:4, 0],
            b[1:4, 1],
        )
        self._results: tuple[Any, ...] = (r, r[0:2], r[0], r[1], r[2], k, k[0], k[1])
        self._signs = np.array([[-1.0], [1.0]])
        self._c_2sqrt2 = _const(2.0 * _SQRT2)
        self._c_zero = _const(0.0)

    @staticmethod
    def game_columns(drawn: ArrayLike, margin: float | ArrayLike) -> FloatArray:
        """The ``(5, m)`` table of :attr:`cols` rows for ``m`` games (see the class).

        Rows: ``1``, ``d``, ``1 - 2 d``, ``(2 d - 1) margin``, ``-margin`` with ``d`` the
        draw flag; callers gather columns of it (or of the two-column table of
        ``drawn = [0, 1]``, indexed by the draw flag) into :attr:`cols`.
        """
        d = np.asarray(drawn, np.float64)
        marg = np.asarray(margin, np.float64) * np.ones_like(d)
        return np.stack([np.ones_like(d), d, 1.0 - 2.0 * d, (2.0 * d - 1.0) * marg, -marg])

    def play(self, state: FloatArray) -> None:
        """Play the games described by :attr:`pos` and :attr:`cols` on the flat ``state``."""
        x = self._x
        state.take(self.pos, out=x, mode="clip")
        self._update()
        state[self.pos] = x

    def __call__(
        self,
        mu: FloatArray,
        var: FloatArray,
        pos: NDArray[np.intp],
        kind: FloatArray,
        var_pos: NDArray[np.intp] | None = None,
    ) -> None:
        """Play one game per lane on separate flat ``mu`` and ``var`` arrays.

        ``pos`` (shape ``(2, size)``) holds the players' positions in ``mu`` (and in
        ``var`` unless ``var_pos`` is given); ``kind`` (shape ``(2, size)``) the draw
        flag (1.0 or 0.0) and its sign (+1.0 for a draw, -1.0 for a win).
        """
        vpos = pos if var_pos is None else var_pos
        x = self._x
        var.take(vpos, out=x[0:2])
        mu.take(pos, out=x[2:4])
        drawn = np.asarray(kind[0], np.float64)
        self.cols[1:] = self.game_columns(drawn, self.margin)[1:]
        self._update()
        var[vpos] = x[0:2]
        mu[pos] = x[2:4]

    def _update(self) -> None:
        add, sub, mul, div = np.add, np.subtract, np.multiply, np.divide
        x4, s, s1, s2, m1, m2, c, diff, diff_k, diff_d, h0, dens, v_den, s_sum = self._views[:14]
        p, p1, ap, ap_flat, drawn, order, offsets = self._views[14:]
        r, r_vw, v, w, r_den, k, k_var, k_mu = self._results
        if self.has_tau:
            add(s, self.tau2, s)
        add(s1, s2, s_sum)
        add(s_sum, self.two_beta2, s_sum)  # c^2
        np.sqrt(s_sum, c)
        sub(m1, m2, diff)
        mul(diff, order, diff_k)
        np.minimum(diff, diff_k, out=diff_d)  # D for a win, -|D| for a draw
        add(offsets, diff_d, p)
        div(p, c, p)  # the truncation points p_1, p_2
        np.absolute(p, ap)
        if np.maximum.reduce(ap_flat) >= _SAFE or (self.zero_margin and drawn.any()):
            self._tail(diff, c, s_sum, v, w)
        else:
            (pw, tt, t1, t2, t3, p_sq, coefs, q, q_a, q_b, q_c, q_exp) = self._poly[:12]
            (b_exp, b_cdf_tt, b_pdf, b_ppdf, b_cdf, cdf1, z1, z2) = self._poly[12:]
            add(ap, self._c_2sqrt2, ap)
            div(self._c_2sqrt2, ap, tt)  # tt = 1 / (1 + |p| / (2 sqrt 2))
            mul(t1, t1, t2)
            mul(t2, t1, t3)
            np.square(p, p_sq)
            np.matmul(coefs, pw, q)
            mul(q_c, t3, q_c)
            add(q_c, q_b, q_c)
            mul(q_c, t3, q_c)
            add(q_a, q_c, q_a)  # A + tt^3 (B + tt^3 C)
            np.exp(q_exp, b_exp)
            mul(tt, b_cdf_tt, b_cdf)  # cdf(-|p|)
            np.greater(p1, self._c_zero, h0)  # 1.0 where p_1 > 0
            sub(h0, cdf1, cdf1)
            np.absolute(cdf1, cdf1)  # cdf(p_1)
            mul(p, b_pdf, b_ppdf)
            mul(z2, drawn, z2)  # the second player's terms count for draws only
            sub(z1, z2, r)
            div(r_vw, r_den, r_vw)  # V and (p_1 pdf(p_1) - d p_2 pdf(p_2)) / den
            mul(v, v, h0)
            add(w, h0, w)  # w = V^2 + ...
            sub(diff_k, diff, v_den)
            np.copysign(c, v_den, v_den)  # -c for a draw with D > 0
            div(r_vw, dens, r_vw)  # v / c and w / c^2
        # var_i -= var_i^2 w / c^2;  mu_1 += var_1 v / c;  mu_2 -= var_2 v / c
        mul(s, w, k_var)
        mul(self._signs, v, k_mu)
        mul(k, s, k)
        sub(x4, k, x4)

    def _tail(
        self, diff: FloatArray, c: FloatArray, c2: FloatArray, v: FloatArray, w: FloatArray
    ) -> None:
        """``v / c`` and ``w / c^2`` through :func:`vw_win` / :func:`vw_draw`."""
        t = diff / c
        eps = -self.cols[4] / c
        v_w, w_w = vw_win(t, eps)
        v_d, w_d = vw_draw(t, eps)
        is_draw = self.cols[1] > 0
        np.divide(np.where(is_draw, v_d, v_w), c, v)
        np.divide(np.where(is_draw, w_d, w_w), c2, w)
