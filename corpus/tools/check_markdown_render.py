#!/usr/bin/env python3
"""Renders tfwire's Markdown summaries of the hostile plans with cmark-gfm and checks the HTML.

Usage (from the repository root, after `cargo build -p tfwire-cli`):

    pip install cmarkgfm            # GitHub's renderer (cmark-gfm) with its extensions
    python3 corpus/tools/check_markdown_render.py [path/to/tfwire]

For every plan in corpus/hostile/ (and every --max-bytes stage) the summary is rendered as
GitHub renders comments: CommonMark plus the GFM extensions (tables, strikethrough, autolink,
tagfilter, task lists), raw HTML kept. The check fails when the HTML holds a link (`<a`), an
image (`<img`), any element the summary does not write itself, or the text `EVIL` / `PWNED`
/ `evil.example` outside a `<code>` element (mentions and `#1` references are made by GitHub
from text outside code; none is left outside code). Exit status 0: all clean.
"""

import html.parser
import json
import os
import subprocess
import sys

import cmarkgfm
from cmarkgfm.cmark import Options

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
TFWIRE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "debug", "tfwire")

# The elements a summary renders to: its own HTML (details, summary, strong, code, sub) and
# what its Markdown makes (a heading, paragraphs, emphasis, tables).
ALLOWED = {
    "details", "summary", "strong", "code", "sub", "h3", "p", "em",
    "table", "thead", "tbody", "tr", "th", "td",
}
MARKERS = ("EVIL", "PWNED", "evil.example", "http", "www.", "@")


class Checker(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems = []
        self.code = 0

    def handle_starttag(self, tag, attrs):
        if tag not in ALLOWED:
            self.problems.append(f"element <{tag} {attrs}>")
        if tag == "code":
            self.code += 1

    def handle_endtag(self, tag):
        if tag not in ALLOWED:
            self.problems.append(f"element </{tag}>")
        if tag == "code":
            self.code -= 1

    def handle_comment(self, data):
        self.problems.append(f"comment <!--{data}-->")

    def handle_data(self, data):
        if self.code == 0:
            for m in MARKERS:
                if m in data:
                    self.problems.append(f"{m!r} outside code: {data!r}")


def render(md):
    return cmarkgfm.github_flavored_markdown_to_html(md, options=Options.CMARK_OPT_UNSAFE)


def main():
    hostile = os.path.join(ROOT, "corpus", "hostile")
    checked = 0
    failed = 0
    for name in sorted(os.listdir(hostile)):
        path = os.path.join(hostile, name)
        try:
            doc = json.load(open(path, encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        if not isinstance(doc, dict) or "resource_changes" not in doc or name.startswith("error-"):
            continue
        for extra in ([], ["--max-bytes", "300"], ["--max-bytes", "1000"], ["--max-bytes", "4000"]):
            args = [TFWIRE, "plan", "summary", "--format", "markdown", *extra, path]
            out = subprocess.run(args, capture_output=True)
            if out.returncode == 2:
                continue  # a budget too small for even the totals
            assert out.returncode == 0, (args, out.stderr)
            checker = Checker()
            checker.feed(render(out.stdout.decode("utf-8")))
            checked += 1
            if checker.problems:
                failed += 1
                print(f"FAIL {name} {extra}:")
                for p in checker.problems[:20]:
                    print("   ", p)
    print(f"{checked - failed} passed, {failed} failed")
    return 1 if failed or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
