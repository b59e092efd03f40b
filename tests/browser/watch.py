"""What the browser tests watch on every page they open: Content-Security-Policy violations,
uncaught errors, and requests outside this machine (the game must work offline)."""

from __future__ import annotations

from urllib.parse import urlparse

from playwright.sync_api import BrowserContext

_REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.__reportCspViolation(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline code"}` +
    ` (${event.sourceFile || document.location.href}:${event.lineNumber})`
  );
});
"""
LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}


def watch_for_problems(context: BrowserContext, problems: list[str], label: str = "") -> None:
    """Note in `problems` what the pages of `context` report: CSP violations, uncaught errors,
    requests outside this machine (refused). `label` names the context (a second device)."""
    prefix = f"{label} " if label else ""
    context.expose_function("__reportCspViolation", lambda text: problems.append(f"{prefix}CSP: {text}"))
    context.add_init_script(_REPORT_CSP_VIOLATIONS)
    context.on("weberror", lambda error: problems.append(f"{prefix}uncaught error: {error.error}"))

    def note_csp_console_error(message) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            problems.append(f"{prefix}CSP (console): {message.text}")

    context.on("console", note_csp_console_error)

    def refuse_outside_requests(route) -> None:
        url = urlparse(route.request.url)
        if url.scheme in ("http", "https", "ws", "wss") and url.hostname not in LOCAL_HOSTS:
            problems.append(f"{prefix}request outside this machine: {route.request.url}")
            route.abort()
        else:
            route.continue_()

    context.route("**/*", refuse_outside_requests)


def let_pages_report(context: BrowserContext) -> None:
    """A round trip to each open page, so that events it already sent reach the listeners."""
    for page in context.pages:
        if not page.is_closed():
            try:
                page.evaluate("() => new Promise((resolve) => setTimeout(resolve, 0))")
            except Exception:  # a page navigating or closing away has nothing more to say
                pass
