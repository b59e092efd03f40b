from django.contrib import admin

from daily.models import DailyDeal


@admin.register(DailyDeal)
class DailyDealAdmin(admin.ModelAdmin):
    list_display = ["date", "rules", "code", "attempt", "picked_at"]
    list_filter = ["rules"]
    date_hierarchy = "date"
