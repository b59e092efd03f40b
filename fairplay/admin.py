from django.contrib import admin

from fairplay.models import GameAnalysis, ResultReport


@admin.register(GameAnalysis)
class GameAnalysisAdmin(admin.ModelAdmin):
    list_display = ["submission", "reason", "state", "requested_at", "analysed_at", "cpu_ms"]
    list_filter = ["state", "reason"]
    readonly_fields = [field.name for field in GameAnalysis._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False  # asked for by settled results only


@admin.register(ResultReport)
class ResultReportAdmin(admin.ModelAdmin):
    list_display = ["submission", "reporter", "reason", "created_at"]
    list_filter = ["reason"]
    readonly_fields = [field.name for field in ResultReport._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False  # sent by players through the API
