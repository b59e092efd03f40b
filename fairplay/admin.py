"""Fair play in the admin: the analyses, players' reports, and the review queue, where a
moderator reads a case's evidence on one screen and clears or confirms it (docs/fairplay.md)."""

from django import forms
from django.contrib import admin, messages

from fairplay.cases import case_decide
from fairplay.evidence import case_evidence
from fairplay.models import CaseDecision, GameAnalysis, PlayerScore, ResultReport
from games.models import ReplayFlag

DECIDE = "games.decide_replayflag"  # the moderators group's (fairplay/migrations/0005)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows written by the services only."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(GameAnalysis)
class GameAnalysisAdmin(ReadOnlyAdmin):
    list_display = ["submission", "reason", "state", "score", "case", "requested_at", "analysed_at", "cpu_ms"]
    list_filter = ["state", "reason"]
    readonly_fields = [field.name for field in GameAnalysis._meta.fields]


@admin.register(ResultReport)
class ResultReportAdmin(ReadOnlyAdmin):
    list_display = ["submission", "reporter", "reason", "created_at"]
    list_filter = ["reason"]
    readonly_fields = [field.name for field in ResultReport._meta.fields]


@admin.register(PlayerScore)
class PlayerScoreAdmin(ReadOnlyAdmin):
    list_display = ["user", "running", "games", "strong", "updated_at"]
    ordering = ["-running"]


@admin.register(CaseDecision)
class CaseDecisionAdmin(ReadOnlyAdmin):
    list_display = ["case", "action", "by", "level", "decided_at", "why"]
    list_filter = ["action", "level"]


class DecisionForm(forms.ModelForm):
    decision = forms.ChoiceField(
        choices=[("", "No decision now"), *CaseDecision.Action.choices[:2]], required=False
    )
    why = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=500, required=False)

    class Meta:
        model = ReplayFlag
        fields: list[str] = []

    def clean(self):
        data = super().clean()
        if data.get("decision") and not (data.get("why") or "").strip():
            self.add_error("why", "Say why: the decision is logged with your name and these words.")
        return data


@admin.register(ReplayFlag)
class ReviewCaseAdmin(admin.ModelAdmin):
    """The one review queue: identical logs, the analysis's thresholds, players' reports."""

    form = DecisionForm
    list_display = [
        "id",
        "reason",
        "level",
        "state",
        "user",
        "submission",
        "matches",
        "created_at",
        "reviewed_at",
    ]
    list_filter = ["state", "reason", "level"]
    search_fields = ["user__username", "user__display_name"]
    readonly_fields = [
        "reason", "level", "state", "user", "submission", "matches", "created_at", "reviewed_at", "note",
        "evidence",
    ]  # fmt: skip
    fieldsets = [
        ("Case", {"fields": readonly_fields[:-1]}),
        ("Evidence", {"fields": ["evidence"]}),
        ("Decision", {"fields": ["decision", "why"]}),
    ]

    @admin.display(description="Evidence")
    def evidence(self, case: ReplayFlag):
        return case_evidence(case)

    def has_add_permission(self, request) -> bool:
        return False  # opened by identical logs, the analysis and reports

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # a case is a label for the thresholds' calibration: kept

    def has_change_permission(self, request, obj=None) -> bool:
        return request.user.has_perm(DECIDE)

    def save_model(self, request, obj, form, change) -> None:
        action = form.cleaned_data.get("decision")
        if action:
            case_decide(case=obj, action=action, by=request.user, why=form.cleaned_data["why"])
            self.message_user(
                request, f"Case {obj.pk}: {CaseDecision.Action(action).label}.", messages.SUCCESS
            )
