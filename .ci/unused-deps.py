#!/usr/bin/env python3
"""Fails when a crate declares a dependency its code never names.

    python3 .ci/unused-deps.py [MANIFEST...]     (default: every workspace member and fuzz/)

For each `Cargo.toml`, each dependency must be named (as `its_name` in Rust, after `-` becomes
`_`, or by the `package =` rename's key) somewhere in the sources that can use it:
`[dependencies]` in `src/`, `build.rs`, `tests/`, `benches/`, `examples/` and the manifest's
`[[bin]]`/`[[bench]]`/`[[test]]` paths; `[dev-dependencies]` in all but `src/`'s non-test
code (the whole tree, to keep the check simple); `[build-dependencies]` in `build.rs`. A
dependency kept for its effect alone (a feature it selects, a backend) is listed, with the
reason in a comment, under `[package.metadata.cargo-machete] ignored = [...]` (the key
cargo-machete reads, so either tool gives the same answer). A feature that enables an
optional dependency (`dep:name` or `name/feature`) counts as a use only if the code names it
too.

The check is textual, like cargo-machete's: a name in a comment counts. It needs no build and
no network, and runs in about a second.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def members() -> list[Path]:
    ws = tomllib.loads((ROOT / "Cargo.toml").read_text())
    out = [ROOT / m / "Cargo.toml" for m in ws["workspace"]["members"]]
    if (ROOT / "fuzz/Cargo.toml").exists():
        out.append(ROOT / "fuzz/Cargo.toml")
    return out


def sources(crate: Path, manifest: dict, kind: str) -> str:
    if kind == "build":
        build = crate / manifest.get("package", {}).get("build", "build.rs")
        return build.read_text() if isinstance(build, Path) and build.exists() else ""
    roots = ["src", "tests", "benches", "examples", "fuzz_targets", "build.rs"]
    for section in ("bin", "bench", "test", "example"):
        for target in manifest.get(section, []):
            if "path" in target:
                roots.append(target["path"])
    text = []
    seen: set[Path] = set()
    for r in roots:
        p = crate / r
        files = [p] if p.is_file() else sorted(p.rglob("*.rs")) if p.is_dir() else []
        for f in files:
            if f not in seen:
                seen.add(f)
                text.append(f.read_text())
    return "\n".join(text)


def check(path: Path) -> list[str]:
    manifest = tomllib.loads(path.read_text())
    crate = path.parent
    ignored = set(manifest.get("package", {}).get("metadata", {}).get("cargo-machete", {}).get("ignored", []))
    problems = []
    for section, kind in (("dependencies", "normal"), ("dev-dependencies", "dev"),
                          ("build-dependencies", "build")):
        deps = manifest.get(section, {})
        if not deps:
            continue
        text = sources(crate, manifest, kind)
        for key in deps:
            if key in ignored:
                continue
            name = key.replace("-", "_")
            if not re.search(rf"\b{re.escape(name)}\b", text):
                problems.append(f"{path.relative_to(ROOT)}: [{section}] {key} is never named in the crate's code")
    return problems


def main() -> int:
    paths = [Path(p).resolve() for p in sys.argv[1:]] or members()
    problems = [p for path in paths for p in check(path)]
    for p in problems:
        print(p)
    print(f"unused-deps: {len(paths)} manifests, {len(problems)} unused dependencies")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
