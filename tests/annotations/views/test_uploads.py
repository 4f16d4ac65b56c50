"""The upload page (annotations/views/uploads.py): files in, errors named, nothing half-written."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from annotations.models import Output
from tests.annotations.views.new_campaign import _campaign

GOOD_CSV = (
    "item_id,input,system,output\n"
    "mr1,name[Aromi],sysA,Aromi is a pub.\n"
    "mr1,name[Aromi],sysB,There is a pub called Aromi.\n"
    "mr2,name[Cotto],sysA,Cotto is a coffee shop.\n"
    "mr2,name[Cotto],sysB,Cotto sells coffee.\n"
)


def test_upload_csv_imports_outputs(owner_client):
    campaign = _campaign(owner_client)
    upload = SimpleUploadedFile("outputs.csv", GOOD_CSV.encode(), content_type="text/csv")
    response = owner_client.post(
        reverse("annotations:designer-upload", args=[campaign.slug]), {"files": [upload]}
    )
    assert response.status_code == 302
    assert Output.objects.filter(item__campaign=campaign).count() == 4
    assert sorted(campaign.systems.values_list("label", flat=True)) == ["sysA", "sysB"]


def test_upload_error_names_file_line_field_and_writes_nothing(owner_client):
    campaign = _campaign(owner_client)
    good = SimpleUploadedFile("a-good.csv", GOOD_CSV.encode())
    bad = SimpleUploadedFile(
        "b-bad.csv",
        b"item_id,input,system,output\nmr9,name[X],sysC,Fine.\nmr9,name[X],,No system\n",
    )
    response = owner_client.post(
        reverse("annotations:designer-upload", args=[campaign.slug]), {"files": [good, bad]}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "b-bad.csv" in html
    assert '<td class="num">3</td>' in html
    assert "<code>system</code>" in html
    assert "Nothing was imported" in html
    # The good file was not kept either.
    assert not Output.objects.filter(item__campaign=campaign).exists()
    assert not campaign.systems.exists()


def test_outputs_written_the_other_way_get_a_warning_on_the_page_and_in_the_api(
    owner_client, client
):
    campaign = _campaign(owner_client)
    arabic = "item_id,input,system,output\nmr1,in,sysA,أرومي مقهى.\nmr1,in,sysB,Aromi is a pub.\n"
    upload = SimpleUploadedFile("outputs.csv", arabic.encode(), content_type="text/csv")
    response = owner_client.post(
        reverse("annotations:designer-upload", args=[campaign.slug]),
        {"files": [upload]},
        follow=True,
    )
    shown = [str(m) for m in response.context["messages"]]
    assert any(m.startswith("1 output in 'en' looks written right to left") for m in shown)
    api = owner_client.post(
        f"/api/campaigns/{campaign.slug}/outputs/",
        {"files": [SimpleUploadedFile("more.csv", arabic.replace("mr1", "mr2").encode())]},
    )
    assert api.status_code == 201, api.content
    assert api.json()[0]["warnings"][0].startswith("1 output in 'en' looks written")


def test_a_wrong_upload_is_removed_in_a_draft_not_by_deleting_the_campaign(owner_client):
    """A reviewer uploaded a wrong file (an item with one output) and could only delete
    the campaign: a draft's uploads are now removed in one step, tasks built from them
    included, and refused once a task was handed out."""
    from annotations.models import Item, System, Task
    from annotations.services.tasks import tasks_build
    from tests.factories import CriterionFactory

    campaign = _campaign(owner_client)
    upload = SimpleUploadedFile("outputs.csv", GOOD_CSV.encode(), content_type="text/csv")
    owner_client.post(
        reverse("annotations:designer-upload", args=[campaign.slug]), {"files": [upload]}
    )
    CriterionFactory(campaign=campaign, name="fluency", scale="likert")
    tasks_build(campaign=campaign, seed=1)
    assert Task.objects.filter(campaign=campaign).exists()
    page = owner_client.get(reverse("annotations:designer-campaign", args=[campaign.slug]))
    assert "Remove all uploaded outputs" in page.content.decode()
    removed = owner_client.post(
        reverse("annotations:designer-outputs-remove", args=[campaign.slug]), follow=True
    )
    assert "Removed 4 outputs of 2 systems and 2 items, and the" in removed.content.decode()
    for model in (Output, Item, System):
        assert not model.objects.filter(
            **{"item__campaign" if model is Output else "campaign": campaign}
        ).exists()
    assert not Task.objects.filter(campaign=campaign).exists()
    # and the right file goes in
    again = SimpleUploadedFile("outputs.csv", GOOD_CSV.encode(), content_type="text/csv")
    owner_client.post(
        reverse("annotations:designer-upload", args=[campaign.slug]), {"files": [again]}
    )
    assert Output.objects.filter(item__campaign=campaign).count() == 4
