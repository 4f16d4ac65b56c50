"""The ``import_outputs`` command refuses a reserved slug."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from annotations.models import Campaign

pytestmark = pytest.mark.django_db


def _run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("slug", ["new", "account"])
def test_import_outputs_refuses_a_reserved_slug(tmp_path, slug):
    # /campaigns/new/ is the designer's page: the CLI could create a campaign shadowing it.
    path = tmp_path / "outputs.csv"
    path.write_text("item_id,input,system,output\nmr1,name[A],sys1,A is here.\n")
    with pytest.raises(CommandError, match="reserved"):
        _run("import_outputs", str(path), "--campaign", slug)
    assert not Campaign.objects.filter(slug=slug).exists()
