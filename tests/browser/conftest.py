"""A real Chromium, Debian's (``apt-get install chromium``; ``scripts/setup.sh`` installs it when
missing as root), driven by Playwright through ``executable_path``: no browser is downloaded.
``$RT4CHART_CHROMIUM`` names another binary. The tests here are marked ``browser``; the fast unit
run leaves them out."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from audit_samples import audit_rows, runs, verifier  # noqa: F401 - fixtures


def chromium_path() -> str:
    path = os.environ.get("RT4CHART_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        pytest.fail("no Chromium: `apt-get install -y chromium` (scripts/setup.sh does it as root), "
                    "or set $RT4CHART_CHROMIUM")
    return path


# per module, not per session: a running sync Playwright holds an event loop in the main thread,
# and every later test that starts one of its own (pytest-asyncio, asyncio.run) would fail
@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail('Playwright is not installed: pip install "rt4chart-plugins[test]"')
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        yield b
        b.close()


@dataclass
class Opened:
    """A page with what it did: dialogs it opened, requests it made, errors it raised."""

    page: object
    dialogs: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@pytest.fixture
def open_page(browser):
    contexts = []

    def open_(path: Path, *, javascript: bool = True, fragment: str = "", wait: bool = False, **options) -> Opened:
        """``options``: the browser context's (``color_scheme``, ``viewport``); ``wait``: until the
        page's script is ready (its index decoded, the first page drawn)."""
        ctx = browser.new_context(java_script_enabled=javascript, **{"viewport": {"width": 1200, "height": 900},
                                                                     **options})
        contexts.append(ctx)
        page = ctx.new_page()
        seen = Opened(page)
        page.on("dialog", lambda d: (seen.dialogs.append(d.message), d.dismiss()))
        page.on("request", lambda r: seen.requests.append(r.url))
        page.on("pageerror", lambda exc: seen.errors.append(str(exc)))
        page.on("console", lambda m: seen.errors.append(m.text) if m.type == "error" else None)
        page.goto(path.resolve().as_uri() + fragment)
        if wait:
            page.wait_for_selector("html.ready", state="attached")
        return seen

    yield open_
    for ctx in contexts:
        ctx.close()
