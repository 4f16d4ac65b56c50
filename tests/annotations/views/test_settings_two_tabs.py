"""Settings saved from two tabs (annotations/views/settings.py): each save changes what its
own page changed. An outside review opened the settings in two tabs, changed the
instructions in one and the consent text in the other, saved both: the second save wrote
the first tab's old instructions back."""

from __future__ import annotations

from html.parser import HTMLParser

from django.urls import reverse

from tests.factories import CampaignFactory


class _Form(HTMLParser):
    """What a browser posts for the page's settings form: named inputs (ticked boxes
    only), textareas and the selected options."""

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, str] = {}
        self._textarea: str | None = None
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        name = a.get("name", "")
        if tag == "input" and name and name != "csrfmiddlewaretoken":
            if a.get("type") not in ("checkbox", "radio") or "checked" in a:
                self.data[name] = a.get("value", "on")
        elif tag == "textarea":
            self._textarea = name
            self.data[name] = ""
        elif tag == "select":
            self._select = name
        elif tag == "option" and self._select and "selected" in a:
            self.data[self._select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "textarea":
            self._textarea = None
        elif tag == "select":
            self._select = None

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self.data[self._textarea] += data.removeprefix("\n")


def _form(client, url: str) -> dict[str, str]:
    parser = _Form()
    parser.feed(client.get(url).content.decode())
    return parser.data


def test_two_tabs_each_save_what_they_changed(owner_client, people):
    campaign = CampaignFactory(owner=people["owner"], instructions="Old instructions.")
    url = reverse("annotations:designer-settings", args=[campaign.slug])
    first, second = _form(owner_client, url), _form(owner_client, url)
    first["instructions"] = "New instructions."
    assert owner_client.post(url, first).status_code == 302
    second["consent_text"] = "I agree to take part."
    assert owner_client.post(url, second).status_code == 302
    campaign.refresh_from_db()
    assert campaign.instructions == "New instructions."
    assert campaign.consent_text == "I agree to take part."
    assert "initial-instructions" in first  # the value each page showed went back with it


def test_a_post_without_the_shown_values_still_saves_what_it_sends(owner_client, people):
    """A form posted by a script (no ``initial-`` twins) saves what it posts, as before."""
    campaign = CampaignFactory(owner=people["owner"])
    url = reverse("annotations:designer-settings", args=[campaign.slug])
    data = {k: v for k, v in _form(owner_client, url).items() if not k.startswith("initial-")}
    data["instructions"] = "Scripted."
    assert owner_client.post(url, data).status_code == 302
    campaign.refresh_from_db()
    assert campaign.instructions == "Scripted."
