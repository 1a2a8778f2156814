#!/usr/bin/env python3
"""The hostile harness: the release CLI on generated inputs built to break it.

    python3 benches/hostile.py [--tfwire PATH] [--only SUBSTRING] [--list] [--keep DIR]

Every case runs `tfwire` as a child in a session of its own, with standard input closed and
`TMPDIR` pointed at an empty folder, and must:

- end by itself within its time bound (default 20 s; the commands take well under a second
  to a few seconds: the bound only tells "returns" from "hangs", it measures no speed);
- exit with 0, 1 or 2 (the case names which), never by a signal, and print no panic
  ("panicked at") nor allocation failure ("memory allocation of");
- peak at most 64 x the input's size + 256 MiB of resident memory (ru_maxrss of the child),
  or the case's documented bound;
- write at most 64 x the input's size + 1 MiB to standard output (output amplification);
- leave no process of its session running (the tap's provider included) and nothing in its
  `TMPDIR`.

The inputs are generated here, from this file alone (the plan files start from
`corpus/real-client/create/plan.tfplan`, the project's own real-client output), in a temporary
folder removed on exit (`--keep DIR` writes them to DIR instead). The classes follow the
hardening issue's list: width panics, memory aborts, amplification, quadratic rendering,
output amplification, `dump` on special files, the tap and its child, and masks.

Ends with one line `hostile: N passed, N failed`; exit status 1 when a case failed.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MIB = 1 << 20

# --------------------------------------------------------------------------------------------
# Protocol buffers, just enough to rewrite a plan file's `tfplan` member.


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def pb_len(field_no: int, payload: bytes) -> bytes:
    return varint(field_no << 3 | 2) + varint(len(payload)) + payload


def pb_varint(field_no: int, n: int) -> bytes:
    return varint(field_no << 3) + varint(n)


def pb_fields(data: bytes) -> list[tuple[int, int, bytes | int]]:
    """The top-level fields of a message: (number, wire type, payload or value)."""
    out = []
    i = 0
    while i < len(data):
        key, i = read_varint(data, i)
        no, wt = key >> 3, key & 7
        if wt == 0:
            v, i = read_varint(data, i)
            out.append((no, wt, v))
        elif wt == 2:
            n, i = read_varint(data, i)
            out.append((no, wt, data[i : i + n]))
            i += n
        elif wt == 1:
            out.append((no, wt, data[i : i + 8]))
            i += 8
        elif wt == 5:
            out.append((no, wt, data[i : i + 4]))
            i += 4
        else:
            raise ValueError(f"wire type {wt}")
    return out


def read_varint(data: bytes, i: int) -> tuple[int, int]:
    n = shift = 0
    while True:
        b = data[i]
        i += 1
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return n, i


def pb_encode(fields: list[tuple[int, int, bytes | int]]) -> bytes:
    out = bytearray()
    for no, wt, v in fields:
        if wt == 0:
            out += pb_varint(no, v)  # type: ignore[arg-type]
        elif wt == 2:
            out += pb_len(no, v)  # type: ignore[arg-type]
        else:
            out += varint(no << 3 | wt) + v  # type: ignore[operator]
    return bytes(out)


BASE_PLAN = ROOT / "corpus/real-client/create/plan.tfplan"
BASE_SCHEMAS = ROOT / "corpus/real-client/create/schemas.json"


def schemas_of(name: str) -> list[str]:
    """`plan show` draws a plan file's values with the provider schemas."""
    return ["--schemas", str(BASE_SCHEMAS)] if name.endswith(".tfplan") else []


def base_members() -> dict[str, bytes]:
    with zipfile.ZipFile(BASE_PLAN) as z:
        return {n: z.read(n) for n in z.namelist()}


def write_planfile(path: Path, members: dict[str, bytes | "Stream"]) -> None:
    """A ZIP like the client's (deflate); a `Stream` member is written chunk by chunk."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, data in members.items():
            if isinstance(data, Stream):
                info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                with z.open(info, "w", force_zip64=data.size > 0xFFFF0000) as w:
                    for chunk in data.chunks():
                        w.write(chunk)
            else:
                z.writestr(zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)


@dataclass
class Stream:
    """A member too large to hold: a head, `size - len(head) - len(tail)` bytes of `fill`,
    a tail."""

    head: bytes
    fill: bytes
    size: int
    tail: bytes = b""

    def chunks(self):
        yield self.head
        left = self.size - len(self.head) - len(self.tail)
        block = self.fill * (MIB // len(self.fill))
        while left > 0:
            n = min(left, len(block))
            yield block[:n]
            left -= n
        yield self.tail


def first_change(tfplan: bytes) -> tuple[int, bytes]:
    for i, (no, wt, v) in enumerate(pb_fields(tfplan)):
        if no == 3 and wt == 2:
            return i, v  # type: ignore[return-value]
    raise ValueError("no resource change")


def with_name(tfplan: bytes, name: str) -> bytes:
    """The plan with its first resource change renamed (`addr`, `prev_run_addr`): the same
    resource type (its schema draws it), the name `name`."""
    fields = pb_fields(tfplan)
    i, change = first_change(tfplan)
    addr = next(v for no, _, v in pb_fields(change) if no == 13).decode()  # type: ignore[union-attr]
    new = (addr.rsplit(".", 1)[0] + "." + name).encode()
    cf = [(no, wt, new if no in (13, 14) else v) for no, wt, v in pb_fields(change)]
    fields[i] = (3, 2, pb_encode(cf))
    return pb_encode(fields)


# --------------------------------------------------------------------------------------------
# JSON documents.


def plan_doc(changes: list[dict], outputs: dict | None = None) -> dict:
    return {
        "format_version": "1.2",
        "terraform_version": "1.12.6",
        "resource_changes": changes,
        "output_changes": outputs or {},
    }


def change(address: str, actions, before, after, module: str | None = None, **extra) -> dict:
    typ, name = address.split(".")[-2:]
    c = {
        "address": address,
        "mode": "managed",
        "type": typ,
        "name": name.split("[")[0],
        "provider_name": "registry.opentofu.org/hashicorp/aws",
        "change": {
            "actions": actions,
            "before": before,
            "after": after,
            "after_unknown": extra.pop("after_unknown", {}),
            "before_sensitive": extra.pop("before_sensitive", {}),
            "after_sensitive": extra.pop("after_sensitive", {}),
            **extra.pop("change_extra", {}),
        },
        **extra,
    }
    if module:
        c["module_address"] = module
    return c


def raw_state(resources: list[dict], outputs: dict | None = None, version: int = 4) -> dict:
    return {
        "version": version,
        "terraform_version": "1.12.6",
        "serial": 1,
        "lineage": "00000000-0000-0000-0000-000000000000",
        "outputs": outputs or {},
        "resources": resources,
    }


def raw_resource(typ: str, name: str, attributes: dict, module: str | None = None) -> dict:
    r = {
        "mode": "managed",
        "type": typ,
        "name": name,
        "provider": 'provider["registry.opentofu.org/hashicorp/aws"]',
        "instances": [{"schema_version": 0, "attributes": attributes}],
    }
    if module:
        r["module"] = module
    return r


def show_state(values: dict) -> dict:
    """A `show -json` state of one resource, `aws_instance.x`."""
    return {
        "format_version": "1.0",
        "terraform_version": "1.12.6",
        "values": {"root_module": {"resources": [{
            "address": "aws_instance.x", "mode": "managed", "type": "aws_instance", "name": "x",
            "provider_name": "registry.opentofu.org/hashicorp/aws", "schema_version": 0, "values": values}]}},
    }


def dump_json(path: Path, doc) -> None:
    with open(path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))


# --------------------------------------------------------------------------------------------
# Cases.


@dataclass
class Case:
    name: str
    cls: str
    argv: list[str]
    exits: tuple[int, ...] = (0, 1)
    says: str | None = None  # a text the message must hold (stdout or stderr): the error is clear
    timeout: float = 20.0
    inputs: list[Path] = field(default_factory=list)
    rss_bound_mib: float | None = None  # a documented bound instead of the 64x rule
    absent: list[str] = field(default_factory=list)  # texts never printed (secrets)
    signal_after: float | None = None  # SIGTERM to the tfwire process after this long
    env: dict = field(default_factory=dict)


def build_cases(work: Path) -> list[Case]:
    cases: list[Case] = []
    w = lambda name: work / name  # noqa: E731
    big = "a" * 65536
    base = base_members()

    # ---- 1. width panics -----------------------------------------------------------------
    long_addr = f"aws_instance.{big}"
    dump_json(w("long-address.json"), plan_doc([change(long_addr, ["create"], None, {"a": 1})]))
    dump_json(
        w("long-output.json"),
        plan_doc(
            [],
            {big: {"actions": ["create"], "before": None, "after": "x", "after_unknown": False,
                   "before_sensitive": False, "after_sensitive": False}},
        ),
    )
    deep_module = ".".join(["module.m"] * 10_000)
    dump_json(
        w("deep-module.json"),
        plan_doc([change(f"{deep_module}.aws_instance.x", ["create"], None, {"a": 1}, module=deep_module)]),
    )
    dump_json(w("long-attr-rawstate.json"), raw_state([raw_resource("aws_instance", "x", {big: "v", "b": 1})]))
    v3 = {
        "version": 3,
        "terraform_version": "0.11.14",
        "serial": 1,
        "lineage": "l",
        "modules": [
            {
                "path": ["root"],
                "outputs": {},
                "resources": {
                    "aws_instance.x": {
                        "type": "aws_instance",
                        "provider": "provider.aws",
                        "primary": {"id": "i-1", "attributes": {"id": "i-1", big: "v"}},
                    }
                },
            }
        ],
    }
    dump_json(w("long-attr-v3state.json"), v3)
    m = dict(base)
    m["tfplan"] = with_name(base["tfplan"], big)
    write_planfile(w("long-address.tfplan"), m)
    m = dict(base)
    st = json.loads(base["tfstate"])
    for r in st["resources"]:
        for inst in r["instances"]:
            inst["attributes"][big] = "v"
    m["tfstate"] = json.dumps(st).encode()
    write_planfile(w("long-attr-state.tfplan"), m)
    for f in ["long-address.json", "long-output.json", "deep-module.json", "long-address.tfplan"]:
        for argv in (["plan", "summary"], ["plan", "summary", "--format", "markdown"],
                     ["plan", "summary", "--format", "tree"], ["plan", "show"] + schemas_of(f)):
            cases.append(Case(f"widths: {' '.join(argv)} {f}", "1-widths", argv + [str(w(f))], inputs=[w(f)]))
    # A long attribute name in a plan's values (create and update) and in a `show -json` state.
    dump_json(w("long-attr-plan.json"),
              plan_doc([change("aws_instance.x", ["create"], None, {big: "1", "b": "2"}),
                        change("aws_instance.y", ["update"], {big: "1", "b": "2"}, {big: "2", "b": "3"})]))
    for argv in (["plan", "show"], ["plan", "show", "--all"], ["plan", "summary", "--format", "markdown"]):
        cases.append(Case(f"widths: {' '.join(argv)} long-attr-plan.json", "1-widths",
                          argv + [str(w("long-attr-plan.json"))], inputs=[w("long-attr-plan.json")], exits=(0,)))
    dump_json(w("long-attr-showstate.json"), show_state({big: "1", "b": "2"}))
    cases.append(Case("widths: state show long-attr-showstate.json", "1-widths",
                      ["state", "show", str(w("long-attr-showstate.json")), "aws_instance.x"],
                      inputs=[w("long-attr-showstate.json")], exits=(0,)))
    # Variants: names just under, at and far past the format width limit (65,535).
    for n in (65_535, 262_144):
        name = "b" * n
        dump_json(w(f"address-{n}.json"), plan_doc([change(f"aws_instance.{name}", ["update"], {"a": 1}, {"a": 2})],
                                                      {name: {"actions": ["update"], "before": "x", "after": "y",
                                                              "after_unknown": False, "before_sensitive": False,
                                                              "after_sensitive": False}}))
        dump_json(w(f"attr-{n}-rawstate.json"),
                  raw_state([raw_resource("aws_instance", "x", {name: "v", "b": {name: [1]}})], {name: {"value": 1}}))
        for argv in (["plan", "summary"], ["plan", "show"], ["plan", "show", "--all"]):
            cases.append(Case(f"widths: {' '.join(argv)} address-{n}.json", "1-widths",
                              argv + [str(w(f"address-{n}.json"))], inputs=[w(f"address-{n}.json")], exits=(0,)))
        cases.append(Case(f"widths: state show attr-{n}-rawstate.json", "1-widths",
                          ["state", "show", str(w(f"attr-{n}-rawstate.json")), "aws_instance.x"],
                          inputs=[w(f"attr-{n}-rawstate.json")], exits=(0,)))
    for f in ["long-attr-rawstate.json", "long-attr-v3state.json", "long-attr-state.tfplan"]:
        cases.append(Case(f"widths: state list {f}", "1-widths", ["state", "list", str(w(f))], inputs=[w(f)]))
        cases.append(Case(f"widths: state show {f}", "1-widths", ["state", "show", str(w(f)), "aws_instance.x"],
                          inputs=[w(f)]))
    st0 = json.loads(base["tfstate"])
    first = st0["resources"][0]
    addr0 = ("data." if first["mode"] == "data" else "") + f"{first['type']}.{first['name']}"
    cases.append(Case("widths: state show long-attr-state.tfplan (its resource)", "1-widths",
                      ["state", "show", str(w("long-attr-state.tfplan")), addr0],
                      inputs=[w("long-attr-state.tfplan")]))

    # ---- 2. memory aborts -----------------------------------------------------------------
    m = dict(base)
    # An unknown field of 510 MiB appended to tfplan (protobuf merges appended fields).
    head = base["tfplan"] + varint(99 << 3 | 2) + varint(510 * MIB)
    m["tfplan"] = Stream(head, b"\0", len(head) + 510 * MIB)
    write_planfile(w("tfplan-510m-field.tfplan"), m)
    m = dict(base)
    nodes = 32 * MIB
    st_head = b'{"version":4,"terraform_version":"1.12.6","serial":1,"lineage":"l","outputs":{},"resources":[],"x":['
    body = b"0," * (nodes - 1) + b"0"
    m["tfstate"] = Stream(st_head + body, b" ", 510 * MIB, b"]}")
    write_planfile(w("tfstate-32mi-nodes.tfplan"), m)
    for f in ["tfplan-510m-field.tfplan", "tfstate-32mi-nodes.tfplan"]:
        for argv in (["plan", "summary"], ["plan", "show"] + schemas_of(f), ["state", "list"]):
            cases.append(Case(f"memory: {' '.join(argv)} {f}", "2-memory", argv + [str(w(f))], inputs=[w(f)],
                              exits=(1,), says="raise it with --max-input-bytes"))
    # dump: an 8 MiB value and 300 schemas, no index.
    d = w("dump-8m")
    d.mkdir()
    schemas = {
        "format_version": "1.0",
        "provider_schemas": {
            "registry.opentofu.org/tfwire/tfwire": {
                "provider": {"version": 0, "block": {}},
                "resource_schemas": {
                    f"tfwire_r{i}": {"version": 0, "block": {"attributes": {
                        "id": {"type": "string", "computed": True},
                        "data": {"type": ["list", "string"], "optional": True},
                    }}}
                    for i in range(300)
                },
            }
        },
    }
    dump_json(w("dump-schemas.json"), schemas)
    # fixmap 2: id, data: array32 of 8 MiB/8 strings of 7 bytes.
    n = MIB
    value = b"\x82\xa2id\xa3i-1\xa4data\xdd" + struct.pack(">I", n) + b"\xa7abcdefg" * n
    (d / "1700000000000000000_PlanResourceChange_Request_ProposedNewState.msgpack").write_bytes(value)
    cases.append(Case("memory: dump 8 MiB value x 300 schemas", "2-memory",
                      ["dump", str(d), "--schemas", str(w("dump-schemas.json"))],
                      inputs=[d / os.listdir(d)[0], w("dump-schemas.json")], exits=(0, 1)))

    # ---- 3. amplification ----------------------------------------------------------------
    m = dict(base)
    st = base["tfstate"].rstrip()
    assert st.endswith(b"}")
    m["tfstate"] = Stream(st[:-1], b" ", 400 * MIB, b"}")
    write_planfile(w("tfstate-400m-spaces.tfplan"), m)
    # Within the default limit (256 MiB): read, and the inflated text not kept twice.
    m["tfstate"] = Stream(st[:-1], b" ", 200 * MIB, b"}")
    write_planfile(w("tfstate-200m-spaces.tfplan"), m)
    cases.append(Case("amplification: state list tfstate-200m-spaces.tfplan", "3-amplification",
                      ["state", "list", str(w("tfstate-200m-spaces.tfplan"))],
                      inputs=[w("tfstate-200m-spaces.tfplan")], exits=(0,)))
    for argv in (["plan", "summary"], ["state", "list"], ["state", "show"]):
        extra = [addr0] if argv[1] == "show" else []
        cases.append(Case(f"amplification: {' '.join(argv)} tfstate-400m-spaces.tfplan", "3-amplification",
                          argv + [str(w("tfstate-400m-spaces.tfplan"))] + extra,
                          inputs=[w("tfstate-400m-spaces.tfplan")], exits=(1,),
                          says="raise it with --max-input-bytes"))
    for field_no, what in ((3, "resource_changes"), (18, "resource_drift"), (4, "output_changes")):
        m = dict(base)
        m["tfplan"] = Stream(base["tfplan"], pb_len(field_no, b""), len(base["tfplan"]) + 2 * 4_000_000)
        f = f"tfplan-4m-empty-{what}.tfplan"
        write_planfile(w(f), m)
        for argv in (["plan", "summary"], ["plan", "show"] + schemas_of(f)):
            cases.append(Case(f"amplification: {' '.join(argv)} {f}", "3-amplification", argv + [str(w(f))],
                              inputs=[w(f)], exits=(1,), says="raise it with --max-input-bytes"))

    # ---- 4. quadratic rendering --------------------------------------------------------------
    def add_render(fname: str, doc: dict, address: str) -> None:
        dump_json(w(fname), doc)
        for argv in (["plan", "show"], ["plan", "summary", "--format", "markdown"],
                     ["plan", "summary", "--format", "tree"]):
            cases.append(Case(f"render: {' '.join(argv)} {fname}", "4-quadratic", argv + [str(w(fname))],
                              inputs=[w(fname)], exits=(0,)))
        cases.append(Case(f"render: plan show {fname} ADDRESS", "4-quadratic",
                          ["plan", "show", str(w(fname)), address], inputs=[w(fname)], exits=(0,)))

    # Each shape at the size and at 4 times it: a quadratic step that the first size
    # hides behind a few seconds takes minutes at the second, past the time bound, while the
    # linear work takes about a second.
    for k in (1, 4):
        x = f"-x{k}"
        n = 60_000 * k
        before = {f"attr_{i}": i for i in range(n)}
        after = {f"attr_{i}": (i + 1 if i % 7 == 0 else i) for i in range(n)}
        add_render(f"wide-object{x}.json", plan_doc([change("aws_instance.x", ["update"], before, after)]),
                   "aws_instance.x")
        marks_by_name = {f"attr_{i}": i % 2 == 0 for i in range(n)}
        add_render(f"wide-object-marks{x}.json",
                   plan_doc([change("aws_instance.x", ["update"], before, after, before_sensitive=marks_by_name,
                                    after_sensitive=marks_by_name)]), "aws_instance.x")
        lst = list(range(n))
        add_render(f"unchanged-list{x}.json",
                   plan_doc([change("aws_instance.x", ["update"], {"l": lst, "a": 1}, {"l": lst, "a": 2})]),
                   "aws_instance.x")
        s_before = list(range(100_000 * k))
        s_after = list(range(50_000 * k, 150_000 * k))
        add_render(f"set-update{x}.json",
                   plan_doc([change("aws_instance.x", ["update"], {"s": s_before}, {"s": s_after})]),
                   "aws_instance.x")
        add_render(f"set-replace{x}.json",
                   plan_doc([change("aws_instance.x", ["delete", "create"], {"s": s_before}, {"s": s_after[::-1]},
                                    action_reason="replace_because_cannot_update",
                                    change_extra={"replace_paths": [["s"]]})]), "aws_instance.x")
        add_render(f"map{x}.json",
                   plan_doc([change("aws_instance.x", ["update"], {"tags": {f"k{i}": str(i) for i in range(n)}},
                                    {"tags": {f"k{i}": str(i + (i % 3 == 0)) for i in range(n)}})]),
                   "aws_instance.x")
        m = 20_000 * k
        objs = [{"name": f"n{i}", "port": i, "on": True} for i in range(m)]
        objs2 = objs[: m // 2] + [{"name": "new", "port": -1, "on": False}] + objs[m // 2 + 1 :]
        add_render(f"object-list{x}.json",
                   plan_doc([change("aws_instance.x", ["update"], {"rules": objs}, {"rules": objs2})]),
                   "aws_instance.x")
        before = {f"attr_{i}": i for i in range(m)}
        after = {f"attr_{i}": i + 1 for i in range(m)}
        add_render(f"replace-paths{x}.json",
                   plan_doc([change("aws_instance.x", ["delete", "create"], before, after,
                                    action_reason="replace_because_cannot_update",
                                    change_extra={"replace_paths": [[f"attr_{i}"] for i in range(m)]})]),
                   "aws_instance.x")
        add_render(f"changed-list{x}.json",
                   plan_doc([change("aws_instance.x", ["update"], {"l": lst}, {"l": [i * 2 + 1 for i in lst]})]),
                   "aws_instance.x")
        nested_marks = [[True] for _ in range(n)]
        add_render(f"sensitive-nested{x}.json",
                   plan_doc([change("aws_instance.x", ["update"], {"l": [[str(i)] for i in range(n)]},
                                    {"l": [[str(i + 1)] for i in range(n)]},
                                    before_sensitive={"l": nested_marks}, after_sensitive={"l": nested_marks})]),
                   "aws_instance.x")
        marks = [True] * n
        add_render(f"sensitive-list{x}.json",
                   plan_doc([change("aws_instance.x", ["update"], {"l": lst}, {"l": [i + 1 for i in lst]},
                                    before_sensitive={"l": marks}, after_sensitive={"l": marks})]),
                   "aws_instance.x")
        # Masks over wide values: a masked name in every member, and the markers beside them.
        secrets = {f"db_password_{i}": f"s{i}" for i in range(n)}
        add_render(f"masked-wide{x}.json",
                   plan_doc([change("aws_instance.x", ["update"], secrets, {**secrets, "db_password_0": "t"},
                                    before_sensitive=marks_by_name, after_sensitive=marks_by_name)]),
                   "aws_instance.x")

    # ---- 5. output amplification -------------------------------------------------------------
    dump_json(
        w("deep-module-360k.json"),
        plan_doc([change(f"{deep_module}.aws_instance.x{i}", ["create"], None, {"a": 1}, module=deep_module)
                  for i in range(2)]),
    )
    deeper = ".".join(["module.m"] * 50_000)
    dump_json(w("deep-module-50k.json"),
              plan_doc([change(f"{deeper}.aws_instance.x", ["create"], None, {"a": 1}, module=deeper)]))
    for fmt in ("tree", "table"):
        cases.append(Case(f"output: plan summary --format {fmt} deep-module-50k.json", "5-output",
                          ["plan", "summary", "--format", fmt, str(w("deep-module-50k.json"))],
                          inputs=[w("deep-module-50k.json")], exits=(0,)))
    for fmt in ("tree", "table", "markdown", "json"):
        cases.append(Case(f"output: plan summary --format {fmt} deep-module-360k.json", "5-output",
                          ["plan", "summary", "--format", fmt, str(w("deep-module-360k.json"))],
                          inputs=[w("deep-module-360k.json")], exits=(0,)))
    # Deep values: nested objects in a plan and in an import's identity, nested lists in a state.
    deep_object = '{"a":' * 1_000 + "1" + "}" * 1_000
    deep_list = "[" * 1_000 + "1" + ",1]" * 1_000
    imported = change("aws_instance.x", ["create"], None, "DEEP", change_extra={"importing": {"identity": "DEEP"}})
    for fname, doc, argv in (
        ("deep-value.json", plan_doc([change("aws_instance.x", ["create"], None, "DEEP")]), ["plan", "show"]),
        ("deep-identity.json", plan_doc([imported]), ["plan", "show"]),
        ("deep-list-state.json", show_state({"v": "DEEP"}), ["state", "show"]),
    ):
        text = json.dumps(doc, separators=(",", ":"))
        w(fname).write_text(text.replace('"DEEP"', deep_list if "list" in fname else deep_object))
        extra = ["aws_instance.x"] if argv[0] == "state" else []
        cases.append(Case(f"output: {' '.join(argv)} {fname}", "5-output", argv + [str(w(fname))] + extra,
                          inputs=[w(fname)], exits=(0,)))

    # ---- 6. dump on special files --------------------------------------------------------------
    schema_file = ROOT / "corpus/real-client/create/schemas.json"

    def dump_dir(name: str, make) -> Path:
        d = w(name)
        d.mkdir()
        make(d)
        return d

    value_name = "1700000000000000000_PlanResourceChange_Request_ProposedNewState.msgpack"
    not_regular, outside = "not a regular file", "a symbolic link to outside the folder"
    specials = {
        "fifo-value": (lambda d: os.mkfifo(d / value_name), not_regular),
        "fifo-index-json": (lambda d: os.mkfifo(d / "index.json"), not_regular),
        "fifo-index-jsonl": (lambda d: os.mkfifo(d / "index.jsonl"), not_regular),
        "symlink-outside": (lambda d: os.symlink("/etc/passwd", d / value_name), outside),
        "symlink-dev-zero": (lambda d: os.symlink("/dev/zero", d / value_name), outside),
        "socket-value": (lambda d: bind_socket(d / value_name), not_regular),
    }
    if os.geteuid() == 0:
        specials["char-device"] = (
            lambda d: os.mknod(d / value_name, stat.S_IFCHR | 0o600, os.makedev(1, 5)), not_regular)
    for name, (make, says) in specials.items():
        d = dump_dir(f"dump-{name}", make)
        cases.append(Case(f"dump: {name}", "6-dump", ["dump", str(d), "--schemas", str(schema_file)],
                          inputs=[schema_file], exits=(1,), timeout=10, says=says))

    # ---- 7. the tap and its child ------------------------------------------------------------
    cases += tap_cases(work)

    # ---- 8. masks -----------------------------------------------------------------------------
    secret = "hunter2-SECRET-not-marked"
    doc = plan_doc([change("aws_db_instance.db", ["create"], None,
                           {"password": secret, "name": "db",
                            "env": [{"name": "TOKEN", "value": secret}]})])
    dump_json(w("unmarked-secret.json"), doc)
    for argv in (["plan", "summary"], ["plan", "summary", "--format", "markdown"],
                 ["plan", "summary", "--format", "tree"], ["plan", "summary", "--format", "json"],
                 ["plan", "show"], ["plan", "show", "--all"]):
        cases.append(Case(f"mask: {' '.join(argv)} unmarked-secret.json", "8-mask",
                          argv + [str(w("unmarked-secret.json"))], inputs=[w("unmarked-secret.json")],
                          exits=(0,), absent=[secret]))
    dump_json(w("unmarked-secret-state.json"),
              raw_state([raw_resource("aws_db_instance", "db", {"password": secret, "name": "db"})]))
    cases.append(Case("mask: state show unmarked-secret-state.json", "8-mask",
                      ["state", "show", str(w("unmarked-secret-state.json")), "aws_db_instance.db"],
                      inputs=[w("unmarked-secret-state.json")], exits=(0,), absent=[secret]))
    return cases


def bind_socket(path: Path) -> None:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    cwd = os.getcwd()
    os.chdir(path.parent)  # a relative name: the full path may pass the 108 bytes a socket's may hold
    try:
        s.bind(path.name)
    finally:
        os.chdir(cwd)
        s.close()


# A provider that does what the case says (`MODE` in its environment).
FAKE_PROVIDER = r"""#!/usr/bin/env python3
import os, socket, sys, time, signal
mode = sys.argv[1]
if mode == "stall":
    time.sleep(3600)
elif mode == "flood":
    chunk = b"a" * (1 << 20)
    try:
        for _ in range(3 * 1024):
            sys.stdout.buffer.write(chunk)
    except BrokenPipeError:
        pass
    time.sleep(3600)
elif mode == "exit":
    sys.stderr.write("fake provider: cannot start (exit 3)\n")
    sys.exit(3)
elif mode in ("mute-socket", "mute-socket-ignore-term"):
    if mode.endswith("ignore-term"):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    d = os.environ["FAKE_SOCKET_DIR"]  # not TMPDIR: the harness checks the tap leaves that empty
    path = os.path.join(d, "fake-plugin-%d" % os.getpid())
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.listen(0)  # never accepted, never answered
    sys.stdout.write("1|6|unix|%s|grpc|%s\n" % (path, os.environ.get("FAKE_CERT", "")))
    sys.stdout.flush()
    try:
        time.sleep(3600)
    finally:
        os.unlink(path)
"""


def tap_cases(work: Path) -> list[Case]:
    fake = work / "fake-provider.py"
    fake.write_text(FAKE_PROVIDER)
    fake.chmod(0o755)
    magic = {
        "TF_PLUGIN_MAGIC_COOKIE": "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
        "PLUGIN_PROTOCOL_VERSIONS": "5,6",
        "PLUGIN_MIN_PORT": "10000",
        "PLUGIN_MAX_PORT": "25000",
    }
    timeout_env = {"TFWIRE_TAP_START_TIMEOUT": "3", "FAKE_SOCKET_DIR": str(work)}
    out = []
    says = {"stall": "printed no handshake line within 3 s", "flood": "no newline in the first 65536 bytes",
            "exit": "ended (exit status: 3)"}
    for mode in ("stall", "flood", "exit"):
        out.append(Case(f"tap: provider {mode}", "7-tap", ["tap", "--", str(fake), mode], exits=(1,), timeout=20,
                        env={**magic, **timeout_env}, rss_bound_mib=256, says=says[mode]))
    for mode in ("mute-socket", "mute-socket-ignore-term"):
        out.append(Case(f"tap: provider {mode}, tap sent SIGTERM", "7-tap", ["tap", "--", str(fake), mode],
                        exits=(0, 1), timeout=20, env={**magic, **timeout_env}, signal_after=2.0, rss_bound_mib=256))
    # AutoMTLS: the client's certificate in PLUGIN_CLIENT_CERT, the provider's in its line.
    cert_pem, cert_b64 = self_signed(work)
    mtls = {**magic, **timeout_env, "PLUGIN_CLIENT_CERT": cert_pem, "FAKE_CERT": cert_b64}
    for mode in ("stall", "exit"):
        out.append(Case(f"tap: AutoMTLS, provider {mode}", "7-tap", ["tap", "--", str(fake), mode], exits=(1,),
                        timeout=20, env=mtls, rss_bound_mib=256))
    out.append(Case("tap: AutoMTLS, provider mute-socket-ignore-term, tap sent SIGTERM", "7-tap",
                    ["tap", "--", str(fake), "mute-socket-ignore-term"], exits=(0, 1), timeout=20, env=mtls,
                    signal_after=2.0, rss_bound_mib=256))
    out.append(Case("tap: AutoMTLS, a client certificate that is not one", "7-tap",
                    ["tap", "--", str(fake), "mute-socket"], exits=(1,), timeout=20,
                    env={**mtls, "PLUGIN_CLIENT_CERT": "-----BEGIN CERTIFICATE-----\nnot base64\n"},
                    rss_bound_mib=256))
    return out


def self_signed(work: Path) -> tuple[str, str]:
    """A throwaway certificate (openssl): its PEM, and its DER in go-plugin's line encoding
    (standard base64 without padding)."""
    key, pem, der = work / "cert.key", work / "cert.pem", work / "cert.der"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-subj", "/CN=localhost", "-days", "1", "-keyout", str(key), "-out", str(pem)],
                   check=True, capture_output=True)
    subprocess.run(["openssl", "x509", "-in", str(pem), "-outform", "DER", "-out", str(der)], check=True,
                   capture_output=True)
    import base64

    return pem.read_text(), base64.b64encode(der.read_bytes()).decode().rstrip("=")


# --------------------------------------------------------------------------------------------
# Running a case.


def session_processes(sid: int) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                text = f.read().decode(errors="replace")
        except OSError:
            continue
        rest = text[text.rfind(")") + 2 :].split()
        # state ppid pgrp session ...
        if len(rest) > 3 and int(rest[3]) == sid and rest[0] != "Z":
            pids.append(int(entry))
    return pids


class Drain(threading.Thread):
    """Reads a pipe to its end, counting bytes and keeping the first 64 KiB."""

    def __init__(self, pipe):
        super().__init__(daemon=True)
        self.pipe = pipe
        self.count = 0
        self.head = bytearray()

    def run(self):
        while True:
            chunk = self.pipe.read(1 << 16)
            if not chunk:
                return
            self.count += len(chunk)
            if len(self.head) < 1 << 16:
                self.head += chunk[: (1 << 16) - len(self.head)]


def run_case(tfwire: str, case: Case, work: Path) -> tuple[bool, str]:
    tmp = Path(tempfile.mkdtemp(prefix="tmp-", dir=work))
    env = {k: v for k, v in os.environ.items() if not k.startswith("TFWIRE_")}
    env.update(case.env)
    env["TMPDIR"] = str(tmp)
    env["NO_COLOR"] = "1"
    t0 = time.monotonic()
    p = subprocess.Popen([tfwire, *case.argv], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env, start_new_session=True)
    out, err = Drain(p.stdout), Drain(p.stderr)
    out.start()
    err.start()
    status = rusage = None
    hung = False
    signalled = False
    while True:
        pid, st, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            status, rusage = st, ru
            break
        elapsed = time.monotonic() - t0
        if case.signal_after is not None and not signalled and elapsed >= case.signal_after:
            os.kill(p.pid, signal.SIGTERM)
            signalled = True
        if elapsed > case.timeout:
            hung = True
            os.killpg(p.pid, signal.SIGKILL)
            _, status, rusage = os.wait4(p.pid, 0)
            break
        time.sleep(0.01)
    p.returncode = 0  # reaped by wait4
    elapsed = time.monotonic() - t0
    time.sleep(0.2)  # a child the tap killed needs a moment to go
    left = session_processes(p.pid)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    out.join(5)
    err.join(5)
    leftovers = sorted(str(x.relative_to(tmp)) for x in tmp.rglob("*"))
    input_bytes = sum(x.stat().st_size for x in case.inputs)
    rss_mib = rusage.ru_maxrss / 1024
    bound = case.rss_bound_mib if case.rss_bound_mib is not None else 64 * input_bytes / MIB + 256
    out_bound = 64 * input_bytes + MIB
    stderr = err.head.decode(errors="replace")
    stdout = out.head.decode(errors="replace")
    problems = []
    if hung:
        problems.append(f"hung: killed after {case.timeout:.0f} s")
    elif os.WIFSIGNALED(status):
        problems.append(f"killed by signal {os.WTERMSIG(status)}")
    else:
        code = os.WEXITSTATUS(status)
        if code not in case.exits:
            problems.append(f"exit {code}, expected {'/'.join(map(str, case.exits))}")
    if "panicked at" in stderr:
        problems.append("panic")
    if "memory allocation of" in stderr:
        problems.append("allocation failure")
    if rss_mib > bound:
        problems.append(f"peak RSS {rss_mib:.0f} MiB > {bound:.0f} MiB")
    if out.count > out_bound and not case.cls.startswith("7"):
        problems.append(f"stdout {out.count} bytes > {out_bound}")
    if left:
        problems.append(f"{len(left)} process(es) of its session left running")
    if leftovers:
        problems.append(f"left in TMPDIR: {', '.join(leftovers[:3])}")
    for s in case.absent:
        if s in stdout or s in stderr:
            problems.append(f"printed {s!r}")
    if case.says and case.says not in stdout + stderr:
        problems.append(f"the output does not say {case.says!r}")
    code = os.WEXITSTATUS(status) if not hung and os.WIFEXITED(status) else None
    detail = f"exit {code}, {elapsed:.2f} s, {rss_mib:.0f} MiB, stdout {out.count} B"
    first_err = stderr.strip().splitlines()[:1]
    if problems:
        return False, "; ".join(problems) + f" ({detail})" + (f" stderr: {first_err[0][:300]}" if first_err else "")
    return True, detail


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tfwire", default=str(ROOT / os.environ.get("CARGO_TARGET_DIR", "target") / "release/tfwire"))
    ap.add_argument("--only", action="append", default=[], help="run the cases whose name contains this")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--keep", help="generate the inputs into this folder and keep them")
    args = ap.parse_args()
    if args.keep:
        work = Path(args.keep).resolve()
        work.mkdir(parents=True, exist_ok=True)
        ctx = None
    else:
        ctx = tempfile.TemporaryDirectory(prefix="tfwire-hostile-")
        work = Path(ctx.name)
    try:
        t0 = time.monotonic()
        # Generated in a child process: the runs below fork this one, and a child's peak RSS
        # (ru_maxrss) counts the memory it had between fork and exec, so this process stays small.
        with multiprocessing.get_context("fork").Pool(1) as pool:
            cases = pool.apply(build_cases, (work,))
        print(f"hostile: {len(cases)} cases generated in {time.monotonic() - t0:.1f} s under {work}", flush=True)
        if args.only:
            cases = [c for c in cases if any(o in c.name for o in args.only)]
        if args.list:
            for c in cases:
                print(f"{c.cls}\t{c.name}")
            return 0
        passed = failed = 0
        for c in cases:
            ok, detail = run_case(args.tfwire, c, work)
            print(f"{'ok  ' if ok else 'FAIL'} [{c.cls}] {c.name}: {detail}", flush=True)
            passed += ok
            failed += not ok
        print(f"hostile: {passed} passed, {failed} failed")
        return 1 if failed else 0
    finally:
        if ctx:
            ctx.cleanup()


if __name__ == "__main__":
    sys.exit(main())
