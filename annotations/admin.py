from collections.abc import Sequence
from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from rest_framework.authtoken.admin import TokenAdmin

from annotations.core.languages import (
    CAMPAIGN_TEXTS,
    CRITERION_TEXTS,
    LanguageError,
    language_check,
    languages_check,
    translations_check,
)

# Every relation of every admin form is a raw id box, an autocomplete or read-only: a
# select lists every row of the related table (every output, every worker), which at
# arena scale takes seconds per page (tests/annotations/test_admin_relations.py checks).
from annotations.models import (
    Assignment,
    Campaign,
    CampaignMembership,
    Criterion,
    Item,
    Judgement,
    JudgementScore,
    Output,
    System,
    Task,
    TaskOutput,
    Worker,
)
from annotations.selectors.campaigns import campaign_fixed_fields, count_of
from annotations.services.campaigns import campaign_slug_check
from common.errors import DomainError

# DRF's API token admin (its documented customisation): a user picked by id, not from a
# select of every account.
TokenAdmin.raw_id_fields = ("user",)


class CriterionInline(admin.TabularInline):
    """The campaign's criteria; read-only once the campaign has tasks (the criteria
    service refuses every change then: ``criterion_update``)."""

    model = Criterion
    extra = 0
    fields = ("name", "question", "show_input", "scale", "position")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is not None and obj.tasks.exists():
            return self.fields
        return super().get_readonly_fields(request, obj)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not (obj is not None and obj.tasks.exists()) and super().has_add_permission(
            request, obj
        )

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not (obj is not None and obj.tasks.exists()) and super().has_delete_permission(
            request, obj
        )


class MembershipInline(admin.TabularInline):
    model = CampaignMembership
    extra = 0
    autocomplete_fields = ("user",)


class CampaignAdminForm(forms.ModelForm):
    """The admin writes rows directly: it asks ``campaign_create``'s slug rule
    (``campaign_slug_check``) rather than a copy of it.

    No ``Meta``: the admin builds the form's model and fields (``CampaignAdmin``)."""

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"]
        try:
            campaign_slug_check(slug=slug)
        except DomainError as exc:
            raise forms.ValidationError(str(exc)) from None
        return slug

    def clean_languages(self) -> list[str]:
        raw = self.cleaned_data.get("languages") or ["en"]
        if not isinstance(raw, list):
            raise forms.ValidationError('A list of BCP 47 codes, e.g. ["en", "de"].')
        try:
            return languages_check(raw)
        except LanguageError as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean_language_quotas(self) -> dict[str, int]:
        raw = self.cleaned_data.get("language_quotas") or {}
        if not isinstance(raw, dict):
            raise forms.ValidationError('An object of language -> workers, e.g. {"de": 50}.')
        quotas: dict[str, int] = {}
        for code, value in raw.items():
            try:
                tag = language_check(code)
            except LanguageError as exc:
                raise forms.ValidationError(str(exc)) from None
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise forms.ValidationError(f"'{tag}': the quota is a whole number of workers.")
            quotas[tag] = value
        return quotas

    def clean_translations(self) -> dict[str, dict[str, Any]]:
        return _translations(self.cleaned_data.get("translations"), CAMPAIGN_TEXTS)


def _translations(
    raw: object, allowed: tuple[str, ...], *, levels: int | None = None
) -> dict[str, Any]:
    try:
        return translations_check(raw, allowed, levels=levels)
    except LanguageError as exc:
        raise forms.ValidationError(str(exc)) from None


class CriterionAdminForm(forms.ModelForm):
    """Checks the translations: known language codes and fields, one descriptor a level."""

    def clean_translations(self) -> dict[str, Any]:
        levels = len((self.cleaned_data.get("scale_settings") or {}).get("levels", []) or [])
        return _translations(self.cleaned_data.get("translations"), CRITERION_TEXTS, levels=levels)


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    form = CampaignAdminForm
    list_display = (
        "slug",
        "name",
        "status",
        "n_systems",
        "n_items",
        "n_tasks",
        "outputs_per_task",
        "judgements_per_task",
        "created_at",
    )
    list_filter = ("status", "merge_identical_outputs", "accept_prolific", "accept_mturk")
    search_fields = ("slug", "name", "description")
    prepopulated_fields = {"slug": ("name",)}
    inlines = (CriterionInline, MembershipInline)
    # The status moves only through the life-cycle services (launch, pause, close,
    # archive: their checks and locks); a new campaign is a draft.
    readonly_fields = ("status", "created_at", "updated_at")
    autocomplete_fields = ("owner",)

    def get_readonly_fields(self, request: HttpRequest, obj: Campaign | None = None) -> list[str]:
        """Besides the status, what the services no longer let change: the slug (the
        workers' links carry it) and ``campaign_fixed_fields`` (the design once tasks are
        built, nearly everything once the campaign has ended)."""
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None:
            fields += ["slug", *sorted(campaign_fixed_fields(campaign=obj))]
        return fields

    def get_prepopulated_fields(
        self, request: HttpRequest, obj: Campaign | None = None
    ) -> dict[str, Sequence[str]]:
        # A read-only slug has no input to fill in.
        return {} if obj is not None else super().get_prepopulated_fields(request, obj)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Campaign]:
        # One subquery per count: joining systems, items and tasks at once would multiply
        # their rows (21 x 630 x 2,826 for the E2E campaign).
        return (
            super()
            .get_queryset(request)
            .annotate(_systems=count_of(System), _items=count_of(Item), _tasks=count_of(Task))
        )

    @admin.display(ordering="_systems", description="systems")
    def n_systems(self, obj: Campaign) -> int:
        return obj._systems  # type: ignore[attr-defined]

    @admin.display(ordering="_items", description="items")
    def n_items(self, obj: Campaign) -> int:
        return obj._items  # type: ignore[attr-defined]

    @admin.display(ordering="_tasks", description="tasks")
    def n_tasks(self, obj: Campaign) -> int:
        return obj._tasks  # type: ignore[attr-defined]


@admin.register(CampaignMembership)
class CampaignMembershipAdmin(admin.ModelAdmin):
    list_display = ("campaign", "user", "role")
    list_filter = ("role", "campaign")
    search_fields = ("campaign__slug", "user__username")
    autocomplete_fields = ("campaign", "user")


@admin.register(Criterion)
class CriterionAdmin(admin.ModelAdmin):
    form = CriterionAdminForm
    list_display = ("name", "campaign", "scale", "show_input", "question")
    list_filter = ("scale", "show_input", "campaign")
    search_fields = ("name", "question", "campaign__slug")
    # The standard output is one of every output of the campaign (16,000 at arena scale):
    # a select of them all took 30 s; a raw id box costs one query.
    autocomplete_fields = ("campaign",)
    raw_id_fields = ("standard_output",)

    def get_readonly_fields(self, request: HttpRequest, obj: Criterion | None = None) -> Any:
        """Every field once the criterion has tasks, as the criteria service refuses."""
        if obj is not None and obj.tasks.exists():
            return [f.name for f in Criterion._meta.fields]
        return super().get_readonly_fields(request, obj)


@admin.register(System)
class SystemAdmin(admin.ModelAdmin):
    list_display = ("label", "name", "campaign", "n_outputs")
    list_filter = ("campaign",)
    search_fields = ("label", "name")
    autocomplete_fields = ("campaign",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[System]:
        return super().get_queryset(request).annotate(_outputs=Count("outputs"))

    @admin.display(ordering="_outputs", description="outputs")
    def n_outputs(self, obj: System) -> int:
        return obj._outputs  # type: ignore[attr-defined]


@admin.register(Item)
class ItemAdmin(admin.ModelAdmin):
    list_display = ("external_id", "campaign", "input", "position")
    list_filter = ("campaign",)
    search_fields = ("external_id", "input")
    autocomplete_fields = ("campaign",)


@admin.register(Output)
class OutputAdmin(admin.ModelAdmin):
    list_display = ("id", "system", "item", "text", "canonical")
    list_filter = ("item__campaign", "system", ("canonical", admin.EmptyFieldListFilter))
    search_fields = ("text", "item__external_id", "system__label")
    list_select_related = ("system", "item", "canonical__system", "canonical__item")
    raw_id_fields = ("item", "system", "canonical")


class TaskOutputInline(admin.TabularInline):
    model = TaskOutput
    extra = 0
    raw_id_fields = ("output",)


@admin.register(Task)
class TaskAdmin(admin.ModelAdmin):
    list_display = ("id", "campaign", "criterion", "item", "kind", "number", "external_id")
    list_filter = ("kind", "campaign", "criterion__name")
    search_fields = ("item__external_id", "item__input", "external_id")
    list_select_related = ("campaign", "criterion__campaign", "item")
    autocomplete_fields = ("campaign", "criterion")
    raw_id_fields = ("item",)
    inlines = (TaskOutputInline,)


@admin.register(Worker)
class WorkerAdmin(admin.ModelAdmin):
    list_display = (
        "external_id",
        "platform",
        "campaign",
        "flagged",
        "excluded",
        "stopped",
        "created_at",
        "last_seen_at",
    )
    list_filter = ("platform", "flagged", "excluded", "stopped", "campaign")
    search_fields = ("external_id",)
    list_editable = ("flagged",)
    autocomplete_fields = ("campaign",)
    raw_id_fields = ("criterion",)
    # Excluding needs a reason (services.workers.worker_mark): through the monitor page or
    # the API, never a bare tick here.
    readonly_fields = ("excluded", "exclusion_reason")


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "worker",
        "task",
        "kind",
        "state",
        "started_at",
        "expires_at",
        "submitted_at",
    )
    list_filter = ("state", "kind", "task__campaign")
    search_fields = ("worker__external_id", "task__item__external_id")
    list_select_related = ("worker", "task__criterion__campaign", "task__item")
    raw_id_fields = ("worker", "task", "item", "criterion")


class JudgementScoreInline(admin.TabularInline):
    model = JudgementScore
    extra = 0
    raw_id_fields = ("output",)


@admin.register(Judgement)
class JudgementAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "worker",
        "criterion",
        "task",
        "submitted_at",
        "seconds_on_task",
        "too_fast",
    )
    list_filter = ("criterion__name", "too_fast", "task__campaign")
    search_fields = ("worker__external_id", "task__external_id", "task__item__external_id")
    list_select_related = (
        "worker",
        "criterion__campaign",
        "task__criterion__campaign",
        "task__item",
    )
    raw_id_fields = ("assignment", "task", "worker", "criterion")
    inlines = (JudgementScoreInline,)
    date_hierarchy = "submitted_at"
