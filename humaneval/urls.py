from django.contrib import admin
from django.urls import include, path, re_path, register_converter
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from annotations.views import accounts
from common.api import api_not_found
from common.converters import IdConverter

# Before the apps' URLconfs below are read: their paths take ids as <id:pk>.
register_converter(IdConverter, "id")

urlpatterns = [
    path("admin/", admin.site.urls),
    # Before Django's own: the reset request is throttled.
    path(
        "accounts/password_reset/",
        accounts.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file: no inline script (CSP).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/", RedirectView.as_view(pattern_name="api-docs"), name="api-root"),
    path("api/", include("annotations.urls.api")),
    path("api/", include("ranking.urls.api")),
    path("api/", include("reports.urls.api")),
    # Last under /api/: any other path is a JSON 404 in the API's error shape.
    re_path(r"^api/[\s\S]*$", api_not_found, name="api-not-found"),
    path("rankings/", include("ranking.urls.pages")),
    path("campaigns/<slug:slug>/", include("reports.urls.pages")),
    path("", include("annotations.urls.pages")),
]

# Error pages: under /w/ they may be framed by the crowd platforms, like worker pages.
handler403 = "annotations.views.errors.permission_denied"
handler404 = "annotations.views.errors.page_not_found"
handler500 = "annotations.views.errors.server_error"
