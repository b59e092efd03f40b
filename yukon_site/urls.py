"""Top-level URLs. Each app adds its own under a prefix; the game page is at /."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from yukon_site.health import healthz

urlpatterns = [
    path("", include("frontend.urls")),
    path("healthz", healthz, name="healthz"),
    path("accounts/", include("accounts.page_urls")),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("api/", include("games.urls")),
    path("api/", include("accounts.urls")),
    path("api/", include("leaderboard.urls")),
    path("api/", include("daily.urls")),
    path("api/", include("players.urls")),
    path("api/", include("races.urls")),
    path("api/", include("fairplay.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view loads its start-up script from a URL, not inline: the CSP allows it.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
]

# JSON under /api/, Django's own pages elsewhere (yukon_site/api_errors.py).
handler400 = "yukon_site.api_errors.bad_request"
handler404 = "yukon_site.api_errors.not_found"
handler500 = "yukon_site.api_errors.server_error"
