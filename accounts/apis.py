"""The account API: `/api/account/` — read it, change the display name or the language, delete the account;
`/api/session/` — who is signed in, asked by every page (200 signed out too)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import logout
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import Throttled
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.lockout import PasswordTriesExhausted, password_confirmed, password_tries_message
from accounts.models import NAME_RULE
from accounts.services import user_delete, user_display_name_set, user_language_set
from yukon_site.api_input import StrictCharField
from yukon_site.api_schema import NOT_SIGNED_IN, standard_refusal


class AccountOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.EmailField()
    display_name = serializers.CharField()
    date_joined = serializers.DateTimeField()
    is_suspended = serializers.BooleanField()
    suspension_reason = serializers.CharField()
    language = serializers.CharField(help_text="The player's language (en, ms, hi, tl); empty: no choice.")


class AccountApi(APIView):
    """One URL, three operations: GET reads, PATCH changes the display name or language, DELETE deletes."""

    class AccountUpdateInputSerializer(serializers.Serializer):
        display_name = StrictCharField(max_length=20, required=False, help_text=NAME_RULE)
        language = serializers.ChoiceField(
            choices=[code for code, _name in settings.LANGUAGES],
            allow_blank=True,
            required=False,
            help_text="A language of the site; empty forgets the choice.",
        )

        def validate(self, attrs):
            if not attrs:
                raise serializers.ValidationError("Send display_name, language or both.")
            return attrs

    class AccountDeleteInputSerializer(serializers.Serializer):
        password = StrictCharField(help_text="The account's password, as a confirmation.")

    @extend_schema(
        operation_id="account_detail",
        summary="The signed-in player's account",
        responses={200: AccountOutputSerializer, 403: NOT_SIGNED_IN},
    )
    def get(self, request):
        return Response(AccountOutputSerializer(request.user).data)

    @extend_schema(
        operation_id="account_update",
        summary="Change the display name or the language",
        request=AccountUpdateInputSerializer,
        responses={
            200: AccountOutputSerializer,
            400: OpenApiResponse(
                description="Malformed or taken display name, unsupported language, or nothing to change.",
                examples=[
                    OpenApiExample("taken", value={"display_name": ["That display name is taken."]}),
                    OpenApiExample("language", value={"language": ['"xx" is not a valid choice.']}),
                ],
            ),
            403: NOT_SIGNED_IN,
        },
    )
    def patch(self, request):
        serializer = self.AccountUpdateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        changes, user = serializer.validated_data, request.user
        if "display_name" in changes:  # first: it is the one change that can still be refused
            try:
                user = user_display_name_set(user=user, display_name=changes["display_name"])
            except DjangoValidationError as error:
                raise serializers.ValidationError({"display_name": error.messages}) from None
        if "language" in changes:
            user = user_language_set(user=user, language=changes["language"])
        return Response(AccountOutputSerializer(user).data)

    @extend_schema(
        operation_id="account_delete",
        summary="Delete the account (password confirmation)",
        description="Removes personal data and leaderboard entries; results stay only as anonymous "
        "totals. Signs the session out.",
        request=AccountDeleteInputSerializer,
        responses={
            204: OpenApiResponse(description="Deleted and signed out."),
            400: OpenApiResponse(
                description="Missing or wrong password.",
                examples=[OpenApiExample("wrong", value={"password": ["That is not your password."]})],
            ),
            403: NOT_SIGNED_IN,
            429: OpenApiResponse(
                description="Too many password tries: 5 in 5 minutes (`throttled`, with `Retry-After`)."
            ),
            # OpenAPI 3.0 shows no body of a DELETE, so these are not added for it: listed here.
            413: standard_refusal("413"),
            415: standard_refusal("415"),
        },
    )
    def delete(self, request):
        serializer = self.AccountDeleteInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = request.user
        try:
            confirmed = password_confirmed(
                request._request, user=user, password=serializer.validated_data["password"]
            )
        except PasswordTriesExhausted as exhausted:
            refusal = Throttled(detail=password_tries_message(exhausted.seconds))
            refusal.wait = exhausted.seconds  # Retry-After, without DRF's sentence of seconds
            raise refusal from None
        if not confirmed:
            raise serializers.ValidationError({"password": ["That is not your password."]})
        user_delete(user=user)
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SessionApi(APIView):
    """Who is signed in, for any visitor. Every page asks it on load: a signed-out answer is a
    200 too, so that a page logs no error for an ordinary visitor (a 403 is logged as one)."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="session_detail",
        summary="Who is signed in: the account, or null when signed out",
        responses={200: inline_serializer("Session", {"account": AccountOutputSerializer(allow_null=True)})},
    )
    def get(self, request):
        signed_in = request.user.is_authenticated
        return Response({"account": AccountOutputSerializer(request.user).data if signed_in else None})
