"""The project's own deploy check (common.checks): a per-process cache is warned of."""

from __future__ import annotations

from common.checks import shared_cache_check


def test_a_per_process_cache_is_warned_of_outside_debug(settings) -> None:
    settings.DEBUG = False
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert [m.id for m in shared_cache_check()] == ["humaneval.W001"]
    settings.DEBUG = True
    assert shared_cache_check() == []


def test_a_shared_cache_passes(settings) -> None:
    settings.DEBUG = False
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache"}}
    assert shared_cache_check() == []
