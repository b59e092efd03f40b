"""Boards split by score, for Redis Cluster: `board` (one board's histogram), `build`, `layout`,
`scripts` (its Lua), and `index` (the `BoardIndex` over them)."""
