"""Issued games and submissions in Django's admin; re-verify and void go through the services."""

from django.contrib import admin, messages

from games.models import HintUse, IssuedGame, Reveal, SolvedDeal, Submission
from games.submissions.intake import submission_void
from games.submissions.settle import submission_reverify


class RevealInline(admin.TabularInline):
    """A hidden-card game's reveals, in the order of its log; the record is never edited."""

    model = Reveal
    fields = readonly_fields = ("column", "depth", "card", "prefix_length", "page_time_ms", "received_at")
    ordering = ("prefix_length",)
    extra = max_num = 0
    can_delete = False


@admin.register(IssuedGame)
class IssuedGameAdmin(admin.ModelAdmin):
    inlines = (RevealInline,)
    list_display = ("id", "code", "user", "state", "issued_at", "finished_at")
    list_filter = ("state", "rules", "hidden")
    search_fields = ("code", "user__username", "user__display_name")
    raw_id_fields = ("user",)
    readonly_fields = (
        "code", "rules", "issued_at", "finished_at",
        "hidden", "secret", "commitment", "recorded_log", "recorded_times_ms", "revealed", "daily_date",
    )  # fmt: skip


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "user",
        "code",
        "ranked",
        "status",
        "won",
        "score",
        "reason_code",
        "voided",
        "received_at",
    )
    list_filter = ("status", "reason_code", "ranked", "won", "voided", "rules")
    search_fields = ("code", "user__username", "user__display_name", "client_id")
    date_hierarchy = "received_at"
    raw_id_fields = ("user", "game")
    # The row is the record: only the actions change a verdict.
    readonly_fields = [field.name for field in Submission._meta.fields]
    actions = ("reverify", "void", "unvoid")

    def has_add_permission(self, request) -> bool:
        return False

    @admin.action(description="Re-verify the selected submissions with the current engine")
    def reverify(self, request, queryset):
        changed = sum(submission_reverify(submission=s).changed for s in queryset.select_related("game"))
        self.message_user(
            request, f"Re-verified {queryset.count()}; {changed} verdict(s) changed.", messages.SUCCESS
        )

    @admin.action(description="Void the selected results (they leave every board)")
    def void(self, request, queryset):
        for submission in queryset:
            submission_void(submission=submission)
        self.message_user(request, f"Voided {queryset.count()} result(s).", messages.SUCCESS)

    @admin.action(description="Restore the selected voided results")
    def unvoid(self, request, queryset):
        for submission in queryset:
            submission_void(submission=submission, voided=False)
        self.message_user(request, f"Restored {queryset.count()} result(s).", messages.SUCCESS)


@admin.register(SolvedDeal)
class SolvedDealAdmin(admin.ModelAdmin):
    list_display = ("code", "result", "par", "nodes", "seconds", "time_limit", "shortened", "solved_at")
    list_filter = ("rules", "result", "shortened")
    search_fields = ("code",)
    readonly_fields = [field.name for field in SolvedDeal._meta.fields]  # written by the solver only


@admin.register(HintUse)
class HintUseAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "code", "created_at")
    search_fields = ("code", "user__username", "user__display_name")
    raw_id_fields = ("user",)
    readonly_fields = ("user", "code", "created_at")
