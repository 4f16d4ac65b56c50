"""REST API of a campaign's languages: ``GET/PATCH /api/campaigns/<slug>/languages/``.

GET: the languages (the first holds the original texts), the worker quotas, every
translation, and per language the texts still missing (``{"campaign": ["instructions"],
"criteria": {"fluency": ["question", "levels 1, 2"]}}``). PATCH (designers): any of
``languages``, ``quotas`` and ``translations`` (``{"de": {"campaign": {"instructions":
...}, "criteria": {"fluency": {"question": ..., "levels": [...]}}}}``; a blank text removes
a translation); all or nothing, a refusal is a 400 naming what is wrong.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from annotations.access.apis import CampaignScoped
from annotations.models import Campaign
from annotations.selectors.criteria import criteria_in_order
from annotations.selectors.languages import TranslationText, translations_needed
from annotations.serializers.languages import LanguagesUpdateSerializer
from annotations.services.languages import campaign_languages_set
from common.api import ERRORS


def languages_body(campaign: Campaign) -> dict[str, Any]:
    criteria = criteria_in_order(campaign=campaign)
    languages = campaign.languages_or_default
    return {
        "languages": languages,
        "quotas": campaign.language_quotas or {},
        "translations": {
            tag: {
                "campaign": (campaign.translations or {}).get(tag, {}),
                "criteria": {
                    c.name: (c.translations or {}).get(tag, {})
                    for c in criteria
                    if (c.translations or {}).get(tag)
                },
            }
            for tag in languages[1:]
        },
        "missing": {
            status.language: _missing(status.missing, {c.pk: c.name for c in criteria})
            for status in translations_needed(campaign=campaign)
        },
    }


def _missing(texts: list[TranslationText], names: dict[int, str]) -> dict[str, Any]:
    """What is missing in the shape PATCH takes: campaign text names, and per criterion
    name its fields (``levels`` with the level numbers missing)."""
    campaign: list[str] = []
    criteria: dict[str, dict[str, Any]] = {}
    for text in texts:
        if not text.key.startswith("c") or "-" not in text.key:
            campaign.append(text.key)
            continue
        head, part = text.key.split("-", 1)
        fields = criteria.setdefault(names[int(head[1:])], {})
        if part.startswith("level"):
            fields.setdefault("levels", []).append(int(part[5:]))
        else:
            fields[part] = True
    return {
        "campaign": campaign,
        "criteria": {
            name: sorted(k for k in fields if k != "levels")
            + ([f"levels {', '.join(map(str, fields['levels']))}"] if "levels" in fields else [])
            for name, fields in criteria.items()
        },
    }


class CampaignLanguagesApi(CampaignScoped):
    @extend_schema(responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        return Response(languages_body(self.campaign))

    @extend_schema(
        request=LanguagesUpdateSerializer, responses={200: OpenApiTypes.OBJECT, **ERRORS}
    )
    def patch(self, request: Request, slug: str) -> Response:
        data = LanguagesUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        campaign = campaign_languages_set(campaign=self.campaign, **data.validated_data)
        return Response(languages_body(campaign))
