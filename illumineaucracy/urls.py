from django.contrib import admin
from django.urls import include, path

from illumineaucracy.accounts import ThrottledPasswordResetView, signup

# Django's own 400 view runs the CSRF check, which reads the POST that could not be read.
handler400 = "campaigns.web.bad_requests.bad_request"

urlpatterns = [
    path("admin/", admin.site.urls),
    # Before Django's own: the same page, with a limit on the mail it sends.
    path(
        "accounts/password_reset/",
        ThrottledPasswordResetView.as_view(),
        name="password_reset",
    ),
    path("accounts/signup/", signup, name="signup"),
    # login/, logout/, password_change/, ... with templates in templates/registration/.
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("campaigns.web.urls")),
]
