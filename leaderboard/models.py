# Rankings are added by the leaderboard issue.
