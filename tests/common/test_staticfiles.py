"""common.staticfiles: the production storage gives the manifest's URLs, each computed once."""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

import pytest
from django.contrib.staticfiles.storage import ManifestStaticFilesStorage

from common.staticfiles import CachedURLManifestStorage


def _storage(tmp_path: Path) -> CachedURLManifestStorage:
    (tmp_path / "staticfiles.json").write_text(
        json.dumps({"version": "1.1", "paths": {"css/site.css": "css/site.0123abcd.css"}})
    )
    return CachedURLManifestStorage(location=str(tmp_path), base_url="/static/")


def test_the_hashed_url_once_per_name(tmp_path: Path) -> None:
    storage = _storage(tmp_path)
    with mock.patch.object(
        ManifestStaticFilesStorage, "url", autospec=True, side_effect=ManifestStaticFilesStorage.url
    ) as computed:
        urls = {storage.url("css/site.css") for _ in range(5)}
    assert urls == {"/static/css/site.0123abcd.css"}
    assert computed.call_count == 1


def test_a_name_missing_from_the_manifest_is_an_error_every_time(tmp_path: Path) -> None:
    storage = _storage(tmp_path)
    for _ in range(2):
        with pytest.raises(ValueError, match="Missing staticfiles manifest entry"):
            storage.url("js/missing.js")
