from django.contrib import admin

from leaderboard.models import BoardEntry, BoardRepair, SeasonSnapshot


@admin.register(BoardEntry)
class BoardEntryAdmin(admin.ModelAdmin):
    list_display = ["board", "user", "score", "moves", "duration_ms", "achieved_at", "submission"]
    list_filter = ["board"]
    search_fields = ["board", "user__username", "user__display_name"]
    raw_id_fields = ["user", "submission"]
    ordering = ["board", "-sort_key", "user_id"]

    def has_add_permission(self, request) -> bool:
        return False  # entries come from verified results only

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(BoardRepair)
class BoardRepairAdmin(admin.ModelAdmin):
    list_display = ["board", "noted_at"]


@admin.register(SeasonSnapshot)
class SeasonSnapshotAdmin(admin.ModelAdmin):
    """Seasons' final standings: kept once, never edited (docs/leaderboards.md, "Seasons")."""

    list_display = ["board", "entries", "taken_at"]
    search_fields = ["board"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
