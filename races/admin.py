from django.contrib import admin

from races.models import Race, RaceSeat, Rating


class RaceSeatInline(admin.TabularInline):
    model = RaceSeat
    extra = 0
    raw_id_fields = ("user", "game")


@admin.register(Race)
class RaceAdmin(admin.ModelAdmin):
    list_display = ("public_id", "rules", "state", "seats", "created_at", "places_final")
    list_filter = ("state", "rules")
    raw_id_fields = ("host", "rematch")
    inlines = [RaceSeatInline]


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "rules", "ordinal", "races", "updated_at")
    raw_id_fields = ("user",)
