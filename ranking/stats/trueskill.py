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
update) rather than to the approximation error. Where the package gives up (it raises
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

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import trueskill as _ts
from numpy.typing import ArrayLike, NDArray
from scipy.special import erfcx

__all__ = [
    "TrueSkillParams",
    "draw_margin",
    "normal_cdf",
    "normal_pdf",
    "normal_ppf",
    "rate_1vs1",
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
        mu: float = 0.0,
        sigma: float = 0.5,
        beta: float | None = None,
        tau: float = 0.0,
        draw_probability: float = 0.25,
    ) -> TrueSkillParams:
        """The WMT14 scripts' environment: ``beta = sigma * n_steps / 40`` unless given.

        Sakaguchi et al.'s ``infer_TS.py`` sets ``mu = 0``, ``sigma = 0.5``, ``tau = 0``,
        a draw rate of 0.25 and ``beta = sigma * (number of steps / 40)``; the E2E NLG
        Challenge kept these settings.
        """
        if beta is None:
            beta = sigma * (n_steps / 40.0)
        return cls(mu=mu, sigma=sigma, beta=beta, tau=tau, draw_probability=draw_probability)

    @property
    def draw_margin(self) -> float:
        """The one-on-one draw margin (``trueskill.calc_draw_margin(p, 2, env)``)."""
        return draw_margin(self.draw_probability, self.beta, 2)

    def env(self) -> _ts.TrueSkill:
        """An explicit ``trueskill.TrueSkill`` environment (never the global one)."""
        return _ts.TrueSkill(
            mu=self.mu,
            sigma=self.sigma,
            beta=self.beta,
            tau=self.tau,
            draw_probability=self.draw_probability,
            backend=None,
        )


# --- v and w ---------------------------------------------------------------------------


def _mills(z: FloatArray) -> FloatArray:
    """Mills ratio ``Phi(-z) / phi(z)``, stable for large ``z``."""
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


def rate_1vs1(
    mu1: ArrayLike,
    sigma1: ArrayLike,
    mu2: ArrayLike,
    sigma2: ArrayLike,
    drawn: ArrayLike,
    params: TrueSkillParams,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Rate many independent one-on-one games at once (player 1 won unless drawn).

    Equivalent, element by element, to
    ``params.env().rate_1vs1(Rating(mu1, sigma1), Rating(mu2, sigma2), drawn=drawn)``.

    Parameters
    ----------
    mu1, sigma1, mu2, sigma2 : array_like of float
        Ratings before the games (broadcast together).
    drawn : array_like of bool
        Whether each game was a draw.
    params : TrueSkillParams
        The environment.

    Returns
    -------
    mu1, sigma1, mu2, sigma2 : ndarray of float64
        Ratings after the games.

    References
    ----------
    Herbrich, R., Minka, T. and Graepel, T. (2007). TrueSkill(TM): A Bayesian skill rating
    system. NIPS 19, 569-576.
    """
    m1, s1, m2, s2, dr = np.broadcast_arrays(
        np.asarray(mu1, np.float64),
        np.asarray(sigma1, np.float64),
        np.asarray(mu2, np.float64),
        np.asarray(sigma2, np.float64),
        np.asarray(drawn, np.bool_),
    )
    tau2 = params.tau**2
    var1 = s1**2 + tau2
    var2 = s2**2 + tau2
    c2 = 2 * params.beta**2 + var1 + var2
    c = np.sqrt(c2)
    t = (m1 - m2) / c
    eps = params.draw_margin / c
    v_w, w_w = vw_win(t, eps)
    v_d, w_d = vw_draw(t, eps)
    v = np.where(dr, v_d, v_w)
    w = np.where(dr, w_d, w_w)
    new_m1 = m1 + var1 / c * v
    new_m2 = m2 - var2 / c * v
    new_s1 = np.sqrt(var1 * (1 - var1 / c2 * w))
    new_s2 = np.sqrt(var2 * (1 - var2 / c2 * w))
    return new_m1, new_s1, new_m2, new_s2


# --- the fast kernel -------------------------------------------------------------------


def _const(x: float) -> FloatArray:
    # 0-d arrays: cheaper ufunc operands than Python floats
    return np.array(x, dtype=np.float64)


class BatchUpdater:
    """In-place TrueSkill updates of one game in each of ``size`` independent runs.

    The ratings of all runs live in flat arrays ``mu`` and ``var`` (variances). A step
    passes, for each run, the flat positions of the two players (``pos``,
    shape ``(2, size)``; row 0 the winner, or either player of a draw) and, for each
    run, the draw flag and its sign (``kind``, shape ``(2, size)``: row 0 is 1.0 for a
    draw and 0.0 for a win, row 1 is +1.0 for a draw and -1.0 for a win). A step costs a
    fixed number of numpy calls on preallocated length-``size`` buffers, whatever
    ``size`` is: this is what makes the WMT14 and bootstrap samplers fast. ``var_pos``
    gives the positions in ``var`` when it is laid out differently from ``mu``.

    The arithmetic is that of :func:`rate_1vs1` (and so of the ``trueskill`` package)
    up to the order of floating-point operations (agreement to about 1e-15 per
    update). Win and draw are evaluated by one formula: with ``a``, ``b`` the
    truncation points (``a = t - eps`` for a win; ``a = eps - |t|``, ``b = -eps - |t|``
    for a draw) and ``d`` the draw flag, ``V = (pdf(a) - d pdf(b)) / (cdf(a) - d cdf(b))``
    and ``w = V^2 + (a pdf(a) - d b pdf(b)) / (cdf(a) - d cdf(b))``. Steps that reach
    into the tails (``|t| + eps >= 6``) go through :func:`vw_win` / :func:`vw_draw`.

    Parameters
    ----------
    size : int
        Number of simultaneous games (runs).
    beta, margin : float or ndarray of shape (size,)
        Performance noise and draw margin (arrays let runs with different
        environments advance side by side).
    tau : float
        Dynamics factor.
    """

    def __init__(
        self,
        size: int,
        *,
        beta: float | FloatArray,
        tau: float,
        margin: float | FloatArray,
    ) -> None:
        self.size = size
        self.two_beta2 = 2.0 * np.asarray(beta, np.float64) ** 2 * np.ones(size)
        self.tau2 = _const(float(tau) ** 2)
        self.has_tau = bool(tau)
        self.margin = np.asarray(margin, np.float64) * np.ones(size)
        max_eps = float(np.max(self.margin / np.sqrt(self.two_beta2)))
        self.safe_t = _SAFE - max_eps
        n_pw = len(_ERFC_POLY)
        # Powers t^1..t^9 of the erfcc variable, and a constant row: the dot product with
        # the coefficients then adds log(0.5 exp(C0) / pdf_k), folding the constant term,
        # the halving of cdf = erfc / 2 and the pdf normalisation (the cdf and pdf below
        # are both divided by 1/sqrt(2 pi), which cancels in v and w).
        pw = np.empty((n_pw + 1, 2 * size))
        pw[n_pw] = 1.0
        coefs = np.array([*_ERFC_POLY, _ERFC_C0 + math.log(0.5) - math.log(_PDF_K)])
        two = (2, size)
        m, s, p, q, g, r, tmp2 = (np.empty(two) for _ in range(7))
        gt = np.empty(size, dtype=np.bool_)
        flip = np.empty(size, dtype=np.bool_)
        one = [np.empty(size) for _ in range(9)]  # c2 c t eps at tsel tmp den v
        pw3 = pw.reshape(n_pw + 1, 2, size)
        self._buffers: tuple[Any, ...] = (m, s, p, q, g, r, tmp2, gt, flip, *one)
        self._rows: tuple[FloatArray, ...] = (
            m[0],
            m[1],
            s[0],
            s[1],
            p[0],
            p[1],
            r[0],
            r[1],
            g[0],
            g[1],
        )
        poly = np.empty(2 * size)
        self._pw: tuple[Any, ...] = (
            pw,
            pw3[0],
            pw3[1],
            pw3[0:2],
            pw3[2:4],
            pw3[0:4],
            pw3[3],
            pw3[4:8],
            pw3[7],
            pw3[8],
            coefs,
            poly,
            poly.reshape(2, size),
        )
        self._signs = np.array([[1.0], [-1.0]])
        self._c_2sqrt2 = _const(2.0 * _SQRT2)
        self._c_one = _const(1.0)
        self._c_zero = _const(0.0)
        self._c_mhalf = _const(-0.5)
        self._c_inv_k = _const(1.0 / _PDF_K)

    def __call__(
        self,
        mu: FloatArray,
        var: FloatArray,
        pos: NDArray[np.intp],
        kind: FloatArray,
        var_pos: NDArray[np.intp] | None = None,
    ) -> None:
        """Play one game per run; ``var_pos`` if ``var`` is laid out unlike ``mu``."""
        add, sub, mul, div = np.add, np.subtract, np.multiply, np.divide
        if var_pos is None:
            var_pos = pos
        m, s, p, q, g, r, tmp2, gt, flip, c2, c, t, eps, at, tsel, tmp, den, v = self._buffers
        m0, m1, s0, s1, p0, p1, r0, r1, g0, g1 = self._rows
        mu.take(pos, out=m)
        var.take(var_pos, out=s)
        if self.has_tau:
            add(s, self.tau2, s)
        add(s0, s1, c2)
        add(c2, self.two_beta2, c2)
        np.sqrt(c2, c)
        sub(m0, m1, t)
        div(t, c, t)
        div(self.margin, c, eps)
        np.absolute(t, at)
        if np.maximum.reduce(at) >= self.safe_t:
            w = self._tail_vw(t, eps, kind[0], v, tmp)
        else:
            drawn, sign = kind[0], kind[1]
            # tsel = t for a win, -|t| for a draw (exactly: t + |t| is 2t or 0)
            add(t, at, tmp)
            mul(tmp, drawn, tmp)
            np.greater(tmp, self._c_zero, flip)  # a draw with t > 0: v changes sign
            sub(t, tmp, tsel)
            # a = tsel - eps (win) or tsel + eps (draw);  b = tsel - eps (draws only)
            mul(sign, eps, tmp)
            add(tsel, tmp, p0)
            sub(tsel, eps, p1)
            # Numerical Recipes erfcc at -p / sqrt(2): its variable 1 / (1 + |p| / 2 sqrt 2)
            pw, tt, pw_1, pw_01, pw_23, pw_03, pw_3, pw_47, pw_7, pw_8, coefs, poly, poly2 = (
                self._pw
            )
            np.absolute(p, tt)
            add(tt, self._c_2sqrt2, tt)
            div(self._c_2sqrt2, tt, tt)
            mul(tt, tt, pw_1)
            mul(pw_01, pw_1, pw_23)
            mul(pw_03, pw_3, pw_47)
            mul(pw_7, tt, pw_8)
            np.dot(coefs, pw, poly)
            np.exp(poly, poly)
            np.square(p, q)
            mul(q, self._c_mhalf, q)
            np.exp(q, g)  # exp(-p^2 / 2) = pdf / pdf_k
            # cdf / pdf_k: lower tail t exp(-p^2/2 + C0 + poly) / 2, upper 1 - that
            mul(tt, g, r)
            mul(r, poly2, r)
            np.greater(p0, self._c_zero, gt)  # only a can lie above 0 (b = -eps - |t|)
            sub(self._c_inv_k, r0, r0, where=gt)
            mul(r1, drawn, r1)
            mul(g1, drawn, g1)
            sub(r0, r1, den)
            sub(g0, g1, v)
            div(v, den, v)
            mul(g, p, g)
            w = tsel  # reuse
            sub(g0, g1, w)
            div(w, den, w)
            mul(v, v, tmp)
            add(w, tmp, w)
            np.negative(v, v, where=flip)
        div(v, c, v)
        div(w, c2, w)
        # mu_1 += var_1 v / c,  mu_2 -= var_2 v / c
        mul(self._signs, v, tmp2)
        mul(tmp2, s, tmp2)
        add(m, tmp2, m)
        # var_i *= 1 - var_i w / c^2
        mul(s, w, tmp2)
        sub(self._c_one, tmp2, tmp2)
        mul(s, tmp2, s)
        mu[pos] = m
        var[var_pos] = s

    def _tail_vw(
        self, t: FloatArray, eps: FloatArray, drawn: FloatArray, v: FloatArray, w: FloatArray
    ) -> FloatArray:
        v_w, w_w = vw_win(t, eps)
        v_d, w_d = vw_draw(t, eps)
        is_draw = drawn > 0
        np.copyto(v, np.where(is_draw, v_d, v_w))
        np.copyto(w, np.where(is_draw, w_d, w_w))
        return w
