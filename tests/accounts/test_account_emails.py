"""The e-mails allauth sends (confirm an address, reset a password) come in the page's language."""

from __future__ import annotations

import pytest
from accounts_helpers import PASSWORD
from django.test import Client

pytestmark = pytest.mark.django_db


def on_page_in(client, language: str):
    """The client as a browser whose page language is `language` (the cookie i18n.js writes)."""
    client.cookies["django_language"] = language
    return client


def signup(client, username: str = "carol", email: str = "carol@example.com"):
    data = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return client.post("/accounts/signup/", data)


def password_reset(client, email: str = "alice@example.com"):
    return client.post("/accounts/password/reset/", {"email": email})


def add_email(client, email: str = "alice.new@example.com"):
    return client.post("/accounts/email/", {"action_add": "", "email": email})


def prose(message) -> list[str]:
    """The sentences of an e-mail: its subject and each line of its body with words, links left out."""
    lines = [message.subject, *message.body.splitlines()]
    return [line.strip() for line in lines if " " in line.strip() and "://" not in line]


def test_a_password_reset_asked_from_a_malay_page_is_in_malay(client, player, mailoutbox):
    player.language = "hi"  # the page's language wins over the account's
    player.save(update_fields=["language"])

    assert password_reset(on_page_in(client, "ms")).status_code == 302

    (message,) = mailoutbox
    assert message.to == ["alice@example.com"]
    assert "E-mel Set Semula Kata Laluan" in message.subject
    assert "Salam dari testserver!" in message.body
    assert "meminta untuk menetapkan semula kata laluan" in message.body
    assert "nama pengguna anda ialah alice." in message.body
    assert "Terima kasih kerana menggunakan testserver!" in message.body
    assert "/accounts/password/reset/key/" in message.body
    assert "Password Reset" not in message.subject and "Hello from" not in message.body


def test_the_sign_up_confirmation_asked_from_a_hindi_page_is_in_hindi(client, mailoutbox):
    assert signup(on_page_in(client, "hi")).status_code == 302

    (message,) = mailoutbox
    assert message.to == ["carol@example.com"]
    assert "कृपया अपने ई-मेल पते की पुष्टि करें" in message.subject
    assert "testserver की ओर से नमस्ते!" in message.body
    assert "उपयोगकर्ता carol ने testserver पर खाता बनाने के लिए आपका ई-मेल पता दिया है" in message.body
    assert "पुष्टि करने के लिए यहाँ जाएँ: http://testserver/accounts/confirm-email/" in message.body
    assert "Confirm" not in message.subject and "Hello from" not in message.body


@pytest.mark.parametrize("ask", [password_reset, signup])
def test_an_english_page_gets_an_english_email(client, player, mailoutbox, ask):
    player.language = "ms"  # the page's language wins over the account's
    player.save(update_fields=["language"])

    assert ask(on_page_in(client, "en")).status_code == 302

    (message,) = mailoutbox
    assert message.subject.startswith("[testserver] ")
    assert message.subject.endswith(("Password Reset Email", "Please Confirm Your Email Address"))
    assert message.body.startswith("Hello from testserver!")
    assert "Thank you for using testserver!" in message.body


# Every e-mail these settings send (accounts/allauth_messages.py): the confirmation of an address
# at sign-up and when one is added, a password reset, and the answer to a reset for an unknown
# address (so that nobody learns which addresses have accounts). A sign-up with a known address is
# refused on the form (verification is optional): no "account already exists" e-mail.
EMAILS = {
    "sign-up confirmation": (False, lambda client, n: signup(client, f"carol{n}", f"carol{n}@example.com")),
    "added address confirmation": (True, lambda client, n: add_email(client, f"alice{n}@example.com")),
    "password reset": (False, lambda client, n: password_reset(client, "alice@example.com")),
    "unknown account": (False, lambda client, n: password_reset(client, f"nobody{n}@example.com")),
}


@pytest.mark.parametrize("language", ["ms", "hi", "tl"])
@pytest.mark.parametrize("email", EMAILS)
def test_no_english_is_left_in_an_email(make_player, mailoutbox, language, email):
    signed_in, ask = EMAILS[email]
    alice = make_player("alice")
    for n, page_language in enumerate(["en", language]):
        client = Client()
        if signed_in:
            client.force_login(alice)
        assert ask(on_page_in(client, page_language), n).status_code == 302

    english, translated = mailoutbox
    assert english.body.startswith("Hello from testserver!")
    assert set(prose(english)) & set(prose(translated)) == set(), f"English left in the {language} e-mail"
    assert len(prose(translated)) >= len(prose(english)) >= 3
