"""What reads across the apps about one player: the summary of /api/me/ (results, the boards'
ranks, seasons, race ratings). It may import games, leaderboard and races; nothing imports it."""
