"""The campaign settings page."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from annotations.access.pages import (
    campaign_access,
    campaign_context,
    campaign_require,
    campaign_view,
)
from annotations.forms.settings import CampaignDesignForm
from annotations.models import (
    Campaign,
    CampaignMembership,
)
from annotations.selectors import campaigns as campaign_selectors
from annotations.selectors import criteria as criteria_selectors
from annotations.services import campaigns as campaign_services
from annotations.services.campaigns import CampaignSettingsError
from common.errors import DomainError

Role = CampaignMembership.Role


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def campaign_settings(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    """The design form. Settings that can no longer change are disabled and shown as
    text (the service refuses them too); every impossible setting is named on its field."""
    fixed = campaign_selectors.campaign_fixed_fields(campaign=campaign)
    if request.method == "POST":
        campaign_require(request, campaign, Role.DESIGNER, denied="Viewers cannot change settings.")
        form = CampaignDesignForm(
            request.POST,
            instance=campaign_selectors.campaign_reread(campaign=campaign),
            fixed=fixed,
        )
        if form.is_valid():
            fields = {name: form.cleaned_data[name] for name in form.changed_data}
            try:
                campaign_services.campaign_settings_update(campaign=campaign, **fields)
            except CampaignSettingsError as exc:
                for name, reason in exc.problems.items():
                    field = name if name in form.fields else None
                    form.add_error(field, reason[:1].upper() + reason[1:])
            except DomainError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, "Settings saved.")
                return redirect("annotations:designer-settings", slug=campaign.slug)
    else:
        # A viewer reads every setting as text: no input they could not save.
        shown_fixed = (
            fixed
            if campaign_access(request, campaign).can_design
            else frozenset(CampaignDesignForm.base_fields)
        )
        form = CampaignDesignForm(instance=campaign, fixed=shown_fixed)
    locked = bool(fixed)
    groups = [
        (title, note, [(field, _shown(field)) for field in fields])
        for title, note, fields in form.groups()
    ]
    return render(
        request,
        "annotations/settings/settings.html",
        campaign_context(
            request,
            campaign,
            form=form,
            groups=groups,
            locked=locked,
            design_fields=fixed,
            input_conflict=criteria_selectors.setup_input_conflict(campaign=campaign),
        ),
    )


def _shown(field: Any) -> str:
    """A fixed setting's value as the page shows it (read-only text, not an input)."""
    if not field.field.disabled:
        return ""
    value = field.value()
    if isinstance(field.field, forms.BooleanField):
        return "Yes" if value else "No"
    choices = dict(getattr(field.field, "choices", []) or [])
    return str(choices.get(value, value)) if value not in (None, "") else "—"
