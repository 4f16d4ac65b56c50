"""Admin pages stay fast at arena-scale data (security review, item 11): no admin form
lists every row of a related table in a select. Checked over every registered ModelAdmin
and its inlines, so an admin added tomorrow is checked too; and the criterion change page
(a select of 16,000 outputs took 30 s) costs the same queries with many outputs as few."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.contrib.admin.widgets import (
    AutocompleteSelect,
    AutocompleteSelectMultiple,
    ForeignKeyRawIdWidget,
    ManyToManyRawIdWidget,
    RelatedFieldWidgetWrapper,
)
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Model
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotations.models import Output
from tests.annotations.designer_data import judged_campaign
from tests.factories import ItemFactory, SystemFactory

pytestmark = pytest.mark.django_db

#: Related tables that stay small whatever the data: Django's own permission machinery.
SMALL = {("auth", "permission"), ("auth", "group"), ("contenttypes", "contenttype")}
BOUNDED = (
    ForeignKeyRawIdWidget,
    ManyToManyRawIdWidget,
    AutocompleteSelect,
    AutocompleteSelectMultiple,
)


def _admins() -> list[tuple[str, Any, type[Model] | None]]:
    """Every registered ModelAdmin and every inline of it (with the inline's parent)."""
    found: list[tuple[str, Any, type[Model] | None]] = []
    for model, model_admin in admin.site._registry.items():
        found.append((model._meta.label, model_admin, None))
        for inline in model_admin.inlines:
            name = f"{model._meta.label} > {inline.model._meta.label}"
            found.append((name, inline(model, admin.site), model))
    return found


def _forms(model_admin: Any, request: Any) -> type:
    if isinstance(model_admin, admin.options.InlineModelAdmin):
        return model_admin.get_formset(request).form
    return model_admin.get_form(request)


def test_every_relation_in_every_admin_form_is_raw_id_autocomplete_or_read_only() -> None:
    root = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    request = RequestFactory().get("/admin/")
    request.user = root
    unbounded = []
    checked = 0
    for name, model_admin, parent in _admins():
        form = _forms(model_admin, request)
        for field in model_admin.model._meta.get_fields():
            if not (
                field.is_relation
                and field.concrete
                and (field.many_to_one or field.many_to_many or field.one_to_one)
            ):
                continue
            related: type[Model] = field.related_model
            if (related._meta.app_label, related._meta.model_name) in SMALL:
                continue
            if related is parent:
                continue  # an inline's link to its parent: a hidden field
            formfield = form.base_fields.get(field.name)  # type: ignore[attr-defined]
            if formfield is None:
                continue  # not in the form: read-only, excluded, or the inline's parent
            checked += 1
            widget = formfield.widget
            if isinstance(widget, RelatedFieldWidgetWrapper):
                widget = widget.widget
            if not isinstance(widget, BOUNDED):
                unbounded.append(f"{name}.{field.name} -> {related._meta.label}")
    assert not unbounded, "selects of a whole table:\n" + "\n".join(unbounded)
    assert checked > 20  # the check saw the forms


def _criterion_page_queries(client: Any, criterion: Any) -> tuple[int, bytes]:
    url = reverse("admin:annotations_criterion_change", args=[criterion.pk])
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries), response.content


def test_the_criterion_change_page_costs_the_same_with_many_outputs(client) -> None:
    root = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(root)
    campaign = judged_campaign(slug="arena", n_items=2, n_workers=1)
    criterion = campaign.criteria.get()
    criterion.standard_output = Output.objects.filter(item__campaign=campaign).first()
    criterion.save(update_fields=["standard_output"])
    _criterion_page_queries(client, criterion)  # warm Django's content-type cache
    few, _ = _criterion_page_queries(client, criterion)
    systems = [SystemFactory(campaign=campaign, label=f"many{s}") for s in range(20)]
    items = [ItemFactory(campaign=campaign, external_id=f"many{i}") for i in range(100)]
    Output.objects.bulk_create(
        Output(item=item, system=system, text=f"{system.label} {item.external_id}")
        for item in items
        for system in systems
    )
    many, html = _criterion_page_queries(client, criterion)
    assert many == few
    assert html.count(b"<option") < 100  # no option per output
