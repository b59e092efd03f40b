"""The header's account links: each brings the player back to the page they left."""

from urllib.parse import quote

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def next_here(context) -> str:
    """`next=<this page>` for a sign-in, sign-up or sign-out link; the game from account pages."""
    request = context.get("request")
    path = request.get_full_path() if request is not None else "/"
    if path.startswith("/accounts/"):
        path = "/"
    return "next=" + quote(path, safe="/")
