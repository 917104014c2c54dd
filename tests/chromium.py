"""Headless Chromium for the tests that look at pages as a player's browser draws them (Debian's chromium and
chromium-driver, installed by ``make browser``). Set PBEM_SCREENSHOTS to a directory to keep screenshots."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="Chromium is not installed: run `make browser` (Debian's chromium and chromium-driver) for these tests",
)
"""Mark a test (or ``pytestmark`` a module) that drives Chromium."""


@contextlib.contextmanager
def chromium(width: int = 1500, height: int = 1000) -> Iterator[Any]:
    """A headless Chromium window of ``width`` x ``height`` pixels (a selenium driver), quit on leaving."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.binary_location = str(CHROMIUM)
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def shot(driver: Any, name: str) -> None:
    """Keep a screenshot of the window as ``name``.png in $PBEM_SCREENSHOTS, if set."""
    target = os.environ.get("PBEM_SCREENSHOTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(target) / f"{name}.png"))
