"""Forms of the Languages pages: the campaign's languages and quotas, and one language's
translations of what workers read. Built from the campaign (a field per text)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import get_language_info

from annotations.core.languages import LanguageError, direction, languages_check
from annotations.models import Campaign
from annotations.selectors.languages import TranslationStatus


def language_name(tag: str) -> str:
    """``German (Deutsch)`` where Django knows the language, else the tag."""
    for code in (tag, tag.split("-")[0]):
        try:
            info = get_language_info(code)
        except KeyError:
            continue
        if info["name_local"] and info["name_local"] != info["name"]:
            return f"{info['name']} ({info['name_local']})"
        return str(info["name"])
    return tag


class LanguagesForm(forms.Form):
    """The campaign's languages, in order, and a worker quota per language."""

    languages = forms.CharField(
        max_length=400,
        help_text=(
            "BCP 47 codes, comma-separated, e.g. en, de, fr, es. The first is the language "
            "the campaign's texts are written in; workers whose language the campaign "
            "lacks judge in it."
        ),
    )

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["languages"].initial = ", ".join(campaign.languages_or_default)
        quotas = campaign.language_quotas or {}
        for tag in campaign.languages_or_default:
            self.fields[f"quota-{tag}"] = forms.IntegerField(
                label=f"Workers in {language_name(tag)} ({tag})",
                min_value=0,
                max_value=1_000_000,
                required=False,
                initial=quotas.get(tag),
                help_text="Leave empty for no limit.",
            )

    def clean_languages(self) -> list[str]:
        raw = self.cleaned_data["languages"].replace(";", ",")
        codes = [c.strip() for c in raw.replace("\n", ",").split(",") if c.strip()]
        try:
            return languages_check(codes)
        except LanguageError as exc:
            raise forms.ValidationError(str(exc)[:1].upper() + str(exc)[1:]) from None

    def quotas(self) -> dict[str, int | None]:
        """Quotas of the languages kept (a language just added has none yet)."""
        kept = set(self.cleaned_data.get("languages") or [])
        return {
            name.removeprefix("quota-"): value
            for name, value in self.cleaned_data.items()
            if name.startswith("quota-") and name.removeprefix("quota-") in kept
        }

    def quota_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("quota-")]


class TranslationForm(forms.Form):
    """One textarea per text a worker reads, for one language; blank = the original."""

    def __init__(
        self, *args: Any, status: TranslationStatus, editable: bool = True, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.status = status
        dir_ = direction(status.language)
        for text in status.texts:
            lines = max(2, min(12, text.original.count("\n") + len(text.original) // 80 + 1))
            self.fields[text.key] = forms.CharField(
                label=text.label,
                required=False,
                max_length=20_000,
                initial=text.translated,
                disabled=not editable,
                widget=forms.Textarea(attrs={"rows": lines, "lang": status.language, "dir": dir_}),
            )

    def rows(self) -> list[tuple[Any, forms.BoundField]]:
        """(the text, its field) in the page's order."""
        return [(text, self[text.key]) for text in self.status.texts]

    def translations(self) -> tuple[dict[str, str], dict[int, dict[str, Any]]]:
        """The campaign's texts and, per criterion id, its texts (``levels``: level number ->
        descriptor, for the levels that have one)."""
        campaign: dict[str, str] = {}
        criteria: dict[int, dict[str, Any]] = {}
        levels: dict[int, dict[int, str]] = {}
        for key, value in self.cleaned_data.items():
            if not key.startswith("c") or "-" not in key:
                campaign[key] = value
                continue
            head, part = key.split("-", 1)
            pk = int(head[1:])
            if part.startswith("level"):
                levels.setdefault(pk, {})[int(part[5:])] = value
            else:
                criteria.setdefault(pk, {})[part] = value
        for pk, given in levels.items():
            criteria.setdefault(pk, {})["levels"] = given
        return campaign, criteria
