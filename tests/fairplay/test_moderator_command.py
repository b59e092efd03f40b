"""`manage.py moderator`: an operator makes an account a moderator, and takes it back."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from factories import moderators, player_make

pytestmark = pytest.mark.django_db


def test_an_account_becomes_a_moderator_and_stops_being_one(client):
    moderators()  # as the migration made it (a transactional test may have flushed it)
    mod = player_make("mod")
    out = StringIO()
    call_command("moderator", "MOD", stdout=out)
    mod.refresh_from_db()
    assert out.getvalue().strip() == "mod is a moderator"
    assert mod.is_staff and mod.groups.filter(name="moderators").exists()
    client.force_login(mod)
    assert client.get("/admin/games/replayflag/").status_code == 200

    call_command("moderator", "mod", "--remove", stdout=StringIO())
    mod.refresh_from_db()
    assert not mod.is_staff and not mod.groups.exists()
    assert client.get("/admin/games/replayflag/").status_code == 302  # to the admin's sign-in


def test_an_unknown_account_is_refused():
    with pytest.raises(CommandError, match="no account is named 'nobody'"):
        call_command("moderator", "nobody")
