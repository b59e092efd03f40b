from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboard"
    verbose_name = "Leaderboard"

    def ready(self) -> None:
        # The boards listen to games' settled results (games/results.py) and to changes of a
        # player (accounts/listeners.py); neither app imports the boards.
        from accounts import listeners
        from games import results
        from leaderboard import players, services, tasks  # noqa: F401  (tasks: sent by name)

        results.places_recorder_register(services.results_record)
        results.player_listener_register(services.player_entries_rebuild)
        listeners.standing_listener_register(services.player_entries_rebuild)
        listeners.names_listener_register(players.player_names_forget)
