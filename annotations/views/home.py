from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from annotations.selectors import campaigns as campaign_selectors


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "annotations/home.html",
        {"campaigns": campaign_selectors.campaign_list(user=request.user)},
    )
