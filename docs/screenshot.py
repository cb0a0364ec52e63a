"""Regenerate docs/report-pod-small.png, the README's picture of the HTML report.

    .venv/bin/roce-cfg report examples/pod-small.yaml -o /tmp/report.html
    .venv/bin/python docs/screenshot.py /tmp/report.html docs/report-pod-small.png

Needs Debian's chromium (/usr/bin/chromium) and the dev extra (playwright).
"""

from __future__ import annotations

import shutil
import sys

from playwright.sync_api import sync_playwright


def main(page_file: str, png: str) -> None:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 760})
        page.goto("file://" + page_file)
        page.locator('#view g.sw[data-device="spine-1"]').click()
        page.screenshot(path=png)
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
