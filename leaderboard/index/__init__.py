"""The boards' Redis index (infrastructure): `base` (the `BoardIndex` Protocol and its records),
`sorted_sets` and `histogram` (its two implementations), `locks`, and `wiring` (Django's side)."""
