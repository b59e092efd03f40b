"""Forms of the account pages: the display name at sign-up and on the account page, deletion."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.lockout import PasswordTriesExhausted, password_confirmed, password_tries_message
from accounts.services import display_name_clean


class DisplayNameChoice(forms.Form):
    """A display name chosen with an account: the username when left empty, as at sign-up."""

    display_name = forms.CharField(
        label=_("Display name (optional)"),
        required=False,
        max_length=20,
        help_text=_(
            "Shown on leaderboards; 3–20 characters: letters A–Z, digits, _ or -. "
            "Leave it empty to use your username."
        ),
        widget=forms.TextInput(attrs={"placeholder": _("Display name"), "autocomplete": "nickname"}),
    )

    def clean(self):
        cleaned = super().clean()
        chosen = (cleaned.get("display_name") or "").strip()
        name = chosen or cleaned.get("username")
        if name:
            try:
                cleaned["display_name"] = display_name_clean(name=name)
            except ValidationError as error:
                if chosen:
                    self.add_error("display_name", error)
                else:
                    self.add_error("display_name", _("Your username is taken as a display name: choose one."))
        return cleaned


class DisplayNameSignupForm(DisplayNameChoice):
    """allauth's sign-up form is built on this (ACCOUNT_SIGNUP_FORM_CLASS)."""

    def signup(self, request, user) -> None:
        user.display_name = self.cleaned_data["display_name"]
        user.save(update_fields=["display_name"])


class DisplayNameForm(forms.Form):
    display_name = forms.CharField(
        label=_("Display name"), max_length=20, help_text=_("3–20 characters: letters A–Z, digits, _ or -")
    )


class AccountDeleteForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"), widget=forms.PasswordInput(attrs={"autocomplete": "current-password"})
    )

    def __init__(self, *args, request, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.request = request

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        try:
            confirmed = password_confirmed(self.request, user=self.request.user, password=password)
        except PasswordTriesExhausted as exhausted:
            raise ValidationError(password_tries_message(exhausted.seconds), code="too_many_tries") from None
        if not confirmed:
            raise ValidationError(_("That is not your password."), code="wrong_password")
        return password
