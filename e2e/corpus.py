#!/usr/bin/env python3
"""Helpers of e2e/run.sh that are easier in Python than in shell.

corpus.py proto SRC DEST PROVIDER   collect the provider's captured DynamicValues into DEST with index.json
corpus.py manifest OUT E2E CLIENT [--skip NAME]... DIR...
                                    write OUT/MANIFEST.json of CLIENT (tofu or terraform) for the scenarios DIR...
                                    (entries of other scenarios already there are kept; --skip NAME removes one)
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys

# Which schema types the DynamicValue of each RPC: anything else is an error, so a new RPC is noticed.
RESOURCE_RPCS = {"ValidateResourceConfig", "UpgradeResourceState", "ReadResource", "PlanResourceChange",
                 "ApplyResourceChange", "ImportResourceState", "MoveResourceState"}
DATA_RPCS = {"ValidateDataResourceConfig", "ReadDataSource"}
PROVIDER_RPCS = {"ValidateProviderConfig", "ConfigureProvider"}
EPHEMERAL_RPCS = {"ValidateEphemeralResourceConfig", "OpenEphemeralResource", "RenewEphemeralResource",
                  "CloseEphemeralResource"}
LIST_RPCS = {"ValidateListResourceConfig", "ListResource"}
ACTION_RPCS = {"ValidateActionConfig", "PlanAction", "InvokeAction"}
# A captured file is {millisecond}_{RPC}_{MESSAGE}_{FIELD}.{ext}; MESSAGE is one of these (the longest that
# matches), FIELD the rest (which may hold "_": CallFunction's Arguments_0).
MESSAGES = ("Response_ImportedResource", "Request", "Response", "Event")


class MsgpackError(ValueError):
    pass


def msgpack_canonical(data):
    """The value of a MessagePack document with map entries sorted, as a string: equal for two encodings that
    differ only in the order of map entries (terraform-plugin-go writes maps in Go's random map order)."""
    pos = 0

    def take(n):
        nonlocal pos
        if pos + n > len(data):
            raise MsgpackError(f"truncated at byte {pos}")
        b = data[pos:pos + n]
        pos += n
        return b

    def uint(n):
        return int.from_bytes(take(n), "big")

    def value():
        t = take(1)[0]
        if t <= 0x7f:
            return ("i", t)
        if t >= 0xe0:
            return ("i", t - 0x100)
        if 0x80 <= t <= 0x8f:
            return mapping(t & 0x0f)
        if 0x90 <= t <= 0x9f:
            return array(t & 0x0f)
        if 0xa0 <= t <= 0xbf:
            return ("s", take(t & 0x1f))
        simple = {0xc0: ("nil",), 0xc2: ("b", False), 0xc3: ("b", True)}
        if t in simple:
            return simple[t]
        if t in (0xc4, 0xc5, 0xc6):
            return ("bin", take(uint(1 << (t - 0xc4))))
        if t in (0xc7, 0xc8, 0xc9):
            n = uint(1 << (t - 0xc7))
            typ = take(1)[0]
            return ("ext", typ, take(n))
        if t == 0xca:
            return ("f32", take(4))
        if t == 0xcb:
            return ("f64", take(8))
        if 0xcc <= t <= 0xcf:
            return ("i", uint(1 << (t - 0xcc)))
        if 0xd0 <= t <= 0xd3:
            n = 1 << (t - 0xd0)
            return ("i", int.from_bytes(take(n), "big", signed=True))
        if 0xd4 <= t <= 0xd8:
            typ = take(1)[0]
            return ("ext", typ, take(1 << (t - 0xd4)))
        if 0xd9 <= t <= 0xdb:
            return ("s", take(uint(1 << (t - 0xd9))))
        if t in (0xdc, 0xdd):
            return array(uint(2 if t == 0xdc else 4))
        if t in (0xde, 0xdf):
            return mapping(uint(2 if t == 0xde else 4))
        raise MsgpackError(f"byte 0x{t:02x} at {pos - 1} starts no value")

    def array(n):
        return ("a", tuple(value() for _ in range(n)))

    def mapping(n):
        items = [(value(), value()) for _ in range(n)]
        return ("m", tuple(sorted(items, key=repr)))

    v = value()
    if pos != len(data):
        raise MsgpackError(f"{len(data) - pos} bytes after the value")
    return repr(v)


def canonical(name, data):
    """What identifies a captured value: its bytes, or for MessagePack its value modulo map entry order."""
    return msgpack_canonical(data).encode() if name.endswith(".msgpack") else data


def schema_kind(rpc, message, field):
    if field == "ProviderMeta":
        return "provider_meta"
    if "Identity" in field or "Identity" in message:
        return "resource_identity"
    if rpc == "CallFunction":
        return "function"  # type_name: the function; field: Arguments_N (parameter N) or Result
    if rpc == "ListResource" and message == "Event" and field == "ResourceObject":
        return "resource"
    if rpc in LIST_RPCS:
        return "list_resource"
    if rpc in ACTION_RPCS:
        return "action"
    if rpc in RESOURCE_RPCS:
        return "resource"
    if rpc in DATA_RPCS:
        return "data_source"
    if rpc in PROVIDER_RPCS:
        return "provider"
    if rpc in EPHEMERAL_RPCS:
        return "ephemeral_resource"
    raise SystemExit(f"corpus.py: no schema known for {rpc} {message} {field}")


def proto(src, dest, provider):
    index_path = os.path.join(src, "index.jsonl")
    lines = []
    if os.path.exists(index_path):
        with open(index_path) as f:
            lines = [json.loads(l) for l in f if l.strip()]
    indexed = {l["file"] for l in lines}
    stray = sorted(n for n in os.listdir(src)
                   if not n.startswith(".") and n != "index.jsonl" and n not in indexed)
    if stray:
        raise SystemExit(f"corpus.py: {len(stray)} captured files no RPC claimed (first: {stray[0]})")
    entries = {}
    for l in lines:
        name = l["file"]
        base, dot, ext = name.rpartition(".")
        if ext not in ("msgpack", "json"):
            continue  # empty values (.empty) and private data (no extension) are not DynamicValues
        stamp, _, rest = base.partition("_")
        rpc = l["rpc"]
        if not rest.startswith(rpc + "_"):
            raise SystemExit(f"corpus.py: {name} was written during {rpc}")
        message = next((m for m in MESSAGES if rest[len(rpc) + 1:].startswith(m + "_")), None)
        if message is None:
            raise SystemExit(f"corpus.py: {name}: no message of {MESSAGES} after the RPC")
        field = rest[len(rpc) + 1 + len(message) + 1:]
        kind = schema_kind(rpc, message, field)
        type_name = "" if kind in ("provider", "provider_meta") else l.get("type_name", "")
        with open(os.path.join(src, name), "rb") as f:
            data = f.read()
        try:
            canon = canonical(name, data)
        except MsgpackError as err:
            raise SystemExit(f"corpus.py: {name}: not MessagePack: {err}")
        h = hashlib.sha256(kind.encode() + b"\0" + type_name.encode() + b"\0" + canon).hexdigest()[:16]
        out_name = f"{h}_{rest}.{ext}"
        e = entries.get(out_name)
        if e is None:
            e = entries[out_name] = {"file": out_name, "rpc": rpc, "message": message, "field": field,
                                     "encoding": ext, "schema": kind, "type_name": type_name,
                                     "phases": [], "count": 0, "_data": data, "_canon": canon}
        elif e["_canon"] != canon:
            raise SystemExit(f"corpus.py: hash collision on {out_name}")
        e["count"] += 1
        if l.get("phase") and l["phase"] not in e["phases"]:
            e["phases"].append(l["phase"])
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    files = []
    for name in sorted(entries):
        e = entries[name]
        with open(os.path.join(dest, name), "wb") as f:
            f.write(e.pop("_data"))
        del e["_canon"]
        e["phases"].sort()
        if not e["type_name"]:
            del e["type_name"]
        files.append(e)
    with open(os.path.join(dest, "index.json"), "w") as f:
        json.dump({"provider": provider, "files": files}, f, indent=1, sort_keys=True)
        f.write("\n")


def go_version(moddir, module):
    return subprocess.run(["go", "list", "-m", "-f", "{{.Version}}", module], cwd=moddir, check=True,
                          capture_output=True, text=True).stdout.strip()


FILES = {
    "main.tf": "copied from e2e/scenarios/<scenario>/ (with the scenario's other files: modules/, steps/, scenario.json)",
    "plan.tfplan": "tofu plan -input=false -lock=false -out=plan.tfplan [scenario.json plan_args], after the steps",
    "plan.json": "tofu show -json plan.tfplan",
    "plan.txt": "tofu show -no-color plan.tfplan",
    "schemas.json": "tofu providers schema -json",
    "state.json": "tofu show -json, after tofu apply plan.tfplan (only when scenario.json has apply true, the default)",
    "terraform.tfstate": "the local backend's state file after the last command",
    "state-list.txt": "tofu state list, after the last command",
    "state-show.txt": "tofu state show -no-color ADDRESS of every address of state-list.txt, each followed by a "
                      "blank line",
    "query.txt": "tofu query -no-color, after the apply (only when scenario.json has query_args)",
    "query.json": "tofu query -no-color -json [scenario.json query_args], after query.txt (only when scenario.json "
                  "has query_args)",
    "files/": "what scenario.json \"collect\" names (files the provider's resources or actions wrote in the working "
              "directory), after the last command",
    "proto/": "every DynamicValue the tfwire provider received or sent (TF_LOG_SDK_PROTO_DATA_DIR of "
              "terraform-plugin-go), deduplicated, named by content; proto/index.json maps each to its RPC, "
              "schema kind and type name",
}


def files_of(client):
    """FILES with the commands of the client (FILES names OpenTofu's)."""
    return {k: v.replace("tofu ", client + " ") for k, v in FILES.items()}


VOLATILE = [
    {"file": "plan.json", "path": "/timestamp", "why": "the time the plan was made"},
    {"file": "terraform.tfstate", "path": "/lineage", "why": "a random UUID given to each new state"},
    {"file": "terraform.tfstate", "path": "/serial",
     "why": "besides one snapshot per command, the local backend persists intermediate snapshots during an apply "
            "on a timer (the state hook's persist interval), each with the next serial: how many depends on timing"},
    {"file": "terraform.tfstate", "path": "/resources/*/instances/*/deposed",
     "why": "deposed objects get a random 8-hex-digit key"},
    {"file": "plan.json", "path": "/prior_state/values/root_module/resources/*/deposed_key", "why": "deposed key"},
    {"file": "plan.json", "path": "/resource_changes/*/deposed", "why": "deposed key"},
    {"file": "state.json", "path": "/values/root_module/resources/*/deposed_key", "why": "deposed key"},
    {"file": "plan.txt", "pattern": "deposed object [0-9a-f]{8}", "why": "deposed key"},
    {"file": "terraform.tfstate", "path": "/check_results", "unordered": True,
     "why": "OpenTofu writes check results in no fixed order"},
    {"file": "plan.json", "path": "/relevant_attributes", "unordered": True,
     "why": "OpenTofu lists relevant attributes in no fixed order"},
    {"file": "plan.json", "path": "/checks", "unordered": True, "why": "no fixed order"},
    {"file": "state.json", "path": "/checks", "unordered": True, "why": "no fixed order"},
    {"file": "query.json", "path": "/@timestamp", "jsonl": True, "why": "the time of each message"},
    {"file": "query.json", "jsonl": True, "unordered_lines": True,
     "why": "the list blocks are queried concurrently: their messages interleave in no fixed order"},
    {"file": "query.txt", "unordered_blocks": True,
     "why": "each list block's results are printed as the block completes, in no fixed order"},
    {"file": "files/generated.tf", "unordered_blocks": True,
     "why": "query -generate-config-out writes each list block's resources and import blocks as the block "
            "completes, in no fixed order"},
    {"file": "proto/*.msgpack", "encoding": "map entry order",
     "why": "values the provider sends are encoded by terraform-plugin-go, which writes map entries in Go's random "
            "map order: compared as decoded values; file names hash the value with map entries sorted"},
    {"file": "plan.tfplan", "path": "", "why": "a zip archive: member times, the plan's timestamp and the "
                                               "prior state's lineage change every run; compared through "
                                               "plan.json and plan.txt, and its member names"},
]


# Terraform's volatile fields: OpenTofu's (the same formats), said of Terraform.
VOLATILE_TERRAFORM = [dict(e, why=e["why"].replace("OpenTofu", "Terraform")) for e in VOLATILE]


def binary_deps(path):
    """The module versions a Go binary was built with (`go version -m`): {module path: version}."""
    text = subprocess.run(["go", "version", "-m", path], check=True, capture_output=True, text=True).stdout
    deps = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 3 and f[0] in ("dep", "=>"):
            deps[f[1]] = f[2]
    return deps


def shell_assignment(path, name):
    """The value of a NAME=value line of a shell script."""
    with open(path) as f:
        for line in f:
            if line.startswith(name + "="):
                return line.split("=", 1)[1].strip()
    raise SystemExit(f"corpus.py: {path} has no {name}= line")


def providers(e2e, host):
    prov, local = os.path.join(e2e, "provider"), os.path.join(e2e, "local")
    return [
        {"address": f"{host}/tfwire/tfwire", "version": "1.0.0", "protocol": 6,
         "source": "e2e/provider (this project)",
         "framework": "github.com/hashicorp/terraform-plugin-framework "
                      + go_version(prov, "github.com/hashicorp/terraform-plugin-framework"),
         "encoder": "github.com/hashicorp/terraform-plugin-go "
                    + go_version(prov, "github.com/hashicorp/terraform-plugin-go"),
         "licence": "MPL-2.0 (the libraries)"},
        {"address": f"{host}/hashicorp/time", "version": "0.14.2", "protocol": 5,
         "source": "github.com/hashicorp/terraform-provider-time "
                   + go_version(prov, "github.com/hashicorp/terraform-provider-time"),
         "licence": "MPL-2.0"},
        {"address": f"{host}/hashicorp/local", "version": "1.4.0", "protocol": 5,
         "source": "github.com/hashicorp/terraform-provider-local "
                   + go_version(local, "github.com/terraform-providers/terraform-provider-local")
                   + " (module path github.com/terraform-providers/terraform-provider-local)",
         "sdk": "github.com/hashicorp/terraform-plugin-sdk "
                + go_version(local, "github.com/hashicorp/terraform-plugin-sdk"),
         "licence": "MPL-2.0"},
    ]


def client_version(e2e, client):
    """`CLIENT version -json` of e2e/bin/CLIENT, reading no CLI configuration (a missing one adds a warning)."""
    env = dict(os.environ, TF_CLI_CONFIG_FILE=os.devnull, CHECKPOINT_DISABLE="1")
    return json.loads(subprocess.run([os.path.join(e2e, "bin", client), "version", "-json"], check=True,
                                     capture_output=True, text=True, env=env).stdout)


def opentofu_entries(e2e):
    tofu = client_version(e2e, "tofu")
    return (
        {"module": "github.com/opentofu/opentofu", "version": go_version(e2e, "github.com/opentofu/opentofu"),
         "reports": tofu["terraform_version"], "platform": tofu["platform"], "licence": "MPL-2.0"},
        {"module": "github.com/zclconf/go-cty", "version": go_version(e2e, "github.com/zclconf/go-cty"),
         "note": "the version OpenTofu is built with (e2e/go.mod)"},
    )


def manifest(out, e2e, client, skip, scenario_dirs):
    path = os.path.join(out, "MANIFEST.json")
    old = {}
    if os.path.exists(path):
        with open(path) as f:
            old = json.load(f).get("scenarios", {})
    for name in skip:
        old.pop(name, None)
    go = subprocess.run(["go", "env", "GOVERSION"], check=True, capture_output=True, text=True).stdout.strip()
    if client == "tofu":
        opentofu, go_cty = opentofu_entries(e2e)
        doc = {
            "generator": "e2e/run.sh (see e2e/README.md); regenerate with: bash e2e/run.sh",
            "go": go,
            "opentofu": opentofu,
            "go_cty": go_cty,
            "providers": providers(e2e, "registry.opentofu.org"),
            "files": FILES,
            "volatile": VOLATILE,
            "scenarios": old,
        }
    elif client == "terraform":
        binary = os.path.join(e2e, "bin", "terraform")
        tf = client_version(e2e, "terraform")
        deps = binary_deps(binary)
        script = os.path.join(e2e, "terraform.sh")
        opentofu, opentofu_cty = opentofu_entries(e2e)
        doc = {
            "generator": "e2e/run.sh --client terraform (see e2e/README.md); regenerate with: bash e2e/run.sh",
            "go": go,
            "terraform": {"module": shell_assignment(script, "TERRAFORM_MODULE"),
                          "version": shell_assignment(script, "TERRAFORM_VERSION"),
                          "reports": tf["terraform_version"], "platform": tf["platform"],
                          "built": "from source by e2e/terraform.sh: the module from the Go module proxy, with "
                                   "stand-ins for the sub-modules its go.mod replaces with folders the module zip "
                                   "lacks (nine state backends that are never used, internal/legacy)",
                          "licence": "BUSL-1.1 (the client, run as a test oracle only; the outputs here are "
                                     "test data)"},
            "go_cty": {"module": "github.com/zclconf/go-cty", "version": deps["github.com/zclconf/go-cty"],
                       "note": "the version Terraform is built with (its go.mod, read from the binary)"},
            "other_client": {"corpus": "corpus/real-client", "opentofu": opentofu, "go_cty": opentofu_cty},
            "providers": providers(e2e, "registry.terraform.io"),
            "files": files_of("terraform"),
            "volatile": VOLATILE_TERRAFORM,
            "scenarios": old,
        }
    else:
        raise SystemExit(f"corpus.py: unknown client {client} (expected tofu or terraform)")
    for src in scenario_dirs:
        name = os.path.basename(src.rstrip("/"))
        cfg = {}
        if os.path.exists(os.path.join(src, "scenario.json")):
            with open(os.path.join(src, "scenario.json")) as f:
                cfg = json.load(f)
        steps = sorted(os.listdir(os.path.join(src, "steps"))) if os.path.isdir(os.path.join(src, "steps")) else []
        d = os.path.join(out, name)
        proto_index = os.path.join(d, "proto", "index.json")
        values = 0
        if os.path.exists(proto_index):
            with open(proto_index) as f:
                values = len(json.load(f)["files"])
        description = cfg.get("description", "")
        if not description:
            # The comment lines that open main.tf.
            with open(os.path.join(src, "main.tf"), encoding="utf-8") as f:
                lead = []
                for line in f:
                    if not line.startswith("#"):
                        break
                    lead.append(line[1:].strip())
            description = " ".join(lead)
        doc["scenarios"][name] = {
            "description": description,
            "steps": steps,
            "plan_args": cfg.get("plan_args", []),
            "applied": cfg.get("apply", True),
            "expect_apply_failure": cfg.get("expect_apply_failure", False),
            "committed": cfg.get("committed", True),
            "proto_values": values,
            "files": sorted(os.path.relpath(os.path.join(dp, f), d) for dp, _, fs in os.walk(d) for f in fs),
        }
    doc["scenarios"] = dict(sorted(doc["scenarios"].items()))
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "proto":
        proto(*sys.argv[2:])
    elif len(sys.argv) >= 5 and sys.argv[1] == "manifest":
        args, skipped = sys.argv[5:], []
        while len(args) >= 2 and args[0] == "--skip":
            skipped.append(args[1])
            args = args[2:]
        manifest(sys.argv[2], sys.argv[3], sys.argv[4], skipped, args)
    else:
        raise SystemExit(__doc__)
