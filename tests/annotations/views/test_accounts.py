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
