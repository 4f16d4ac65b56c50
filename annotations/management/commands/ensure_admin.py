"""``manage.py ensure_admin``: the superuser ``admin``, created once, and its password."""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from annotations.services.demo import (
    ADMIN_PASSWORD_ENV,
    DEMO_SLUG,
    admin_ensure,
    demo_campaign_adopt,
)
from annotations.services.demo_multilingual import DEMO_MTG_SLUG

PASSWORD_FILE = ".admin-password"


class Command(BaseCommand):
    help = (
        f"Create the superuser 'admin' unless it exists (password from {ADMIN_PASSWORD_ENV}, "
        f"else a random one kept in {PASSWORD_FILE}), print the admin URL and the "
        "credentials, and make admin the owner of the demo campaign if it has none."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url", default="http://127.0.0.1:8000/admin/", help="The admin URL to print."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        account = admin_ensure(
            password_file=settings.BASE_DIR / PASSWORD_FILE,
            env_password=os.environ.get(ADMIN_PASSWORD_ENV) or None,
        )
        user = get_user_model().objects.get(username=account.username)
        adopted = [
            campaign.slug
            for slug in (DEMO_SLUG, DEMO_MTG_SLUG)
            if (campaign := demo_campaign_adopt(user=user, slug=slug)) is not None
        ]
        if account.password is None:
            password = f"(changed since it was generated; set {ADMIN_PASSWORD_ENV} to reset it)"
        else:
            password = account.password
        self.stdout.write(
            f"{'Created' if account.created else 'Admin account exists'}: {options['url']}\n"
            f"  username: {account.username}\n"
            f"  password: {password}"
            + (f"\n  (kept in {PASSWORD_FILE})" if account.source == "file" else "")
            + "".join(f"\n  now the owner of campaign '{slug}'" for slug in adopted)
        )
