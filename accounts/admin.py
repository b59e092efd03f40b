"""Players in Django's admin: display names, and suspension through the services."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm

from accounts.forms import DisplayNameChoice
from accounts.listeners import player_names_changed
from accounts.models import User
from accounts.services import user_delete, user_suspend, user_unsuspend


class SuspendActionForm(ActionForm):
    reason = forms.CharField(required=False, max_length=200, label="Reason (for suspend)")


class PlayerCreationForm(DisplayNameChoice, AdminUserCreationForm):
    """The admin's "add user": a display name too, checked as at sign-up."""

    class Meta(AdminUserCreationForm.Meta):
        model = User
        fields = ("username", "display_name")


@admin.register(User)
class PlayerAdmin(UserAdmin):
    add_form = PlayerCreationForm
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": ("username", "display_name", "usable_password", "password1", "password2"),
            },
        ),
    )
    list_display = ("username", "display_name", "email", "is_suspended", "is_staff", "date_joined")
    list_filter = ("is_suspended", *UserAdmin.list_filter)
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *UserAdmin.fieldsets,
        ("Player", {"fields": ("display_name", "is_suspended", "suspension_reason", "suspended_at")}),
    )
    # Suspension changes the boards: only the actions (which call the services) may change it.
    readonly_fields = ("is_suspended", "suspension_reason", "suspended_at")
    action_form = SuspendActionForm
    actions = ("suspend_players", "unsuspend_players")

    @admin.action(description="Suspend the selected players (they leave every board)")
    def suspend_players(self, request, queryset):
        reason = request.POST.get("reason", "")
        for user in queryset:
            user_suspend(user=user, reason=reason)
        self.message_user(request, f"Suspended {queryset.count()} player(s).", messages.SUCCESS)

    @admin.action(description="Lift the suspension of the selected players")
    def unsuspend_players(self, request, queryset):
        for user in queryset:
            user_unsuspend(user=user)
        self.message_user(
            request, f"Lifted the suspension of {queryset.count()} player(s).", messages.SUCCESS
        )

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and {"display_name", "username"} & set(form.changed_data):
            # The boards keep names beside them (a names listener): the new one shows at once.
            names = [form.initial.get("display_name", ""), form.initial.get("username", ""), obj.public_name]
            player_names_changed(user_id=obj.pk, names=names)

    # Deleting from the admin goes through the same service as the player's own deletion.
    def delete_model(self, request, obj):
        user_delete(user=obj)

    def delete_queryset(self, request, queryset):
        for user in queryset:
            user_delete(user=user)
