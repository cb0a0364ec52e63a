"""Regenerate docs/report-pod-small.png, the README's picture of the HTML report.

The browser test that measures the report takes this picture (1280x800, spine-1 selected) and
writes it here when asked:

    ROCE_CFG_UPDATE_PICTURE=1 .venv/bin/python -m pytest -q tests/test_report.py \\
        -k "readable and pod-small and 1280x800"

Or by hand, the same steps:

    .venv/bin/roce-cfg report examples/pod-small.yaml -o /tmp/report.html
    .venv/bin/python docs/screenshot.py /tmp/report.html docs/report-pod-small.png

Needs Debian's chromium (/usr/bin/chromium) and the dev extra (playwright).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright


def main(page_file: str, png: str) -> None:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(Path(page_file).resolve().as_uri())
        page.wait_for_selector('#status[data-ready="1"]', state="attached")
        page.locator('#view g.sw[data-device="spine-1"]').click()
        page.screenshot(path=png)
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
