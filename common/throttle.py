"""Counting requests in the cache: how often one key (an address, a client) asked for
something costly or abusable (a password-reset mail) within a window."""

from __future__ import annotations

import hashlib

from django.core.cache import cache


def throttle_hit(*, scope: str, key: str, limit: int, window: int) -> bool:
    """Count one request of ``key`` in ``scope``; True when it is beyond ``limit`` requests
    in the ``window`` (seconds) that began with the first counted one.

    The key is hashed (no email address or client address in cache keys). ``cache.add``
    then ``cache.incr`` count atomically in Redis; the per-process memory cache counts per
    process.
    """
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()
    cache_key = f"throttle:{scope}:{digest}"
    cache.add(cache_key, 0, timeout=window)
    try:
        count = cache.incr(cache_key)
    except ValueError:  # expired between add and incr
        cache.set(cache_key, 1, timeout=window)
        count = 1
    return count > limit
