#!/usr/bin/env python3
"""Times `tfwire plan summary` of a binary plan file against `tofu show -json` of the same
file (what a CI job runs today to read one), process wall time, same run, interleaved.

    python3 benches/planfile.py [--tofu PATH] [--tfwire PATH] [--resources 500] [--runs 15]

The plan is made here with OpenTofu's builtin provider (no plugin needed): RESOURCES
`terraform_data` instances (half with `count`, half with `for_each`, each with an object
input of a few attributes) in a fresh working directory under target/tfwire-benches-data/.
`tofu show -json` runs in that (initialised) directory, as it must; tfwire needs only the
file. The answer is checked before anything is timed: tfwire's summary of plan.tfplan must
equal its summary of `tofu show -json`'s output, and count RESOURCES creates.
Needs a release build of tfwire (`cargo build --release -p tfwire-cli`).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tofu", default=os.environ.get("TOFU", "tofu"))
    ap.add_argument("--tfwire", default=os.path.join(ROOT, "target/release/tfwire"))
    ap.add_argument("--resources", type=int, default=500)
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    n = args.resources
    work = os.path.join(ROOT, "target/tfwire-benches-data", f"planfile-{n}")
    env = dict(os.environ, TF_IN_AUTOMATION="1", CHECKPOINT_DISABLE="1", TF_CLI_CONFIG_FILE="/dev/null")
    plan = os.path.join(work, "plan.tfplan")
    if not os.path.exists(plan):
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        half = n // 2
        keys = ", ".join(f'"k{i:04d}"' for i in range(n - half))
        with open(os.path.join(work, "main.tf"), "w") as f:
            f.write(
                f"""
resource "terraform_data" "counted" {{
  count = {half}
  input = {{ name = "counted-${{count.index}}", index = count.index,
            tags = {{ env = "prod", team = "platform" }}, ports = [80, 443] }}
}}

resource "terraform_data" "each" {{
  for_each = toset([{keys}])
  input = {{ name = each.key, tags = {{ env = "prod" }}, enabled = true }}
  triggers_replace = [each.key]
}}
"""
            )
        for cmd in (["init", "-input=false"], ["plan", "-input=false", "-lock=false", "-out=plan.tfplan"]):
            subprocess.run([args.tofu, *cmd], cwd=work, env=env, check=True, stdout=subprocess.DEVNULL)

    def run(cmd, cwd=None):
        return subprocess.run(cmd, cwd=cwd, env=env, check=True, capture_output=True).stdout

    # The answer first.
    show_json = os.path.join(work, "plan.json")
    with open(show_json, "wb") as f:
        f.write(run([args.tofu, "show", "-json", "plan.tfplan"], cwd=work))
    ours = run([args.tfwire, "plan", "summary", "--format", "json", plan])
    theirs = run([args.tfwire, "plan", "summary", "--format", "json", show_json])
    if ours != theirs:
        sys.exit("the summaries of plan.tfplan and of tofu show -json differ")
    creates = json.loads(ours)["counts"]["create"]
    if creates != n:
        sys.exit(f"expected {n} creates, found {creates}")

    commands = {
        "tfwire plan summary plan.tfplan": ([args.tfwire, "plan", "summary", "--format", "json", plan], None),
        "tofu show -json plan.tfplan": ([args.tofu, "show", "-json", "plan.tfplan"], work),
    }
    times = {k: [] for k in commands}
    for _ in range(args.runs):
        for name, (cmd, cwd) in commands.items():
            t = time.perf_counter()
            run(cmd, cwd)
            times[name].append(time.perf_counter() - t)
    size = os.path.getsize(plan)
    print(f"plan file: {n} resource changes, {size} bytes; {args.runs} runs each, interleaved")
    print("| command | median | min |")
    print("|---|---:|---:|")
    for name, ts in times.items():
        print(f"| `{name}` | {statistics.median(ts) * 1000:.1f} ms | {min(ts) * 1000:.1f} ms |")
    a = statistics.median(times["tofu show -json plan.tfplan"])
    b = statistics.median(times["tfwire plan summary plan.tfplan"])
    print(f"ratio (median): tfwire is {a / b:.0f}x faster than tofu show -json")


if __name__ == "__main__":
    main()
