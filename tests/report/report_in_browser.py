#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""report_in_browser.py GPUCONFORM RECORD OUTDIR: the acceptance check of `gpuconform report`
(issue 12): the HTML of RECORD references nothing on a network, holds at least one chart
per probe family present in the record, and headless Chromium renders it to a PNG that is
not blank. Exit 0 pass, 1 fail, 77 (ctest's skip) when no Chromium is installed."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def main():
    gpuconform, record, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    html = os.path.join(out, "report.html")
    subprocess.run([gpuconform, "report", record, "--html", html], check=True)
    text = open(html, encoding="utf-8").read()

    found = re.search(r".{0,60}https?:.{0,60}", text, re.IGNORECASE)
    if found:
        fail("the report references a network address: " + found.group(0))
    if re.search(r"<script|<link|@import|url\(", text, re.IGNORECASE):
        fail("the report loads something (script, link, @import or url())")

    families = set()
    for line in open(record, encoding="utf-8"):
        if not line.strip():
            continue
        j = json.loads(line)
        if j.get("record", "test") == "test" and "measured" in j:
            families.add(j["probe"].split(".")[0])
    if not families:
        fail(record + " holds no measured test line: pick a record with data")
    for f in sorted(families):
        if not re.search(r'<svg class="chart[^"]*" data-family="%s"' % re.escape(f), text):
            fail("no chart of the %s family, which the record holds" % f)
    print("no network reference; a chart for each of " + ", ".join(sorted(families)))

    browser = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
    if not browser:
        print("SKIP: no Chromium (Debian package 'chromium'): the report was not rendered in a browser")
        sys.exit(77)
    png = os.path.join(out, "report.png")
    if os.path.exists(png):
        os.remove(png)
    with tempfile.TemporaryDirectory() as profile:
        # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
               "--user-data-dir=" + profile, "--screenshot=" + png, "--window-size=1400,3000",
               "file://" + os.path.abspath(html)]
        try:
            run = subprocess.run(cmd, timeout=120, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        except subprocess.TimeoutExpired:
            fail("Chromium did not finish the screenshot within 120 s")
    if not os.path.exists(png) or os.path.getsize(png) == 0:
        fail("Chromium (exit %d) wrote no screenshot: %s" % (run.returncode, run.stderr[-2000:]))
    if subprocess.run([sys.executable, os.path.join(HERE, "png_not_blank.py"), png]).returncode != 0:
        fail("the screenshot is blank: the browser drew nothing")
    print("rendered by %s into %s" % (browser, png))


if __name__ == "__main__":
    main()
