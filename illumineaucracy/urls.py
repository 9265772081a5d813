from django.contrib import admin
from django.contrib.auth.views import LogoutView
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from campaigns.web.post_only import post_only
from illumineaucracy.accounts import ThrottledPasswordResetView, signup

# Django's own 400 view runs the CSRF check, which reads the POST that could not be read.
handler400 = "campaigns.web.bad_requests.bad_request"


class FaviconRedirect(RedirectView):
    """Browsers ask for /favicon.ico whatever the page links: send them to the site's icon
    (its static address, hashed in production, is known only once the app has loaded)."""

    http_method_names = ["get", "head"]

    def get_redirect_url(self, *args: object, **kwargs: object) -> str:
        return static("favicon.svg")


urlpatterns = [
    path("admin/", admin.site.urls),
    path("favicon.ico", FaviconRedirect.as_view(), name="favicon"),
    # Before Django's own: the same page, with a limit on the mail it sends.
    path(
        "accounts/password_reset/",
        ThrottledPasswordResetView.as_view(),
        name="password_reset",
    ),
    path("accounts/signup/", signup, name="signup"),
    # Logging out takes a POST (web/post_only.py): a GET goes back to the front page.
    path("accounts/logout/", post_only("home")(LogoutView.as_view()), name="logout"),
    # login/, password_change/, ... with templates in templates/registration/.
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("campaigns.web.urls")),
]
