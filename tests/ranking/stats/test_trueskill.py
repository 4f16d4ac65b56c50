"""The closed-form TrueSkill update against the trueskill package (the oracle)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import trueskill
from numpy.testing import assert_allclose
from scipy.special import log_ndtr, ndtr
from scipy.stats import norm

from ranking.stats._trueskill import (
    BatchUpdater,
    TrueSkillParams,
    draw_margin,
    normal_cdf,
    normal_pdf,
    normal_ppf,
    vw_draw,
    vw_win,
)

from .reference import rate_1vs1, trueskill_env

PARAMS = [
    pytest.param(TrueSkillParams(25.0, 25 / 3, 25 / 6, 25 / 300, 0.10), id="package-defaults"),
    pytest.param(TrueSkillParams(0.0, 0.5, 0.5 * 42_392 / 40, 0.0, 0.25), id="wmt14-e2e"),
    pytest.param(TrueSkillParams(0.0, 1.0, 0.5, 0.0, 0.25), id="tau0-small-beta"),
    pytest.param(TrueSkillParams(0.0, 1.0, 0.5, 0.2, 0.6), id="tau-many-draws"),
    pytest.param(TrueSkillParams(100.0, 30.0, 4.0, 1.0, 0.0), id="no-draws"),
]


def test_normal_functions_are_the_packages():
    env = trueskill_env(TrueSkillParams(0.0, 1.0, 1.0, 0.0, 0.1))
    xs = np.linspace(-12, 12, 241)
    assert_allclose(normal_cdf(xs), [env.cdf(x) for x in xs], rtol=1e-14, atol=0)
    assert_allclose(normal_pdf(xs), [env.pdf(x) for x in xs], rtol=1e-14, atol=0)
    for p in (0.01, 0.3, 0.5, 0.625, 0.9, 0.999):
        assert normal_ppf(p) == pytest.approx(env.ppf(p), rel=1e-14, abs=1e-15)
    # and the package's cdf is only an approximation (which we keep on purpose)
    assert np.abs(normal_cdf(xs) - ndtr(xs)).max() > 1e-9


@pytest.mark.parametrize("p", [0.0, 0.1, 0.25, 0.6, 0.9])
@pytest.mark.parametrize("beta", [0.5, 4.1667, 525.0])
def test_draw_margin_is_calc_draw_margin(p, beta):
    env = trueskill.TrueSkill(mu=0, sigma=1, beta=beta, tau=0, draw_probability=p, backend=None)
    assert draw_margin(p, beta) == pytest.approx(
        trueskill.calc_draw_margin(p, 2, env=env), rel=1e-14, abs=1e-15
    )


def test_v_and_w_match_the_package_on_a_grid():
    env = trueskill_env(TrueSkillParams(0.0, 1.0, 1.0, 0.0, 0.1))
    for t in np.linspace(-4, 4, 81):
        for eps in (0.0, 0.05, 0.3, 1.2):
            v, w = vw_win(t, eps)
            assert float(v) == pytest.approx(env.v_win(t, eps), rel=1e-12, abs=1e-14)
            assert float(w) == pytest.approx(env.w_win(t, eps), rel=1e-12, abs=1e-14)
            if eps > 0:
                v, w = vw_draw(t, eps)
                assert float(v) == pytest.approx(env.v_draw(t, eps), rel=1e-12, abs=1e-14)
                assert float(w) == pytest.approx(env.w_draw(t, eps), rel=1e-12, abs=1e-14)


def test_tails_where_the_package_gives_up_are_exact_and_valid():
    env = trueskill_env(TrueSkillParams(0.0, 1.0, 1.0, 0.0, 0.1))
    with pytest.raises(FloatingPointError):
        env.w_win(-45.0, 0.1)
    xs = np.array([-45.0, -30.0, -12.0, 40.0])
    v, w = vw_win(xs, 0.0)
    assert np.all((w >= 0) & (w < 1)) and np.all(np.isfinite(v))
    exact_v = np.exp(norm.logpdf(xs) - log_ndtr(xs))
    assert_allclose(v[:3], exact_v[:3], rtol=1e-6)
    # w -> 1 - 1/x^2 far in the lower tail
    assert w[0] == pytest.approx(1 - 1 / 45.0**2, rel=1e-4)
    # draws far apart: the package divides by zero, we return finite values
    v, w = vw_draw(np.array([-60.0, 60.0]), 0.5)
    assert np.all(np.isfinite(v)) and np.all((w >= 0) & (w < 1))
    assert v[0] == -v[1]


@pytest.mark.parametrize("params", PARAMS)
def test_rate_1vs1_follows_the_package_over_2000_sequential_games(params: TrueSkillParams):
    env = trueskill_env(params)
    rng = np.random.default_rng(7)
    n = 6
    oracle = [env.create_rating() for _ in range(n)]
    mu = np.full(n, params.mu, dtype=float)
    sigma = np.full(n, params.sigma, dtype=float)
    p_draw = params.draw_probability or 0.0
    for _ in range(2000):
        a, b = rng.choice(n, 2, replace=False)
        drawn = bool(rng.random() < max(p_draw, 0.05)) if p_draw > 0 else False
        oracle[a], oracle[b] = env.rate_1vs1(oracle[a], oracle[b], drawn=drawn)
        mu[a], sigma[a], mu[b], sigma[b] = (
            float(x) for x in rate_1vs1(mu[a], sigma[a], mu[b], sigma[b], drawn, params)
        )
    assert_allclose(mu, [r.mu for r in oracle], rtol=0, atol=1e-9)
    assert_allclose(sigma, [r.sigma for r in oracle], rtol=0, atol=1e-9)


def test_rate_1vs1_is_vectorised_over_games():
    params = TrueSkillParams(25.0, 25 / 3, 25 / 6, 25 / 300, 0.10)
    env = trueskill_env(params)
    mu1 = np.array([25.0, 30.0, 20.0, 25.0])
    mu2 = np.array([25.0, 20.0, 30.0, 40.0])
    s1 = np.array([8.0, 3.0, 5.0, 1.0])
    s2 = np.array([8.0, 6.0, 2.0, 1.0])
    drawn = np.array([True, False, True, False])
    got = rate_1vs1(mu1, s1, mu2, s2, drawn, params)
    for i in range(4):
        r1, r2 = env.rate_1vs1(
            env.create_rating(mu1[i], s1[i]), env.create_rating(mu2[i], s2[i]), drawn=drawn[i]
        )
        assert_allclose([g[i] for g in got], [r1.mu, r1.sigma, r2.mu, r2.sigma], atol=1e-12)


@pytest.mark.parametrize("params", PARAMS)
def test_batch_updater_follows_the_package_in_every_run(params: TrueSkillParams):
    env = trueskill_env(params)
    rng = np.random.default_rng(3)
    runs, n = 3, 6
    oracle = [[env.create_rating() for _ in range(n)] for _ in range(runs)]
    mu = np.full(runs * n, params.mu, dtype=float)
    var = np.full(runs * n, params.sigma**2, dtype=float)
    update = BatchUpdater(runs, beta=params.beta, tau=params.tau, margin=params.draw_margin)
    for _ in range(1000):
        pos = np.empty((2, runs), dtype=np.intp)
        drawn = (
            (rng.random(runs) < 0.3).astype(float) if params.draw_probability else np.zeros(runs)
        )
        for r in range(runs):
            a, b = rng.choice(n, 2, replace=False)
            pos[:, r] = (r * n + a, r * n + b)
            oracle[r][a], oracle[r][b] = env.rate_1vs1(
                oracle[r][a], oracle[r][b], drawn=bool(drawn[r])
            )
        update(mu, var, pos, np.stack([drawn, 2 * drawn - 1]))
    assert_allclose(mu, [x.mu for row in oracle for x in row], rtol=0, atol=1e-9)
    assert_allclose(np.sqrt(var), [x.sigma for row in oracle for x in row], rtol=0, atol=1e-9)


def test_batch_updater_tail_path_matches_rate_1vs1():
    params = TrueSkillParams(0.0, 1.0, 0.1, 0.0, 0.2)
    mu = np.array([0.0, 9.0, 0.0, -9.0])
    var = np.full(4, 0.01)
    update = BatchUpdater(2, beta=params.beta, tau=0.0, margin=params.draw_margin)
    pos = np.array([[0, 2], [1, 3]])
    drawn = np.array([0.0, 1.0])
    expected = rate_1vs1(mu[[0, 2]], 0.1, mu[[1, 3]], 0.1, drawn > 0, params)
    update(mu, var, pos, np.stack([drawn, 2 * drawn - 1]))
    assert_allclose(mu[[0, 2]], expected[0], rtol=1e-12)
    assert_allclose(mu[[1, 3]], expected[2], rtol=1e-12)
    assert_allclose(np.sqrt(var[[0, 2]]), expected[1], rtol=1e-12)
    assert np.all(np.isfinite(mu)) and np.all(var > 0)


def test_wmt14_environment():
    params = TrueSkillParams.wmt14(42_391)
    assert (params.mu, params.sigma, params.tau, params.draw_probability) == (0.0, 0.5, 0.0, 0.25)
    assert params.beta == pytest.approx(0.5 * 42_391 / 40)
    env = trueskill_env(params)
    assert isinstance(env, trueskill.TrueSkill) and env is not trueskill.global_env()
    assert env.beta == params.beta and env.backend is None
    assert params.draw_margin == pytest.approx(
        normal_ppf(0.625) * math.sqrt(2) * params.beta, rel=1e-15
    )


def test_parameters_are_validated():
    with pytest.raises(ValueError):
        TrueSkillParams(0.0, 0.0, 1.0, 0.0, 0.1)
    with pytest.raises(ValueError):
        TrueSkillParams(0.0, 1.0, 1.0, 0.0, 1.0)


@pytest.mark.parametrize("params", PARAMS)
def test_batch_updater_play_on_one_state_array_follows_the_package(params: TrueSkillParams):
    """The table-driven entry point: positions into one (2, runs * n) state, game columns."""
    env = trueskill_env(params)
    rng = np.random.default_rng(5)
    runs, n = 4, 5
    oracle = [[env.create_rating() for _ in range(n)] for _ in range(runs)]
    state = np.empty((2, runs * n))
    state[0], state[1] = params.sigma**2, params.mu
    update = BatchUpdater(runs, beta=params.beta, tau=params.tau, margin=params.draw_margin)
    table = BatchUpdater.game_columns([0.0, 1.0], params.draw_margin)
    for _ in range(500):
        drawn = (rng.random(runs) < 0.3).astype(int) if params.draw_probability else [0] * runs
        for r in range(runs):
            a, b = rng.choice(n, 2, replace=False)
            update.pos[:, r] = (r * n + a, r * n + b, runs * n + r * n + a, runs * n + r * n + b)
            oracle[r][a], oracle[r][b] = env.rate_1vs1(
                oracle[r][a], oracle[r][b], drawn=bool(drawn[r])
            )
        update.cols[:] = table[:, drawn]
        update.play(state.reshape(-1))
    assert_allclose(state[1], [x.mu for row in oracle for x in row], rtol=0, atol=1e-9)
    assert_allclose(np.sqrt(state[0]), [x.sigma for row in oracle for x in row], atol=1e-9)
