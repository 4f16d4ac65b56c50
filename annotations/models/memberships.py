"""Who works on a campaign: members with a role, and invitations to become one."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from annotations.models.campaigns import Campaign


class CampaignMembership(models.Model):
    """A user's role in a campaign (the owner also has a row)."""

    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        DESIGNER = "designer", "Editor"
        VIEWER = "viewer", "Viewer"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaign_memberships"
    )
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.VIEWER)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="membership_unique"),
            models.CheckConstraint(
                condition=Q(role__in=["owner", "designer", "viewer"]), name="membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.role} of {self.campaign}"


class CampaignInvitation(models.Model):
    """An emailed link that makes its acceptor a member of a campaign with a role."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    role = models.CharField(
        max_length=8,
        choices=CampaignMembership.Role.choices,
        default=CampaignMembership.Role.DESIGNER,
    )
    token = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(role__in=["owner", "designer", "viewer"]), name="invitation_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"invitation of {self.email} to {self.campaign.slug} as {self.role}"
