"""Password reset end to end with the locmem mail outbox, in the site's look."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _mail(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def test_console_email_is_the_default_backend():
    from humaneval import settings as project_settings

    assert project_settings.EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend"


def test_password_reset_request_link_new_password_and_sign_in(client):
    User.objects.create_user("ada", email="ada@example.org", password="the old password 1")
    login_page = client.get(reverse("login")).content.decode()
    assert 'href="/accounts/password_reset/"' in login_page

    form = client.get(reverse("password_reset"))
    assert form.status_code == 200
    assert "Reset your password" in form.content.decode()
    assert 'class="site-header"' in form.content.decode()  # the site's own look
    sent = client.post(reverse("password_reset"), {"email": "ada@example.org"})
    assert sent.status_code == 302
    assert "Check your email" in client.get(sent["Location"]).content.decode()

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ada@example.org"]
    assert message.subject == "Reset your humaneval password"
    assert '"ada"' in message.body
    match = re.search(r"http://testserver(/accounts/reset/\S+/)", str(message.body))
    assert match, message.body
    link = match.group(1)

    # Django redirects the emailed link to one that keeps the token in the session.
    landing = client.get(link, follow=True)
    assert "Choose a new password" in landing.content.decode()
    set_url = landing.redirect_chain[-1][0]
    done = client.post(
        set_url,
        {"new_password1": "a brand new secret 7", "new_password2": "a brand new secret 7"},
    )
    assert done.status_code == 302
    assert "Your password is set" in client.get(done["Location"]).content.decode()

    # The link is used up.
    assert "This link does not work any more" in client.get(link, follow=True).content.decode()

    client.logout()
    old = client.post(reverse("login"), {"username": "ada", "password": "the old password 1"})
    assert old.status_code == 200 and "didn" in old.content.decode()
    new = client.post(reverse("login"), {"username": "ada", "password": "a brand new secret 7"})
    assert new.status_code == 302
    assert client.get("/").status_code == 200
    assert "Signed in as <strong>ada</strong>" in client.get("/").content.decode()


def test_unknown_email_gets_the_same_answer_and_no_mail(client):
    sent = client.post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert sent.status_code == 302
    assert not mail.outbox


def test_forged_reset_link_is_refused_clearly(client):
    page = client.get("/accounts/reset/MQ/set-password/", follow=True)
    assert "This link does not work any more" in page.content.decode()


# Throttling -----------------------------------------------------------------------------


def _reset(client, email: str, ip: str = "127.0.0.1"):
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=ip)


def _answer(response, typed: str) -> tuple[int, str]:
    """What a requester learns: the status and the page, without its CSRF token and the
    address they typed (shown back in the form)."""
    text = response.content.decode().replace(typed, "ADDRESS")
    return response.status_code, re.sub(r"[A-Za-z0-9]{64}", "TOKEN", text)


def test_reset_mails_are_throttled_per_address_and_the_answer_does_not_tell_accounts(
    client, settings
):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    User.objects.create_user("ada", email="ada@example.org", password="a usable password")
    limit = settings.PASSWORD_RESET_MAX_PER_ADDRESS
    known = [_reset(client, "ada@example.org" if i % 2 else "ADA@Example.org") for i in range(15)]
    assert len(mail.outbox) == limit  # 15 requests, 3 mails
    assert [r.status_code for r in known] == [302] * limit + [429] * (15 - limit)
    refused = known[-1].content.decode()
    assert "Too many password-reset requests" in refused and "No email was sent" in refused
    assert known[-1]["Retry-After"] == str(settings.PASSWORD_RESET_WINDOW)

    unknown = [_reset(client, "nobody@example.org", ip="10.0.0.2") for _ in range(15)]
    assert len(mail.outbox) == limit
    assert [r.status_code for r in unknown] == [r.status_code for r in known]
    assert unknown[0].status_code == 302 and unknown[0]["Location"] == known[0]["Location"]
    assert _answer(unknown[-1], "nobody@example.org") == _answer(known[-1], "ADA@Example.org")


def test_reset_mails_are_throttled_per_client(client, settings):
    limit = settings.PASSWORD_RESET_MAX_PER_CLIENT
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    for i in range(limit + 5):
        User.objects.create_user(f"u{i}", email=f"u{i}@example.org", password="usable pw 1")
    statuses = [_reset(client, f"u{i}@example.org").status_code for i in range(limit + 5)]
    assert statuses == [302] * limit + [429] * 5
    assert len(mail.outbox) == limit
    # Another client is not held up by this one.
    assert _reset(client, "u0@example.org", ip="10.0.0.9").status_code == 302
    assert len(mail.outbox) == limit + 1


def test_a_new_password_from_a_reset_link_meets_the_validators(client):
    User.objects.create_user("bea", email="bea@example.org", password="the old password 1")
    _reset(client, "bea@example.org")
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", str(mail.outbox[0].body))
    assert link
    set_url = client.get(link.group(1), follow=True).redirect_chain[-1][0]
    weak = client.post(set_url, {"new_password1": "12345678", "new_password2": "12345678"})
    assert weak.status_code == 200
    assert "This password is too common." in weak.content.decode()
    assert User.objects.get(username="bea").check_password("the old password 1")
