from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        from campaigns import (
            checks,  # noqa: F401  (registers the deploy checks)
            tasks,  # noqa: F401  (registers the tasks in every process)
        )
        from campaigns.accounts.web import preferences  # noqa: F401  (the log-in's last-seen stamp)
