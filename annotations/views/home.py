from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from annotations.models import Campaign
from annotations.selectors import campaigns as campaign_selectors


def home(request: HttpRequest) -> HttpResponse:
    """The user's campaigns; archived ones in a section of their own, folded away."""
    campaigns = list(campaign_selectors.campaign_list(user=request.user))
    return render(
        request,
        "annotations/home/home.html",
        {
            "campaigns": [c for c in campaigns if c.status != Campaign.Status.ARCHIVED],
            "archived": [c for c in campaigns if c.status == Campaign.Status.ARCHIVED],
        },
    )
