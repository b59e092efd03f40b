import re

import pytest
from playwright.sync_api import expect


@pytest.mark.browser
@pytest.mark.smoke
def test_play_page_renders_and_runs_its_script_under_the_csp(live_server, page, artifacts_dir):
    page.goto(f"{live_server.url}/")

    expect(page).to_have_title(re.compile("Yukon"))
    expect(page.get_by_role("heading", name="Yukon Solitaire")).to_be_visible()
    # app.js, a module from our own origin, ran: the policy allows the site's own scripts.
    expect(page.locator("[data-app-status]")).to_have_attribute("data-app-status", "ready")
    page.screenshot(path=artifacts_dir / "smoke-play.png", full_page=True)


@pytest.mark.browser
def test_an_inline_script_is_blocked_and_reported(live_server, page, page_problems):
    page.goto(f"{live_server.url}/")

    ran = page.evaluate(
        """() => {
            window.inlineRan = false;
            const script = document.createElement("script");
            script.textContent = "window.inlineRan = true";
            document.body.append(script);
            return new Promise((resolve) => setTimeout(() => resolve(window.inlineRan), 50));
        }"""
    )

    assert ran is False
    assert any(problem.startswith("CSP") and "script-src" in problem for problem in page_problems)
    page_problems.clear()  # expected here; any other test would fail on it


@pytest.mark.browser
def test_api_docs_are_served_from_this_site(live_server, page):
    page.goto(f"{live_server.url}/api/docs/")

    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Yukon Online API")
