"""Pages of members and invitations."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from annotations.access.campaigns import ROLE_POWERS, role_label
from annotations.access.pages import (
    campaign_access,
    campaign_context,
    campaign_require,
    campaign_view,
)
from annotations.forms.memberships import InvitationForm, MemberForm, SignUpForm
from annotations.models import (
    Campaign,
    CampaignInvitation,
    CampaignMembership,
)
from annotations.selectors import memberships as member_selectors
from annotations.services import memberships as membership_services
from common.errors import DomainError
from common.forms import form_refused
from common.http import (
    AuthenticatedHttpRequest,
    act,
)

Role = CampaignMembership.Role
_INVITATION = "annotations/memberships/invitation.html"


# Members -------------------------------------------------------------------------------------


@campaign_view(Role.VIEWER)
@require_http_methods(["GET", "POST"])
def campaign_members(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    # The least power by default: adding someone should not make them an owner by accident.
    form = MemberForm(request.POST or None, initial={"role": Role.VIEWER})
    if request.method == "POST":
        campaign_require(request, campaign, Role.OWNER, denied="Only owners manage members.")
        if form.is_valid():
            try:
                membership_services.membership_set(campaign=campaign, **form.cleaned_data)
            except DomainError as exc:
                form_refused(form, exc)
            else:
                messages.success(request, "Member saved.")
                return redirect("annotations:designer-members", slug=campaign.slug)
    return _members_page(request, campaign, form=form)


def _members_page(
    request: HttpRequest,
    campaign: Campaign,
    *,
    form: MemberForm | None = None,
    invite_form: InvitationForm | None = None,
    invitation_link: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The members page: members with their roles, what each role may do, invitations;
    ``invitation_link`` (email and link) only in the answer to the POST that made it."""
    is_owner = campaign_access(request, campaign).is_owner
    context = campaign_context(
        request,
        campaign,
        form=form or MemberForm(initial={"role": Role.VIEWER}),
        invite_form=invite_form or InvitationForm(initial={"role": Role.VIEWER}),
        memberships=member_selectors.campaign_members(campaign=campaign),
        invitations=member_selectors.invitations_pending(campaign=campaign) if is_owner else [],
        role_powers=[(Role(r).label, text) for r, text in ROLE_POWERS.items()],
        now=timezone.now(),
        max_age_days=settings.INVITATION_MAX_AGE_DAYS,
        invitation_link=invitation_link if is_owner else None,
    )
    return render(request, "annotations/memberships/members.html", context, status=status)


@campaign_view(Role.OWNER)
@require_POST
def member_invite(request: AuthenticatedHttpRequest, campaign: Campaign) -> HttpResponse:
    """Email an invitation link (the console shows it unless email is configured)."""
    form = InvitationForm(request.POST)
    if form.is_valid():
        links: list[str] = []

        def link_for(token: str) -> str:
            links.append(
                request.build_absolute_uri(reverse("annotations:invitation", args=[token]))
            )
            return links[-1]

        try:
            invitation = membership_services.invitation_create(
                campaign=campaign, invited_by=request.user, link_for=link_for, **form.cleaned_data
            )
        except DomainError as exc:
            form_refused(form, exc)
        else:
            role = role_label(invitation.role).lower()
            if membership_services.mail_is_sent():
                messages.success(request, f"Invitation sent to {invitation.email} as {role}.")
                return redirect("annotations:designer-members", slug=campaign.slug)
            # The link is shown once, in this answer only: only its digest is stored, in the
            # invitation, and the raw link never goes to the session (or any other row), so
            # no later GET can show it or has to delete it.
            messages.info(
                request,
                f"Invitation of {invitation.email} as {role} made, but no email was sent: "
                "this server has no mail set up. Give them the link below.",
            )
            return _members_page(
                request,
                campaign,
                invitation_link={"email": invitation.email, "link": links[-1]},
            )
    return _members_page(request, campaign, invite_form=form, status=400)


@campaign_view(Role.OWNER)
@require_POST
def invitation_revoke(request: HttpRequest, campaign: Campaign, pk: int) -> HttpResponse:
    invitation = member_selectors.invitation_by_id(campaign, pk)
    if invitation is None:  # withdrawn meanwhile (a second click, another tab) or used
        messages.info(request, "That invitation is no longer open: nothing to withdraw.")
        return redirect("annotations:designer-members", slug=campaign.slug)
    act(
        request,
        lambda: membership_services.invitation_revoke(invitation=invitation),
        done=f"Invitation of {invitation.email} withdrawn.",
    )
    return redirect("annotations:designer-members", slug=campaign.slug)


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The link of an invitation email: accept signed in, or sign up and accept.

    Forged, used and expired links get a page saying so (404 / 410), never a member.
    """
    try:
        found = member_selectors.invitation_for_token(token=token)
    except member_selectors.InvitationRefused as exc:
        return _invitation_refused(request, exc)
    if not request.user.is_authenticated:
        return _invitation_sign_up(request, token, found)
    # Another account than the invited address's: said before anything is offered.
    refusal = member_selectors.invitation_refusal_for(invitation=found, user=request.user)  # type: ignore[arg-type]
    if refusal is not None:
        return _invitation_page(request, found, refusal=refusal, status=403)
    if request.method == "POST":
        return _invitation_accept(request, token, found)
    return _invitation_page(request, found)


def _invitation_refused(
    request: HttpRequest, refused: member_selectors.InvitationRefused
) -> HttpResponse:
    """The page of a link that cannot be used: forged (404), used or expired (410)."""
    return render(
        request,
        _INVITATION,
        {"refused": str(refused), "reason": refused.reason},
        status=404 if refused.reason == "forged" else 410,
    )


def _invitation_sign_up(
    request: HttpRequest, token: str, found: CampaignInvitation
) -> HttpResponse:
    """The sign-up form of someone not signed in; posted valid, the new account accepts."""
    signup = SignUpForm(request.POST or None, email=found.email)
    if request.method == "POST" and signup.is_valid():
        user = signup.save(commit=False)
        try:
            membership_services.invitation_sign_up(token=token, user=user)
        except member_selectors.InvitationRefused as exc:  # used meanwhile: a double click
            return _invitation_refused(request, exc)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            f"Welcome, {user.get_username()}: you are now "
            f"{role_label(found.role).lower()} of this campaign.",
        )
        return redirect("annotations:designer-campaign", slug=found.campaign.slug)
    return _invitation_page(request, found, signup=signup, status=400 if signup.is_bound else 200)


def _invitation_accept(request: HttpRequest, token: str, found: CampaignInvitation) -> HttpResponse:
    """Accept as the signed-in account; a refusal is said on the invitation's page."""
    try:
        membership = membership_services.invitation_accept(
            token=token,
            user=request.user,  # type: ignore[arg-type]
        )
    except DomainError as exc:
        messages.error(request, str(exc))
        return _invitation_page(request, found)
    messages.success(
        request, f"You are now {role_label(membership.role).lower()} of this campaign."
    )
    return redirect("annotations:designer-campaign", slug=found.campaign.slug)


def _invitation_page(
    request: HttpRequest,
    found: CampaignInvitation,
    *,
    signup: SignUpForm | None = None,
    refusal: member_selectors.InvitationRefused | None = None,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        _INVITATION,
        {
            "invitation": found,
            "invited": member_selectors.email_hint(found.email),
            "other_account": str(refusal) if refusal is not None else "",
            "role_label": role_label(found.role),
            "signup": signup,
            "expires_at": member_selectors.invitation_expires_at(found),
        },
        status=status,
    )


@campaign_view(Role.OWNER)
@require_POST
def member_remove(request: HttpRequest, campaign: Campaign, pk: int) -> HttpResponse:
    membership = member_selectors.membership_by_id(campaign, pk)
    if membership is None:  # removed meanwhile (a second click, another tab)
        messages.info(request, "That person is no longer a member: nothing to remove.")
        return redirect("annotations:designer-members", slug=campaign.slug)
    act(
        request,
        lambda: membership_services.membership_remove(membership=membership),
        done=f"{membership.user.get_username()} is no longer a member.",
    )
    return redirect("annotations:designer-members", slug=campaign.slug)
