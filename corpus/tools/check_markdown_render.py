#!/usr/bin/env python3
"""Renders tfwire's Markdown summaries of the hostile plans with cmark-gfm and checks the HTML.

Usage (from the repository root, after `cargo build -p tfwire-cli`):

    pip install cmarkgfm            # GitHub's renderer (cmark-gfm) with its extensions
    python3 corpus/tools/check_markdown_render.py [--chromium] [--screenshot PNG] [path/to/tfwire]

For every plan in corpus/hostile/ (and every --max-bytes stage) the summary is rendered as
GitHub renders comments: CommonMark plus the GFM extensions (tables, strikethrough, autolink,
tagfilter, task lists), raw HTML kept. The check fails when the HTML holds a link (`<a`), an
image (`<img`), any element the summary does not write itself, or the text `EVIL` / `PWNED`
/ `evil.example` outside a `<code>` element (mentions and `#1` references are made by GitHub
from text outside code; none is left outside code). Exit status 0: all clean.

With `--chromium`, the HTML is also loaded in headless Chromium (`apt-get install chromium`;
`$CHROMIUM` names another binary), one page per plan holding every stage, and the same checks
run on the DOM Chromium builds (`--dump-dom`), which is what a browser makes of the page after
its error recovery: no `<a>`, no `<img>`, no element but the page's own and the summary's,
the markers only inside `<code>`. The page forbids every load and script
(`Content-Security-Policy: default-src 'none'`), so nothing leaves the machine even if the
check would fail. `--screenshot PNG` also saves a picture of the first page, to look at.
"""

import html
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile

import cmarkgfm
from cmarkgfm.cmark import Options

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
TFWIRE = os.path.join(ROOT, "target", "debug", "tfwire")

# The elements a summary renders to: its own HTML (details, summary, strong, code, sub) and
# what its Markdown makes (a heading, paragraphs, emphasis, tables).
ALLOWED = {
    "details", "summary", "strong", "code", "sub", "h3", "p", "em",
    "table", "thead", "tbody", "tr", "th", "td",
}
MARKERS = ("EVIL", "PWNED", "evil.example", "http", "www.", "@")
# What the page around the summaries adds (for the Chromium check).
PAGE = {"html", "head", "meta", "title", "style", "body", "section", "h2"}


class Checker(html.parser.HTMLParser):
    def __init__(self, allowed=ALLOWED, page=False):
        super().__init__(convert_charrefs=True)
        self.allowed = allowed
        self.page = page
        self.problems = []
        self.code = 0
        self.head = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("head", "h2"):
            self.head += 1
        if self.page and tag == "meta" and self.head == 0:
            self.problems.append(f"element <meta {attrs}> outside the page's head")
        if tag not in self.allowed:
            self.problems.append(f"element <{tag} {attrs}>")
        if tag == "code":
            self.code += 1

    def handle_endtag(self, tag):
        if tag in ("head", "h2"):
            self.head -= 1
        if tag not in self.allowed:
            self.problems.append(f"element </{tag}>")
        if tag == "code":
            self.code -= 1

    def handle_comment(self, data):
        self.problems.append(f"comment <!--{data}-->")

    def handle_data(self, data):
        if self.code == 0 and self.head == 0:
            for m in MARKERS:
                if m in data:
                    self.problems.append(f"{m!r} outside code: {data!r}")


def render(md):
    return cmarkgfm.github_flavored_markdown_to_html(md, options=Options.CMARK_OPT_UNSAFE)


CSS = """
body { font: 14px sans-serif; max-width: 1000px; margin: 16px; }
table { border-collapse: collapse; } th, td { border: 1px solid #d0d7de; padding: 4px 8px; }
code { background: #eff1f3; padding: 1px 4px; border-radius: 4px; font-size: 85%; }
section { border-top: 3px solid #888; margin-top: 16px; }
"""


def page(name, stages):
    """One HTML page holding the rendered summaries of one plan (every stage)."""
    parts = [
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\">",
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'\">",
        f"<title>{html.escape(name)}</title><style>{CSS}</style></head><body>",
    ]
    for extra, rendered in stages:
        parts.append(f"<section><h2>{html.escape(name)} {html.escape(' '.join(extra))}</h2>")
        parts.append(rendered)
        parts.append("</section>")
    parts.append("</body></html>")
    return "".join(parts)


def chromium(binary, path, screenshot=None):
    """The DOM headless Chromium builds from the page at `path` (or a screenshot of it)."""
    profile = tempfile.mkdtemp(prefix="tfwire-chromium-")
    try:
        args = [
            binary, "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--no-first-run", f"--user-data-dir={profile}",
        ]
        if screenshot:
            args += [f"--screenshot={screenshot}", "--window-size=1100,1400"]
        else:
            args.append("--dump-dom")
        out = subprocess.run(
            args + ["file://" + os.path.abspath(path)], capture_output=True, timeout=300
        )
        assert out.returncode == 0, (args, out.stderr.decode("utf-8", "replace")[-2000:])
        return out.stdout.decode("utf-8")
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def main():
    argv = sys.argv[1:]
    use_chromium = "--chromium" in argv
    argv = [a for a in argv if a != "--chromium"]
    screenshot = None
    if "--screenshot" in argv:
        i = argv.index("--screenshot")
        screenshot = argv[i + 1]
        del argv[i : i + 2]
        use_chromium = True
    tfwire = argv[0] if argv else TFWIRE
    browser = os.environ.get("CHROMIUM") or shutil.which("chromium") or "chromium"
    hostile = os.path.join(ROOT, "corpus", "hostile")
    checked = 0
    failed = 0
    pages = 0
    workdir = tempfile.mkdtemp(prefix="tfwire-md-")
    for name in sorted(os.listdir(hostile)):
        path = os.path.join(hostile, name)
        try:
            doc = json.load(open(path, encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        if not isinstance(doc, dict) or "resource_changes" not in doc or name.startswith("error-"):
            continue
        stages = []
        for extra in ([], ["--max-bytes", "300"], ["--max-bytes", "1000"], ["--max-bytes", "4000"]):
            args = [tfwire, "plan", "summary", "--format", "markdown", *extra, path]
            out = subprocess.run(args, capture_output=True)
            if out.returncode == 2:
                continue  # a budget too small for even the totals
            assert out.returncode == 0, (args, out.stderr)
            rendered = render(out.stdout.decode("utf-8"))
            stages.append((extra, rendered))
            checker = Checker()
            checker.feed(rendered)
            checked += 1
            if checker.problems:
                failed += 1
                print(f"FAIL {name} {extra}:")
                for p in checker.problems[:20]:
                    print("   ", p)
        if use_chromium and stages:
            page_path = os.path.join(workdir, name + ".html")
            with open(page_path, "w", encoding="utf-8") as f:
                f.write(page(name, stages))
            dom = chromium(browser, page_path)
            checker = Checker(ALLOWED | PAGE, page=True)
            checker.feed(dom)
            checked += 1
            pages += 1
            if "<section>" not in dom or dom.count("<section>") != len(stages):
                checker.problems.append("the DOM does not hold one section per stage")
            if checker.problems:
                failed += 1
                print(f"FAIL {name} (Chromium DOM):")
                for p in checker.problems[:20]:
                    print("   ", p)
            if screenshot and pages == 1:
                chromium(browser, page_path, screenshot=os.path.abspath(screenshot))
                print(f"screenshot of {name}: {screenshot}")
    shutil.rmtree(workdir, ignore_errors=True)
    print(f"{checked - failed} passed, {failed} failed" + (f" ({pages} Chromium pages)" if use_chromium else ""))
    return 1 if failed or not checked or (use_chromium and not pages) else 0


if __name__ == "__main__":
    sys.exit(main())
