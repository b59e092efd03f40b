from django.apps import AppConfig


class DailyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "daily"
    verbose_name = "Daily deal"

    def ready(self) -> None:
        # The boards hide the replays of today's daily deals and name the days a deal was one:
        # daily/ tells them (leaderboard/daily_calendar.py); the boards never import daily/.
        from daily import selectors, tasks  # noqa: F401  (tasks: sent by name, from beat)
        from games.daily_calendar import DailyCalendar, daily_calendar_register

        daily_calendar_register(
            DailyCalendar(codes_from=selectors.daily_codes_from, days_of=selectors.daily_days_of)
        )
