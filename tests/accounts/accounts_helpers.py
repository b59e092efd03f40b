"""Shared values of the accounts tests."""

from __future__ import annotations

from factories import PASSWORD

__all__ = ["PASSWORD"]
