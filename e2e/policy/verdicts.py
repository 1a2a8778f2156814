#!/usr/bin/env python3
"""Policy verdicts on the client's show -json document and on tfwire's, compared (called by e2e/policy/run.sh).

verdicts.py TFWIRE_BIN --conftest BIN --checkov BIN [--client tofu|terraform|both] [--scenario NAME]... [--messages]

For each scenario of corpus/real-client (OpenTofu) and corpus/real-client-terraform (Terraform): the client's
document is the committed plan.json (the client's `show -json plan.tfplan`, byte for byte); tfwire's is what
`TFWIRE_BIN show -json plan.tfplan --schemas schemas.json` writes. conftest runs the Rego policies of rego/ (every
namespace) on both, checkov the checks of checkov/ (framework terraform_plan). A verdict is, per policy, the set of
its messages (conftest: failures and warnings; checkov: resource, result, evaluated keys and the attributes checkov
saw); any difference exits 1. Prints a table: a row per policy, a column per scenario, each cell the client's
verdict (P: no failure; F<n>: n failures; W<n>: n warnings; -: the policy does not apply) followed by "=" when
tfwire's is the same and "!" when it is not.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPORA = {"tofu": "corpus/real-client", "terraform": "corpus/real-client-terraform"}
# Scenarios with deletions and replacements, prior_state, drift, sensitive values and variables, modules.
SCENARIOS = ["sensitive", "replace", "delete", "modules", "drift"]


def conftest_verdicts(conftest, docs):
    """{doc: {("conftest", namespace): sorted messages}} for the documents, in one conftest run."""
    proc = subprocess.run(
        [conftest, "test", "--no-color", "--all-namespaces", "--output", "json", "--policy", os.path.join(HERE, "rego"),
         *docs], capture_output=True, text=True)
    # conftest exits 1 when a policy fails: that is a verdict, not an error; anything else without JSON is one.
    try:
        results = json.loads(proc.stdout)
    except json.JSONDecodeError:
        sys.exit(f"verdicts.py: conftest exited {proc.returncode} without a JSON report:\n{proc.stderr}")
    out = {doc: {} for doc in docs}
    for r in results:
        ns = r["namespace"]
        if ns == "tfwire.lib":
            continue
        msgs = [("fail", f["msg"]) for f in r.get("failures") or []]
        msgs += [("warn", w["msg"]) for w in r.get("warnings") or []]
        out[os.path.abspath(r["filename"])][("conftest", ns)] = sorted(msgs)
    return out


def strip_file(v):
    """The attributes checkov saw, without the document's path (the documents live in different folders)."""
    if isinstance(v, dict):
        return {k: strip_file(x) for k, x in v.items() if k != "__file__"}
    if isinstance(v, list):
        return [strip_file(x) for x in v]
    return v


def checkov_verdicts(checkov, root, docs):
    """{doc: {("checkov", check_id): sorted results}} for the checks of checkov/ on every plan under `root`, in one
    checkov run (checkov's start-up is most of its time)."""
    proc = subprocess.run(
        [checkov, "-d", root, "--framework", "terraform_plan", "--external-checks-dir", os.path.join(HERE, "checkov"),
         "--output", "json", "--soft-fail", "--skip-download", "--compact"],
        capture_output=True, text=True, env={**os.environ, "BC_SKIP_MAPPING": "TRUE"})
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        sys.exit(f"verdicts.py: checkov exited {proc.returncode} without a JSON report:\n{proc.stderr}")
    if isinstance(report, list):
        sys.exit(f"verdicts.py: checkov: expected one framework's report, found {len(report)}")
    out = {doc: {} for doc in docs}
    for key in ("passed_checks", "failed_checks", "skipped_checks"):
        for c in report.get("results", {}).get(key, []):
            doc = os.path.join(root, c["file_path"].lstrip("/"))
            if doc not in out:
                sys.exit(f"verdicts.py: checkov reports on {c['file_path']}, not one of the documents")
            entry = json.dumps({
                "resource": c["resource"],
                "result": c["check_result"]["result"],
                "evaluated_keys": c["check_result"].get("evaluated_keys"),
                "entity": strip_file(c["check_result"].get("entity")),
                "lines": c.get("file_line_range"),
            }, sort_keys=True)
            verdict = "fail" if key == "failed_checks" else "pass"
            out[doc].setdefault(("checkov", c["check_id"]), []).append((verdict, entry))
    parsing = report.get("summary", {}).get("parsing_errors")
    if parsing:
        sys.exit(f"verdicts.py: checkov could not parse {parsing}")
    return {doc: {k: sorted(v) for k, v in d.items()} for doc, d in out.items()}


def cell(msgs):
    if msgs is None:
        return "-"
    fails = sum(1 for kind, _ in msgs if kind == "fail")
    warns = sum(1 for kind, _ in msgs if kind == "warn")
    s = f"F{fails}" if fails else "P"
    return s + (f"W{warns}" if warns else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tfwire")
    ap.add_argument("--conftest", required=True)
    ap.add_argument("--checkov", required=True)
    ap.add_argument("--client", choices=["tofu", "terraform", "both"], default="both")
    ap.add_argument("--scenario", action="append")
    ap.add_argument("--messages", action="store_true", help="print the client documents' failures and warnings")
    args = ap.parse_args()
    clients = ["tofu", "terraform"] if args.client == "both" else [args.client]
    scenarios = args.scenario or SCENARIOS

    columns = []  # (label, client verdicts, tfwire verdicts, identical bytes)
    problems = []
    tmp = tempfile.mkdtemp(prefix="tfwire-policy-")
    try:
        pairs = []  # (label, client document, tfwire document)
        for client in clients:
            for name in scenarios:
                sdir = os.path.join(ROOT, CORPORA[client], name)
                label = f"{'tf' if client == 'terraform' else 'tofu'}/{name}"
                if not os.path.exists(os.path.join(sdir, "plan.tfplan")):
                    sys.exit(f"verdicts.py: {sdir} has no plan.tfplan")
                docs = []
                for side in ("client", "tfwire"):
                    os.makedirs(os.path.join(tmp, side, client, name))
                    docs.append(os.path.join(tmp, side, client, name, "plan.json"))
                shutil.copyfile(os.path.join(sdir, "plan.json"), docs[0])
                with open(docs[1], "wb") as f:
                    proc = subprocess.run(
                        [args.tfwire, "show", "-json", os.path.join(sdir, "plan.tfplan"),
                         "--schemas", os.path.join(sdir, "schemas.json")],
                        stdout=f, stderr=subprocess.PIPE)
                if proc.returncode != 0:
                    problems.append(f"{label}: {args.tfwire} show -json exited {proc.returncode}: "
                                    f"{proc.stderr.decode(errors='replace').strip()}")
                    os.remove(docs[1])
                    continue
                pairs.append((label, *docs))
        all_docs = [d for _, a, b in pairs for d in (a, b)]
        verdicts = conftest_verdicts(args.conftest, all_docs) if all_docs else {}
        for doc, v in checkov_verdicts(args.checkov, tmp, all_docs).items() if all_docs else ():
            verdicts[doc].update(v)
        for label, client_doc, tfwire_doc in pairs:
            with open(client_doc, "rb") as a, open(tfwire_doc, "rb") as b:
                identical = a.read() == b.read()
            cv, tv = verdicts[client_doc], verdicts[tfwire_doc]
            columns.append((label, cv, tv, identical))
            for key in sorted(set(cv) | set(tv)):
                if cv.get(key) != tv.get(key):
                    problems.append(f"{label}: {key[0]} {key[1]}: client {cell(cv.get(key))} {cv.get(key)}\n"
                                    f"    tfwire {cell(tv.get(key))} {tv.get(key)}")
            if args.messages:
                for key in sorted(cv):
                    for kind, msg in cv[key]:
                        if kind != "pass":
                            print(f"{label}: {key[0]} {key[1]}: {kind}: {msg[:300]}")
    finally:
        shutil.rmtree(tmp)

    policies = sorted({k for _, cv, tv, _ in columns for k in list(cv) + list(tv)})
    width = max([len(f"{t} {p}") for t, p in policies] + [6])
    print(f"{'policy':<{width}} " + " ".join(f"{label:>16}" for label, *_ in columns))
    for key in policies:
        cells = []
        for _, cv, tv, _ in columns:
            cells.append(f"{cell(cv.get(key)) + ('=' if cv.get(key) == tv.get(key) else '!'):>16}")
        print(f"{key[0] + ' ' + key[1]:<{width}} " + " ".join(cells))
    print(f"{'bytes':<{width}} " + " ".join(f"{'identical' if same else 'differ':>16}" for *_, same in columns))
    fails = sum(1 for _, cv, _, _ in columns for v in cv.values() if any(k == "fail" for k, _ in v))
    passes = sum(1 for _, cv, _, _ in columns for v in cv.values() if not any(k == "fail" for k, _ in v))
    print(f"client documents: {passes} policy verdicts pass, {fails} fail, over {len(columns)} scenarios")
    if problems:
        print("\nverdicts differ:", file=sys.stderr)
        for p in problems:
            print("  " + p, file=sys.stderr)
        sys.exit(1)
    if not columns:
        sys.exit("verdicts.py: no scenario compared")
    if fails == 0 or passes == 0:
        sys.exit("verdicts.py: the policies gave only one kind of verdict on the client documents")
    print(f"{len(columns)} scenarios: the same verdicts on tfwire's documents as on the client's")


if __name__ == "__main__":
    main()
