"""Reading an upload (annotations/importing/uploads.py) refuses one too large before reading it."""

from __future__ import annotations

import pytest

from annotations.importing import uploads
from common.errors import ImportFileError

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _jobs_in_this_thread(settings):
    settings.JOBS_IN_THREAD = False


def test_uploads_read_refuses_too_large_before_reading(settings) -> None:
    settings.IMPORT_UPLOAD_MAX_BYTES = 100

    class Big:
        name = "/home/me/big.csv"
        size = 101

        def chunks(self):  # pragma: no cover - must not be read
            raise AssertionError("read")

    with pytest.raises(uploads.UploadTooLargeError) as info:
        uploads.uploads_read(files=[Big()])
    assert info.value.file == "big.csv"
    assert isinstance(info.value, ImportFileError)
