"""A headless Chromium driven by Playwright: the machine's own browser (``/usr/bin/chromium``),
never one Playwright downloads. Where it is missing the browser tests are skipped, unless
``KINGS_REQUIRE_BROWSER=1`` (CI sets it): then they fail, so CI cannot pass without a browser."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"  # screenshots (gitignored)
CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    found = os.environ.get("KINGS_CHROMIUM") or next((p for p in CANDIDATES if Path(p).exists()), None)
    return found or shutil.which("chromium")


def unavailable(reason: str) -> None:
    if os.environ.get("KINGS_REQUIRE_BROWSER"):
        pytest.fail(f"KINGS_REQUIRE_BROWSER is set but {reason}")
    pytest.skip(reason)


@pytest.fixture
async def browser_page() -> AsyncIterator[Any]:
    """A fresh page of a headless Chromium, 1100 pixels wide."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        unavailable("Playwright is not installed (pip install -e '.[test]')")
    path = chromium_path()
    if path is None:
        unavailable("Chromium is not installed (apt-get install chromium)")
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=path, args=ARGS)
        try:
            page = await browser.new_page(viewport={"width": 1100, "height": 900})
            yield page
        finally:
            await browser.close()


def screenshot_path(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"
