#!/usr/bin/env python3
"""Opens each module's documentation landing page in headless Chromium and checks what it shows.

    scripts/docs-render.py --chromium <binary> --profile <dir> --base-url <url>
                           --sources <Sources dir> <Module>...

For each module, loads <base-url>/<Module>/documentation/<module>/ (the static site scripts/docs
builds, served over HTTP because the page fetches its content as JSON), lets the page's
scripts run, and reads the rendered DOM. It passes when the DOM has the module's title as its
heading and, as headings, every `### ` topic group of the catalog's landing page
(Sources/<Module>/<Module>.docc/<Module>.md). A page that stayed a blank shell (the JSON did
not load, the scripts failed) has neither, so it fails.
"""

import argparse
import html
import re
import subprocess
import sys
from pathlib import Path


def topic_groups(landing_page):
    """The `### Group` headings under `## Topics` in a landing page's Markdown."""
    groups = []
    in_topics = False
    for line in landing_page.read_text().splitlines():
        if line.startswith("## "):
            in_topics = line.strip() == "## Topics"
        elif in_topics and line.startswith("### "):
            groups.append(line[4:].strip())
    return groups


def headings(dom):
    """The text of every h1 to h3 element of the rendered DOM, tags and spacing removed."""
    found = []
    for match in re.finditer(r"<h([1-3])\b[^>]*>(.*?)</h\1>", dom, re.S):
        text = html.unescape(re.sub(r"<[^>]+>", "", match.group(2)))
        found.append((int(match.group(1)), " ".join(text.split())))
    return found


def render(chromium, profile, url):
    """The DOM of `url` after its scripts ran, as Chromium serialises it."""
    command = [
        chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--no-first-run", f"--user-data-dir={profile}", "--virtual-time-budget=10000",
        "--dump-dom", url,
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"chromium exited {result.returncode}: {result.stderr[-2000:]}")
    return result.stdout


def check(module, arguments):
    """Problems with one module's landing page, as lines; none when it renders as it should."""
    landing = Path(arguments.sources) / module / f"{module}.docc" / f"{module}.md"
    groups = topic_groups(landing)
    if not groups:
        return [f"{landing} has no `### ` topic group under `## Topics`"]
    url = f"{arguments.base_url}/{module}/documentation/{module.lower()}/"
    dom = render(arguments.chromium, arguments.profile, url)
    shown = headings(dom)
    texts = [text for _, text in shown]
    problems = []
    if (1, module) not in shown:
        problems.append(f"no <h1>{module}</h1>")
    problems += [f"no topic group heading {group!r}" for group in groups if group not in texts]
    summary = f"{module}: {url}: title {module!r}, {len(groups)} topic groups"
    if problems:
        print(f"FAIL {summary}", file=sys.stderr)
        print(f"  headings seen: {texts}", file=sys.stderr)
        return [f"{module}: {problem}" for problem in problems]
    print(f"ok   {summary}: {', '.join(groups)}")
    return []


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--profile", required=True)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--sources", required=True)
    parser.add_argument("modules", nargs="+")
    arguments = parser.parse_args()
    problems = []
    for module in arguments.modules:
        problems += check(module, arguments)
    for problem in problems:
        print(f"docs-render: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
