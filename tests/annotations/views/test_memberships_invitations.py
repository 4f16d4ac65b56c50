"""Members, roles and invitations: shown, enforced, and invitation links that work once."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from annotations.models import CampaignInvitation, CampaignMembership
from annotations.selectors.memberships import token_digest

pytestmark = pytest.mark.django_db


Role = CampaignMembership.Role


def _members(campaign) -> str:
    return reverse("annotations:designer-members", args=[campaign.slug])


def _invite(client, campaign, email="new@example.org", role="designer"):
    return client.post(
        reverse("annotations:designer-invite", args=[campaign.slug]),
        {"email": email, "role": role},
    )


def _link_in_last_mail() -> str:
    match = re.search(r"http://testserver(/invitations/[^/\s]+/)", str(mail.outbox[-1].body))
    assert match, mail.outbox[-1].body
    return match.group(1)


# Roles shown ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "label"), [("owner", "Owner"), ("designer", "Editor"), ("viewer", "Viewer")]
)
def test_role_is_shown_on_the_campaign_page_and_the_members_page(
    client, memberships_world, who, label
):
    people, campaign = memberships_world
    client.force_login(people[who])
    overview = client.get(reverse("annotations:designer-campaign", args=[campaign.slug]))
    assert f"Your role: <strong>{label}</strong>" in overview.content.decode()
    assert f"· you are {label.lower()}" in overview.content.decode()
    members = client.get(_members(campaign)).content.decode()
    assert f'Your role: <strong class="role-you">{label}</strong>' in members
    # Every member's role, in the labels people read (the editor role is stored "designer").
    for name, shown in (("owner", "Owner"), ("designer", "Editor"), ("viewer", "Viewer")):
        assert re.search(rf"<td>{name}</td><td>{shown}</td>", members), (name, shown)


def test_only_owners_see_and_use_the_invitation_form(client, memberships_world):
    people, campaign = memberships_world
    for who in ("designer", "viewer"):
        client.force_login(people[who])
        assert "Send invitation" not in client.get(_members(campaign)).content.decode()
        assert _invite(client, campaign).status_code == 403
    assert CampaignInvitation.objects.count() == 0 and not mail.outbox


def test_viewer_cannot_edit_anything(client, memberships_world):
    people, campaign = memberships_world
    client.force_login(people["viewer"])
    api = client.patch(
        f"/api/campaigns/{campaign.slug}/", {"name": "Hacked"}, content_type="application/json"
    )
    assert api.status_code == 403
    settings_url = reverse("annotations:designer-settings", args=[campaign.slug])
    assert client.post(settings_url, {"name": "Hacked"}).status_code == 403
    criterion = campaign.criteria.get()
    url = reverse("annotations:designer-criterion", args=[campaign.slug, criterion.pk])
    assert client.post(url, {"question": "Changed?"}).status_code == 403
    campaign.refresh_from_db()
    assert campaign.name == "Judged campaign"


# Invitations ------------------------------------------------------------------------------------


def test_invitation_email_link_makes_a_signed_in_user_a_member(client, memberships_world):
    people, campaign = memberships_world
    client.force_login(people["owner"])
    response = _invite(client, campaign, email="outsider@example.org", role="viewer")
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["outsider@example.org"]
    assert campaign.name in message.subject
    link = _link_in_last_mail()
    # The token itself is not stored, only its digest.
    token = link.split("/")[2]
    invitation = CampaignInvitation.objects.get()
    assert invitation.token == token_digest(token) != token
    assert "outsider@example.org" in client.get(_members(campaign)).content.decode()

    User.objects.filter(pk=people["outsider"].pk).update(email="Outsider@Example.org")
    client.force_login(people["outsider"])
    page = client.get(link)
    assert page.status_code == 200
    assert "as <strong>viewer</strong>" in page.content.decode()
    accepted = client.post(link)
    assert accepted.status_code == 302
    membership = CampaignMembership.objects.get(campaign=campaign, user=people["outsider"])
    assert membership.role == Role.VIEWER
    invitation.refresh_from_db()
    assert invitation.accepted_by == people["outsider"] and invitation.accepted_at
    assert client.get(accepted["Location"]).status_code == 200


def test_invitation_link_lets_a_new_person_sign_up_and_join(client, memberships_world):
    people, campaign = memberships_world
    client.force_login(people["owner"])
    _invite(client, campaign, email="ada@example.org", role="designer")
    link = _link_in_last_mail()
    client.logout()
    page = client.get(link).content.decode()
    assert "create an account" in page.lower() and "sign in" in page.lower()
    bad = client.post(link, {"username": "ada", "password1": "x", "password2": "y"})
    assert bad.status_code == 400
    assert not User.objects.filter(username="ada").exists()
    response = client.post(
        link,
        {"username": "ada", "password1": "long enough pass 42", "password2": "long enough pass 42"},
    )
    assert response.status_code == 302
    ada = User.objects.get(username="ada")
    assert ada.email == "ada@example.org"
    assert CampaignMembership.objects.get(campaign=campaign, user=ada).role == Role.DESIGNER
    # Signed in: the campaign opens, and as an editor she may change it.
    assert client.get(response["Location"]).status_code == 200
    settings_url = reverse("annotations:designer-settings", args=[campaign.slug])
    assert client.get(settings_url).status_code == 200


def test_a_sign_up_sent_twice_is_told_the_link_was_used(client, memberships_world, monkeypatch):
    """A double click on "Create my account": the second request read the invitation
    before the first used it (it was a 500, InvitationRefused). It gets the used link's
    page, and no second account."""
    from annotations.selectors import memberships as member_selectors

    people, campaign = memberships_world
    client.force_login(people["owner"])
    _invite(client, campaign, email="ada@example.org", role="designer")
    link = _link_in_last_mail()
    client.logout()
    read_before = member_selectors.invitation_for_token(token=link.strip("/").split("/")[-1])
    password = {"password1": "long enough pass 42", "password2": "long enough pass 42"}
    assert client.post(link, {"username": "ada", **password}).status_code == 302
    monkeypatch.setattr(member_selectors, "invitation_for_token", lambda token: read_before)
    second = Client().post(link, {"username": "ada2", **password})
    assert second.status_code == 410
    assert "already been used" in second.content.decode()
    assert not User.objects.filter(username="ada2").exists()


def test_used_expired_and_forged_links_are_refused_clearly(client, memberships_world, settings):
    people, campaign = memberships_world
    client.force_login(people["owner"])
    _invite(client, campaign, email="o@example.org", role="designer")
    link = _link_in_last_mail()
    User.objects.filter(pk=people["outsider"].pk).update(email="o@example.org")
    client.force_login(people["outsider"])
    client.post(link)
    # Used.
    again = client.get(link)
    assert again.status_code == 410
    assert "already been used" in again.content.decode()
    # Forged.
    forged = client.get("/invitations/not-a-real-token/")
    assert forged.status_code == 404
    assert "This invitation link is not valid" in forged.content.decode()
    assert client.post("/invitations/not-a-real-token/").status_code == 404
    # Expired.
    client.force_login(people["owner"])
    _invite(client, campaign, email="late@example.org", role="designer")
    late_link = _link_in_last_mail()
    CampaignInvitation.objects.filter(email="late@example.org").update(
        created_at=timezone.now() - timedelta(days=settings.INVITATION_MAX_AGE_DAYS, seconds=1)
    )
    client.logout()
    expired = client.post(
        late_link,
        {"username": "late", "password1": "a long pass 1234", "password2": "a long pass 1234"},
    )
    assert expired.status_code == 410
    assert "expired" in expired.content.decode()
    assert not User.objects.filter(username="late").exists()


def test_owner_withdraws_an_invitation_and_its_link_stops_working(client, memberships_world):
    people, campaign = memberships_world
    client.force_login(people["owner"])
    _invite(client, campaign)
    link = _link_in_last_mail()
    invitation = CampaignInvitation.objects.get()
    url = reverse("annotations:designer-invitation-revoke", args=[campaign.slug, invitation.pk])
    for who in ("designer", "viewer"):
        client.force_login(people[who])
        assert client.post(url).status_code == 403
    client.force_login(people["owner"])
    assert client.post(url).status_code == 302
    assert client.get(link).status_code == 404
    again = client.post(url, follow=True)  # a second click: said, not a bare 404
    assert again.status_code == 200
    assert "That invitation is no longer open: nothing to withdraw." in again.content.decode()


def test_a_bad_invitation_form_names_the_field(client, memberships_world):
    people, campaign = memberships_world
    client.force_login(people["owner"])
    response = _invite(client, campaign, email="not an email")
    assert response.status_code == 400
    assert "Enter a valid email address." in response.content.decode()
    assert not mail.outbox


def test_a_bad_role_is_shown_where_the_role_field_points(client, memberships_world):
    """The role's error was never rendered: its select named an error element that the
    page did not have, and the page held two elements with the id ``id_role``."""
    people, campaign = memberships_world
    client.force_login(people["owner"])
    response = _invite(client, campaign, role="boss")
    assert response.status_code == 400
    html = response.content.decode()
    described = re.search(r'<select name="role"[^>]*aria-describedby="([^"]+)"', html)
    assert described, "the role select names no error"
    error = re.search(rf'id="{described.group(1)}"[^>]*>(.*?)</ul>', html, re.S)
    assert error and "Select a valid choice" in error.group(1)
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def test_a_second_invitation_of_one_address_is_refused_beside_the_email_field(
    client, memberships_world
):
    """The refusal is a sentence beside the field it is about, without the field's name
    glued before it (it read "email: new@example.org already has ...")."""
    people, campaign = memberships_world
    client.force_login(people["owner"])
    assert _invite(client, campaign).status_code in (200, 302)
    again = _invite(client, campaign)
    assert again.status_code == 400
    page = again.content.decode()
    said = "new@example.org already has an open invitation to this campaign"
    assert said in page and "email: " not in page
    assert said in str(again.context["invite_form"].errors["email"])
    assert len(mail.outbox) == 1


# Invitations are for the invited address ----------------------------------------------------


def test_an_invitation_is_refused_to_an_account_of_another_address(client, memberships_world):
    people, campaign = memberships_world
    client.force_login(people["owner"])
    _invite(client, campaign, email="kim@example.org", role="designer")
    link = _link_in_last_mail()
    client.get(_members(campaign))  # the owner reads the "Invitation sent" message
    invitation = CampaignInvitation.objects.get()
    User.objects.filter(pk=people["outsider"].pk).update(email="mallory@example.org")
    client.force_login(people["outsider"])

    page = client.get(link)
    assert page.status_code == 403
    html = page.content.decode()
    assert "This invitation was sent to k…@example.org" in html
    assert "kim@example.org" not in html  # who it was for, no more than needed
    assert "you are signed in with (outsider)" in html
    assert "Accept the invitation" not in html and "Sign out" in html
    accepted = client.post(link)
    assert accepted.status_code == 403
    assert not CampaignMembership.objects.filter(
        campaign=campaign, user=people["outsider"]
    ).exists()
    invitation.refresh_from_db()
    assert invitation.accepted_at is None and invitation.accepted_by is None

    # An account without any email is refused too; the invited address's (any case) joins.
    User.objects.filter(pk=people["outsider"].pk).update(email="")
    assert client.post(link).status_code == 403
    User.objects.filter(pk=people["outsider"].pk).update(email=" KIM@Example.ORG ")
    assert client.post(link).status_code == 302
    role = CampaignMembership.objects.get(campaign=campaign, user=people["outsider"]).role
    assert role == Role.DESIGNER


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("12345678", "This password is entirely numeric."),
        ("password1", "This password is too common."),
        ("kim@example.org", "The password is too similar to the email address."),
        ("short7", "This password is too short."),
    ],
)
def test_sign_up_from_an_invitation_refuses_weak_passwords(
    client, memberships_world, password, message
):
    people, campaign = memberships_world
    client.force_login(people["owner"])
    _invite(client, campaign, email="kim@example.org", role="viewer")
    link = _link_in_last_mail()
    client.logout()
    response = client.post(link, {"username": "kim", "password1": password, "password2": password})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not User.objects.filter(username="kim").exists()
    assert CampaignInvitation.objects.get().accepted_at is None


def test_an_account_made_from_an_invitation_has_the_invited_address(client, memberships_world):
    people, campaign = memberships_world
    client.force_login(people["owner"])
    _invite(client, campaign, email="Kim@Example.org", role="viewer")
    link = _link_in_last_mail()
    client.logout()
    response = client.post(
        link,
        {
            "username": "kim",
            "email": "mallory@example.org",  # not a field of the form: ignored
            "password1": "long enough pass 42",
            "password2": "long enough pass 42",
        },
    )
    assert response.status_code == 302
    assert User.objects.get(username="kim").email == "Kim@Example.org"


def test_without_real_mail_the_page_gives_the_invitation_link_instead_of_saying_sent(
    client, memberships_world, settings
):
    people, campaign = memberships_world
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    client.force_login(people["owner"])
    answer = _invite(client, campaign, email="console@example.org")
    assert answer.status_code == 200
    page = answer.text
    assert "Invitation sent" not in page and "no email was sent" in page
    link = re.search(
        r'data-invitation-link>.*?value="(http://testserver/invitations/[^"]+)"', page, re.S
    )
    assert link, page
    invitation = CampaignInvitation.objects.get(email="console@example.org")
    assert invitation.token == token_digest(link.group(1).rstrip("/").rsplit("/", 1)[1])
    # Shown once: the next visit no longer has it.
    assert "data-invitation-link" not in client.get(_members(campaign)).text
    # With real mail, the page says sent and shows no link.
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    page = client.get(_invite(client, campaign, email="mail@example.org")["Location"]).text
    assert "Invitation sent to mail@example.org" in page and "data-invitation-link" not in page


def test_the_invitation_link_is_in_the_answer_to_its_post_only_never_in_the_session(
    client, memberships_world, settings
):
    """Without mail, the raw link is shown once, in the answer to the POST that made the
    invitation; the session never holds it, and the next GET neither shows it nor writes."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    people, campaign = memberships_world
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    client.force_login(people["owner"])
    client.get(_members(campaign))  # settle what the first visit of a session may write
    answer = _invite(client, campaign, email="once@example.org")
    assert answer.status_code == 200
    links = re.findall(r'value="(http://testserver/invitations/[^"]+)"', answer.text)
    assert len(links) == 1, answer.text
    raw = links[0].rstrip("/").rsplit("/", 1)[1]
    invitation = CampaignInvitation.objects.get(email="once@example.org")
    assert invitation.token == token_digest(raw)
    session = client.session
    assert all(raw not in str(value) for value in session.values()), dict(session)
    assert "invitation_link" not in session
    with CaptureQueriesContext(connection) as queries:
        page = client.get(_members(campaign))
    assert page.status_code == 200
    assert "data-invitation-link" not in page.text and raw not in page.text
    writes = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
    ]
    assert writes == []
