"""Admin pages for every model: the GM's back door to fix anything by hand."""

from django.contrib import admin

from campaigns import models


class MembershipInline(admin.TabularInline):
    model = models.Membership
    extra = 0


class AlignmentInline(admin.TabularInline):
    model = models.Alignment
    extra = 0


@admin.register(models.Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "status", "deadline_weekday", "deadline_time", "time_zone"]
    list_filter = ["status"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline, AlignmentInline]


@admin.register(models.Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "campaign", "role", "character_name", "perception"]
    list_filter = ["campaign", "role"]


@admin.register(models.Alignment)
class AlignmentAdmin(admin.ModelAdmin):
    list_display = ["name", "opposite", "self_opposed", "campaign"]


@admin.register(models.Board)
class BoardAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "campaign"]


@admin.register(models.Structure)
class StructureAdmin(admin.ModelAdmin):
    list_display = ["player", "board"]


@admin.register(models.Department)
class DepartmentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "board", "structure", "home", "status", "capacity"]
    list_filter = ["board", "status"]
    search_fields = ["name", "slug"]


@admin.register(models.Link)
class LinkAdmin(admin.ModelAdmin):
    list_display = ["supplier", "consumer", "priority", "board"]
    list_filter = ["board"]


@admin.register(models.Knowledge)
class KnowledgeAdmin(admin.ModelAdmin):
    list_display = ["player", "department", "level"]
    list_filter = ["level", "player"]


@admin.register(models.Turn)
class TurnAdmin(admin.ModelAdmin):
    list_display = ["campaign", "number", "status", "deadline", "processed_at", "failures"]
    list_filter = ["campaign", "status"]
    # The seed is the turn's secret until it is processed (R23): even staff see it only
    # afterwards, and nobody edits it.
    exclude = ["seed"]
    readonly_fields = ["published_seed", "commitment"]

    @admin.display(description="seed")
    def published_seed(self, turn: models.Turn) -> str:
        return turn.seed_if_published or "(secret until the turn is processed)"


@admin.register(models.Order)
class OrderAdmin(admin.ModelAdmin):
    list_display = ["pk", "turn", "player", "kind", "seq", "status"]
    list_filter = ["status", "kind"]


@admin.register(models.TurnRecord)
class TurnRecordAdmin(admin.ModelAdmin):
    list_display = ["turn", "board", "created_at"]


@admin.register(models.OrderLog)
class OrderLogAdmin(admin.ModelAdmin):
    list_display = ["at", "player", "action", "kind", "order"]

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False  # append-only

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


admin.site.register(models.PlayerTurn)
admin.site.register(models.Notice)
admin.site.register(models.NotificationSettings)


# --- Press and profiles ---------------------------------------------------------


class SentOnceAdmin(admin.ModelAdmin):
    """Messages and announcements are never changed or deleted (the GM hides a message on
    the site, which keeps it in the audit log, R53)."""

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(models.Message)
class MessageAdmin(SentOnceAdmin):
    list_display = ["conversation", "seq", "sender", "created_at", "hidden_at"]


@admin.register(models.Announcement)
class AnnouncementAdmin(SentOnceAdmin):
    list_display = ["campaign", "author", "created_at"]


@admin.register(models.Conversation)
class ConversationAdmin(admin.ModelAdmin):
    list_display = ["pk", "campaign", "is_public", "subject", "last_seq", "last_message_at"]
    list_filter = ["campaign", "is_public"]


admin.site.register(models.Participant)
admin.site.register(models.Profile)
admin.site.register(models.DigestClock)
