"""Server-rendered account pages beside allauth's: the account overview and deletion."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import AccountDeleteForm, DisplayNameForm
from accounts.services import user_delete, user_display_name_set


@login_required
@require_http_methods(["GET", "POST"])
def account_profile(request: HttpRequest) -> HttpResponse:
    """Your account: the display name (editable) and links to the other account pages."""
    form = DisplayNameForm(request.POST or None, initial={"display_name": request.user.display_name})
    if request.method == "POST" and form.is_valid():
        try:
            user_display_name_set(user=request.user, display_name=form.cleaned_data["display_name"])
        except ValidationError as error:
            form.add_error("display_name", error)
        else:
            messages.success(request, _("Your display name is saved."))
            return redirect("account_profile")
    return render(request, "accounts/profile.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def account_delete(request: HttpRequest) -> HttpResponse:
    form = AccountDeleteForm(request.POST or None, request=request)
    if request.method == "POST" and form.is_valid():
        user_delete(user=request.user)
        logout(request)
        return render(request, "accounts/deleted.html")
    return render(request, "accounts/delete.html", {"form": form})
