"""A campaign's members: roles set and removed, and invitations.

A campaign's owner invites a collaborator by an emailed link.

The link carries a random token (256 bits); the database keeps only its SHA-256, so a
copy of the database does not hold working links. A link works once, for
``settings.INVITATION_MAX_AGE_DAYS`` days, and only for the invited address: the account
that accepts it has that email (compared without regard to case), and an account made
from it gets that email. A forwarded or leaked link is of no use to anyone else.
Accepting never lowers a role the user already holds.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import timedelta
from smtplib import SMTPException

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from annotations.access.campaigns import ROLE_ORDER
from annotations.models import Campaign, CampaignInvitation, CampaignMembership
from annotations.selectors.memberships import (
    InvitationRefused,
    invitation_for_token,
    invitation_refusal_for,
    token_digest,
)
from common.errors import DomainError
from common.queries import row_lock
from common.throttle import throttle_hit

Role = CampaignMembership.Role


@transaction.atomic
def membership_set(*, campaign: Campaign, username: str, role: str) -> CampaignMembership:
    """Give a user a role in the campaign (creating or changing their membership)."""
    if role not in CampaignMembership.Role.values:
        raise DomainError(
            f"Choose a role: one of {', '.join(CampaignMembership.Role.values)}.", field="role"
        )
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise DomainError(f"There is no user '{username}'.", field="username")
    if campaign.owner_id == user.pk and role != CampaignMembership.Role.OWNER:
        raise DomainError("The campaign's owner keeps the owner role.", field="role")
    membership, _ = CampaignMembership.objects.update_or_create(
        campaign=campaign, user=user, defaults={"role": role}
    )
    return membership


@transaction.atomic
def membership_remove(*, membership: CampaignMembership) -> None:
    """Take a member off the campaign; the owner stays."""
    if membership.campaign.owner_id == membership.user_id:
        raise DomainError("The campaign's owner cannot be removed.")
    membership.delete()


# Invitations ----------------------------------------------------------------------------------


#: Email backends that send nothing anybody receives (Django's console, file and dummy).
NO_MAIL_BACKENDS = frozenset(
    {
        "django.core.mail.backends.console.EmailBackend",
        "django.core.mail.backends.filebased.EmailBackend",
        "django.core.mail.backends.dummy.EmailBackend",
    }
)


def mail_is_sent() -> bool:
    """Whether an email reaches its recipient (not when the backend only prints it): when
    not, the owner is given the invitation's link to pass on."""
    return settings.EMAIL_BACKEND not in NO_MAIL_BACKENDS


def _one_line(text: str) -> str:
    """A name as one line: an email header cannot hold a line break (Django refuses it)."""
    return " ".join(text.split())


def _invitation_limits(*, campaign: Campaign, email: str, invited_by: User) -> None:
    """At most one open invitation per address and campaign, and at most
    ``INVITATIONS_PER_HOUR`` invitation mails per inviter and ``INVITATIONS_PER_ADDRESS``
    per address an hour: the mails carry the site's sender address and a campaign name
    the inviter chose, so the site must not become a way to flood someone's inbox."""
    open_one = CampaignInvitation.objects.filter(
        campaign=campaign,
        email__iexact=email,
        accepted_at__isnull=True,
        created_at__gte=timezone.now() - timedelta(days=settings.INVITATION_MAX_AGE_DAYS),
    )
    if open_one.exists():
        raise DomainError(
            f"{email} already has an open invitation to this campaign; revoke it "
            "(Members) to send a new one.",
            field="email",
        )
    if throttle_hit(
        scope="invitation-inviter",
        key=str(invited_by.pk),
        limit=settings.INVITATIONS_PER_HOUR,
        window=3600,
    ) or throttle_hit(
        scope="invitation-address",
        key=email.casefold(),
        limit=settings.INVITATIONS_PER_ADDRESS,
        window=3600,
    ):
        raise DomainError(
            "Too many invitations were sent in the last hour (at most "
            f"{settings.INVITATIONS_PER_HOUR} per person and "
            f"{settings.INVITATIONS_PER_ADDRESS} per address); try again later."
        )


@transaction.atomic
def invitation_create(
    *,
    campaign: Campaign,
    email: str,
    role: str,
    invited_by: User,
    link_for: Callable[[str], str],
) -> CampaignInvitation:
    """Invite ``email`` to the campaign as ``role`` and email them the link.

    ``link_for`` turns the token into the absolute URL of the acceptance page. The mail
    is sent inside the transaction: when it cannot be sent, no invitation is stored.
    """
    if role not in Role.values:
        raise DomainError(f"Choose a role: one of {', '.join(Role.values)}.", field="role")
    email = email.strip()
    if not email or "@" not in email:
        raise DomainError("Enter an email address.", field="email")
    # The campaign's row lock: two invitations of one address sent at once (two tabs, a
    # form sent twice) are checked one after the other, so the second finds the first.
    row_lock(Campaign, campaign.pk)
    _invitation_limits(campaign=campaign, email=email, invited_by=invited_by)
    token = secrets.token_urlsafe(32)
    invitation = CampaignInvitation.objects.create(
        campaign=campaign,
        email=email,
        role=role,
        token=token_digest(token),
        invited_by=invited_by,
    )
    link = link_for(token)
    inviter = _one_line(invited_by.get_full_name() or invited_by.get_username())
    name = _one_line(campaign.name)
    body = (
        f"{inviter} invites you to the human-evaluation campaign “{name}” "
        f"as {Role(role).label.lower()}.\n\n"
        f"Open this link to accept (sign in, or create an account there):\n{link}\n\n"
        f"The link works once and for {settings.INVITATION_MAX_AGE_DAYS} days. If you did "
        "not expect this email, ignore it."
    )
    try:
        send_mail(
            subject=f"Invitation to “{name}” on humaneval",
            message=body,
            from_email=None,
            recipient_list=[email],
        )
    except (SMTPException, OSError) as exc:
        raise DomainError(
            f"The invitation email to {email} could not be sent ({exc.__class__.__name__}); "
            "nothing was saved. Check the email settings and try again."
        ) from exc
    return invitation


@transaction.atomic
def invitation_accept(*, token: str, user: User) -> CampaignMembership:
    """Make ``user`` a member with the invited role and use the invitation up.

    Only the account with the invited address may (:func:`invitation_is_for`); any other
    gets :class:`InvitationRefused` (``other-account``) and nothing changes. Locks the
    invitation row so that two simultaneous clicks accept it once.
    """
    found = invitation_for_token(token=token)
    invitation = CampaignInvitation.objects.select_for_update().get(pk=found.pk)
    if invitation.accepted_at is not None:
        raise InvitationRefused("This invitation has already been used.", reason="used")
    refusal = invitation_refusal_for(invitation=invitation, user=user)
    if refusal is not None:
        raise refusal
    campaign = found.campaign
    membership = CampaignMembership.objects.filter(campaign=campaign, user=user).first()
    role = invitation.role
    if campaign.owner_id == user.pk:
        role = Role.OWNER
    if membership is None:
        membership = CampaignMembership.objects.create(campaign=campaign, user=user, role=role)
    elif ROLE_ORDER[role] > ROLE_ORDER[membership.role]:
        membership.role = role
        membership.save(update_fields=["role"])
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return membership


@transaction.atomic
def invitation_sign_up(*, token: str, user: User) -> CampaignMembership:
    """Save ``user``, a new account made from the invitation link, with the invited email
    address (whatever else was posted), and accept the invitation for it. One
    transaction: a refused invitation leaves no account behind. The invitation's row lock
    makes a form sent twice (a double click) wait for the first, then find the link used.
    """
    row_lock(CampaignInvitation, invitation_for_token(token=token).pk)
    invitation = invitation_for_token(token=token)
    user.email = invitation.email.strip()
    user.save()
    return invitation_accept(token=token, user=user)


@transaction.atomic
def invitation_revoke(*, invitation: CampaignInvitation) -> None:
    """Withdraw an invitation not yet accepted (its link stops working)."""
    if invitation.accepted_at is not None:
        raise DomainError("This invitation was already accepted; remove the member instead.")
    invitation.delete()
