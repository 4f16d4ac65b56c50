"""Static files in production: WhiteNoise's compressed manifest storage, each URL
computed once per process.

``{% static %}`` asks the storage for a file's hashed URL on every page; the manifest
does not change while a process runs, so the answer for a name does not either. The
worker's task page names several files, and it is the page the site serves most.
"""

from __future__ import annotations

from typing import Any

from whitenoise.storage import CompressedManifestStaticFilesStorage


class CachedURLManifestStorage(CompressedManifestStaticFilesStorage):
    """``CompressedManifestStaticFilesStorage`` whose ``url(name)`` is remembered."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._urls: dict[str, str] = {}

    def url(self, name: str | None, force: bool = False) -> str:
        if force or name is None:
            return super().url(name, force)
        found = self._urls.get(name)
        if found is None:
            # A name missing from the manifest raises here, every time, as before.
            found = self._urls[name] = super().url(name)
        return found
