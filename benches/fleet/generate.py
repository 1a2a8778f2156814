#!/usr/bin/env python3
"""Generates a deterministic fleet of Terraform states, their `show -json` documents,
a few plan JSONs and the schema cache they are typed by.

    python3 benches/fleet/generate.py --seed 32 --states 2000 --out target/fleet/big --plans 20

Layout of DIR (every path `/`-separated, workspaces `team-<t>/<app>-<env>`):

    DIR/states/<workspace>/terraform.tfstate        raw v4 state, as Terraform writes it
    DIR/show-json/<workspace>/terraform.tfstate.json its `show -json` document
    DIR/plans/<workspace>/plan.json                 `show -json` of a plan against that state
    DIR/schemas/<host>/<namespace>/<type>/<version>.json   the schema cache (`tfwire schema add`)

The `show -json` documents and plans are written by this generator from its own model of
each state, never by tfwire: they are what the reference (`reference.py`) reads. Numbers in
the model are Python `int`s (exact at any size) or `float`s whose shortest text is the
intended decimal (`0.1`, `2.5`), so both documents carry the same exact text, as the
clients write integers beyond float64 (`2^70+1`) and short decimals.

Schemas come from corpus/ (see corpus/fleet/README.md for provenance and licences):
the AWS provider's `aws_s3_bucket`, `aws_security_group`, `aws_cloudfront_distribution`
and `aws_acm_certificate` (terraform-cdk's fixtures, MPL-2.0) merged into one provider
filed as version 5.31.0, and an older version 4.67.0 derived from it (`derive_old_aws`:
attributes and blocks removed, one attribute renamed, two resource schema versions
lowered); `hashicorp/local`, `hashicorp/time`, `tfwire/tfwire` and the built-in
`terraform` provider as Terraform 1.16.0 printed them (corpus/real-client-terraform).
`hashicorp/kubernetes` resources appear in states with no schema cached, on purpose.

Only the standard library is used. Output is byte-identical for the same arguments.
"""

import argparse
import base64
import copy
import hashlib
import json
import os
import random
import sys
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(
    ROOT,
    "corpus/schemas/hashicorp__terraform-cdk/packages/@cdktf/provider-generator/lib/get/"
    "__tests__/generator/fixtures",
)
REAL_TF = os.path.join(ROOT, "corpus/real-client-terraform")

AWS = "registry.terraform.io/hashicorp/aws"
LOCAL = "registry.terraform.io/hashicorp/local"
TIME = "registry.terraform.io/hashicorp/time"
TFWIRE = "registry.terraform.io/tfwire/tfwire"
BUILTIN = "terraform.io/builtin/terraform"
K8S = "registry.terraform.io/hashicorp/kubernetes"  # no schema cached: long-form table only

AWS_NEW, AWS_OLD = "5.31.0", "4.67.0"
VERSIONS = {LOCAL: "1.4.0", TIME: "0.14.2", TFWIRE: "1.0.0", BUILTIN: "1.16.0"}

TEAMS = [
    "payments", "search", "identity", "platform", "data", "growth", "mobile", "infra",
    "billing", "ml", "security", "support", "web", "ads", "media", "maps", "mail",
    "catalog", "checkout", "risk", "ledger", "edge", "observability", "devex", "legal",
]
APPS = [
    "api", "web", "worker", "batch", "gateway", "cache", "ingest", "reports", "auth",
    "console", "export", "sync", "notify", "assets", "cdn", "etl", "portal", "admin",
    "queue", "audit",
]
ENVS = ["prod", "staging", "dev", "qa"]
REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-2"]
TF_VERSIONS = ["1.5.7", "1.9.8", "1.16.0"]

# Numbers beyond float64: 2^70 + k fits Decimal128(38, 9) exactly (22 digits) but not a
# double; 2^100 + k (31 integer digits) fits no Decimal128(38, 9) and goes to
# `inexact_numbers`.
BIG = 2**70
HUGE = 2**100


# ---------------------------------------------------------------- schemas


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def aws_new():
    """The AWS provider of the fixtures, one document: provider block and four resources."""
    provider = load_json(os.path.join(FIXTURES, "aws-provider.test.fixture.json"))
    schema = {"provider": provider["provider_schemas"][AWS]["provider"], "resource_schemas": {}}
    for name in ["aws_acm_certificate", "aws_cloudfront_distribution", "aws_s3_bucket", "aws_security_group"]:
        doc = load_json(os.path.join(FIXTURES, name + ".test.fixture.json"))
        schema["resource_schemas"][name] = doc["provider_schemas"][AWS]["resource_schemas"][name]
    return schema


# What the older AWS version lacks (removed), renames (old name ← new name) and its
# resource schema versions. A state written by 4.67.0 has exactly these attributes.
OLD_AWS_REMOVED = {
    "aws_s3_bucket": ["bucket_regional_domain_name", "object_lock_configuration"],
    "aws_security_group": ["revoke_rules_on_delete"],
    "aws_cloudfront_distribution": ["origin_group", "http_version"],
    "aws_acm_certificate": ["options"],
}
OLD_AWS_RENAMED = {"aws_cloudfront_distribution": {"is_ipv6_enabled": "ipv6_enabled"}}
OLD_AWS_SCHEMA_VERSION = {"aws_security_group": 0, "aws_cloudfront_distribution": 0}


def derive_old_aws(new):
    old = copy.deepcopy(new)
    for rtype, s in old["resource_schemas"].items():
        block = s["block"]
        for name in OLD_AWS_REMOVED.get(rtype, []):
            block.get("attributes", {}).pop(name, None)
            block.get("block_types", {}).pop(name, None)
        for new_name, old_name in OLD_AWS_RENAMED.get(rtype, {}).items():
            attrs = block["attributes"]
            attrs[old_name] = attrs.pop(new_name)
            block["attributes"] = dict(sorted(attrs.items()))
        if rtype in OLD_AWS_SCHEMA_VERSION:
            s["version"] = OLD_AWS_SCHEMA_VERSION[rtype]
    return old


def real_provider(addr, scenario):
    return load_json(os.path.join(REAL_TF, scenario, "schemas.json"))["provider_schemas"][addr]


def provider_schemas():
    """{(address, version): provider schema object}."""
    new = aws_new()
    return {
        (AWS, AWS_NEW): new,
        (AWS, AWS_OLD): derive_old_aws(new),
        (LOCAL, VERSIONS[LOCAL]): real_provider(LOCAL, "drift"),
        (TIME, VERSIONS[TIME]): real_provider(TIME, "drift"),
        (TFWIRE, VERSIONS[TFWIRE]): real_provider(TFWIRE, "drift"),
        (BUILTIN, VERSIONS[BUILTIN]): real_provider(BUILTIN, "config-defaults"),
    }


def write_schema_cache(out, schemas):
    """The cache as `tfwire schema add` files it: one provider per document."""
    for (addr, version), schema in sorted(schemas.items()):
        path = os.path.join(out, "schemas", *addr.split("/"), version + ".json")
        text = '{"format_version":"1.0","provider_schemas":{"%s":%s}}\n' % (
            addr,
            json.dumps(schema, separators=(",", ":"), ensure_ascii=False),
        )
        write(path, text)


# ---------------------------------------------------------------- values


class Gen:
    """Values for one state, from one seeded generator."""

    def __init__(self, rng):
        self.rng = rng

    def hex(self, n=12):
        return "%0*x" % (n, self.rng.getrandbits(4 * n))

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, xs):
        return xs[self.rng.randrange(len(xs))]

    def value(self, ty, hint):
        """A value of cty type `ty` (schema JSON form)."""
        r = self.rng
        if ty == "string":
            return "%s-%s" % (hint, self.hex(8))
        if ty == "number":
            return r.randrange(0, 3600)
        if ty == "bool":
            return r.random() < 0.5
        if ty == "dynamic":
            return None
        kind = ty[0]
        if kind in ("list", "set"):
            n = r.randrange(0, 4)
            xs = [self.value(ty[1], hint) for _ in range(n)]
            if kind == "set" and ty[1] in ("string", "number", "bool"):
                xs = sorted(set(xs), key=lambda x: (str(type(x)), x))
            return xs
        if kind == "map":
            n = r.randrange(0, 4)
            return {"k%d" % i: self.value(ty[1], hint) for i in range(n)}
        if kind == "object":
            return {k: self.value(t, k) for k, t in sorted(ty[1].items())}
        raise ValueError("unsupported type %r" % (ty,))

    def block(self, block, fill=0.6):
        """An object for a schema block: required and computed attributes set, optional ones
        set with probability `fill`, nested blocks as their nesting mode says."""
        out = {}
        for name, a in block.get("attributes", {}).items():
            if "type" not in a:
                out[name] = None
                continue
            if a.get("required") or (a.get("computed") and not a.get("optional")) or self.chance(fill):
                out[name] = self.value(a["type"], name)
            else:
                out[name] = None
        for name, b in block.get("block_types", {}).items():
            mode = b["nesting_mode"]
            lo = b.get("min_items", 0) or 0
            hi = b.get("max_items", 0) or 0
            if mode in ("single", "group"):
                out[name] = self.block(b["block"], fill) if (lo or self.chance(0.5)) else None
                continue
            top = hi if hi else 2
            n = max(lo, min(top, self.rng.randrange(0, top + 1)))
            items = [self.block(b["block"], fill * 0.8) for _ in range(n)]
            out[name] = {("k%d" % i): v for i, v in enumerate(items)} if mode == "map" else items
        return dict(sorted(out.items()))


def unique(xs):
    """A set's elements: equal elements are one (the first kept)."""
    seen, out = set(), []
    for x in xs:
        k = json.dumps(x, sort_keys=True)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


def conform(block, attrs):
    """`attrs` with exactly the attributes and blocks of `block` (sorted), nested too."""
    out = {}
    for name in block.get("attributes", {}):
        out[name] = attrs.get(name)
    for name, b in block.get("block_types", {}).items():
        v = attrs.get(name)
        if b["nesting_mode"] in ("single", "group"):
            out[name] = conform(b["block"], v) if v is not None else None
        elif b["nesting_mode"] == "map":
            out[name] = {k: conform(b["block"], x) for k, x in (v or {}).items()}
        else:
            items = [conform(b["block"], x) for x in (v or [])]
            out[name] = unique(items) if b["nesting_mode"] == "set" else items
    for name, a in block.get("attributes", {}).items():
        t = a.get("type")
        if isinstance(t, list) and t[0] == "set" and isinstance(out[name], list):
            out[name] = unique(out[name])
    return dict(sorted(out.items()))


# ---------------------------------------------------------------- the model of one state


class Instance:
    __slots__ = ("module", "mode", "type", "name", "key", "provider", "schema_version", "attrs",
                 "sensitive", "private", "deps", "status", "deposed", "cbd")

    def __init__(self, module, mode, type_, name, key, provider, schema_version, attrs,
                 sensitive=(), private=None, deps=(), status=None, deposed=None, cbd=False):
        self.module = module
        self.mode = mode
        self.type = type_
        self.name = name
        self.key = key
        self.provider = provider
        self.schema_version = schema_version
        self.attrs = attrs
        self.sensitive = sorted(sensitive)
        self.private = private
        self.deps = sorted(deps)
        self.status = status
        self.deposed = deposed
        self.cbd = cbd

    def address(self):
        base = ("data.%s.%s" if self.mode == "data" else "%s.%s") % (self.type, self.name)
        if self.key is not None:
            base += "[%s]" % key_text(self.key)
        return (self.module + "." + base) if self.module else base

    def resource_address(self):
        base = ("data.%s.%s" if self.mode == "data" else "%s.%s") % (self.type, self.name)
        return (self.module + "." + base) if self.module else base


def key_text(key):
    return str(key) if isinstance(key, int) else json.dumps(key)


def workspace_of(i):
    """The i-th workspace, `team-<team>/<app>-<env>`: every (team, app, env) once, in an order
    fixed by a constant shuffle (so a small fleet already spans teams, apps and
    environments), then again with a round number (`api2-prod`)."""
    combos = [(t, a, e) for t in TEAMS for a in APPS for e in ENVS]
    random.Random("fleet-workspaces").shuffle(combos)
    team, app, env = combos[i % len(combos)]
    rnd = i // len(combos)
    return "team-%s/%s-%s" % (team, app if rnd == 0 else "%s%d" % (app, rnd + 1), env)


def sizes_for(rng, scale):
    """How many objects of each kind a state holds: most workspaces are small, a few large;
    `scale` multiplies every count (at least one bucket, security group and record)."""
    big = rng.choice([1, 1, 1, 2, 2, 3, 4, 6, 10]) * scale

    def n(lo, hi, least=0):
        return max(least, int(rng.randrange(lo, hi) * big + 0.5))

    return {
        "buckets": n(2, 9, 1),
        "sgs": n(2, 7, 1),
        "sg_rules": rng.randrange(2, 9),
        "cdns": max(0, int(rng.randrange(0, 3) * max(1, big / 2) + 0.5)),
        "records": n(3, 12, 1),
        "k8s": rng.randrange(0, 4),
    }


def build_state(seed, i, schemas, scale):
    rng = random.Random("%s:%d" % (seed, i))
    g = Gen(rng)
    ws = workspace_of(i)
    team, app_env = ws.split("/")
    team = team[len("team-"):]
    app, env = app_env.rsplit("-", 1)
    old = rng.random() < 0.25
    aws_version = AWS_OLD if old else AWS_NEW
    aws = schemas[(AWS, aws_version)]["resource_schemas"]
    region = g.pick(REGIONS)
    account = "%012d" % rng.randrange(10**11, 10**12)
    tfv = g.pick(TF_VERSIONS)
    n = sizes_for(rng, scale)
    insts = []
    aws_provider = 'provider["%s"]' % AWS
    private_aws = base64.b64encode(b'{"schema_version":"1"}').decode()

    def tags(extra=None):
        t = {"Team": team, "App": app, "ManagedBy": "terraform"}
        if rng.random() < 0.9:
            t["Environment"] = g.pick({"prod": ["prod", "prod", "production", "Prod"], "staging": ["staging"],
                                       "dev": ["dev", "development"], "qa": ["qa"]}[env])
        if rng.random() < 0.7:
            t["CostCenter"] = "cc-%04d" % rng.randrange(10000)
        if rng.random() < 0.1:
            t["Owner"] = g.pick(["Zoë Ångström", "José Núñez", "Łukasz Żak", "ops"])
        if extra:
            t.update(extra)
        return dict(sorted(t.items()))

    # S3 buckets in module.storage, for_each over names.
    bucket_names = sorted({"%s-%s" % (g.pick(["logs", "assets", "backups", "uploads", "exports", "static",
                                                 "artifacts", "reports", "media", "archive"]), g.hex(4))
                           for _ in range(n["buckets"])})
    buckets = {}
    sensitive_policy = rng.random() < 0.15
    for key in bucket_names:
        s = aws["aws_s3_bucket"]["block"]
        a = g.block(s, fill=0.35)
        name = "%s-%s-%s-%s" % (team, app, env, key)
        acl = rng.choices(["private", "public-read", "log-delivery-write", "authenticated-read", None],
                          [60, 12, 8, 5, 15])[0]
        a.update({
            "id": name, "bucket": name, "arn": "arn:aws:s3:::" + name, "acl": acl, "region": region,
            "bucket_domain_name": name + ".s3.amazonaws.com",
            "bucket_regional_domain_name": "%s.s3.%s.amazonaws.com" % (name, region),
            "hosted_zone_id": "Z3AQBSTGFYJSTF", "force_destroy": rng.random() < 0.3,
            "tags": tags() if rng.random() < 0.92 else None,
            "policy": None, "bucket_prefix": None,
        })
        if rng.random() < 0.3 or (sensitive_policy and rng.random() < 0.5):
            a["policy"] = json.dumps({"Version": "2012-10-17", "Statement": [{
                "Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::%s:root" % account},
                "Action": ["s3:GetObject"], "Resource": "arn:aws:s3:::%s/*" % name}]}, separators=(",", ":"))
        sse = rng.choices(["AES256", "aws:kms", "aws:kms:dsse", None], [50, 25, 3, 22])[0]
        a["server_side_encryption_configuration"] = [] if sse is None else [{"rule": [{
            "apply_server_side_encryption_by_default": [{
                "kms_master_key_id": ("arn:aws:kms:%s:%s:key/%s" % (region, account, g.hex(32)))
                if sse.startswith("aws:kms") else None,
                "sse_algorithm": sse}]}]}]
        sens = ["policy"] if sensitive_policy and a["policy"] is not None else []
        a = conform(s, a)
        buckets[key] = a
        insts.append(Instance("module.storage", "managed", "aws_s3_bucket", "this", key, aws_provider,
                              aws["aws_s3_bucket"].get("version", 0), a, sens))

    # Security groups in module.network.module.sg[N] (count inside a nested module).
    vpc = "vpc-" + g.hex(17)
    for k in range(n["sgs"]):
        s = aws["aws_security_group"]["block"]
        sg_id = "sg-" + g.hex(17)
        rules = []
        for _ in range(rng.randrange(1, n["sg_rules"] + 1)):
            port = g.pick([22, 80, 443, 3306, 5432, 6379, 8080, 9090])
            wide = rng.random() < 0.2
            lo = port if not wide else g.pick([0, 20, 1024])
            hi = port if not wide else g.pick([65535, 100, 2000])
            rules.append({
                "cidr_blocks": ["0.0.0.0/0"] if rng.random() < 0.25 else
                sorted({"10.%d.0.0/16" % rng.randrange(256) for _ in range(rng.randrange(1, 4))}),
                "description": g.pick(["ssh", "http", "https", "db", "cache", "", "admin"]),
                "from_port": lo, "ipv6_cidr_blocks": [], "prefix_list_ids": [],
                "protocol": g.pick(["tcp", "tcp", "tcp", "udp"]), "security_groups": [],
                "self": rng.random() < 0.1, "to_port": hi,
            })
        a = {
            "arn": "arn:aws:ec2:%s:%s:security-group/%s" % (region, account, sg_id),
            "description": "Managed by Terraform", "egress": [{
                "cidr_blocks": ["0.0.0.0/0"], "description": "", "from_port": 0, "ipv6_cidr_blocks": [],
                "prefix_list_ids": [], "protocol": "-1", "security_groups": [], "self": False, "to_port": 0}],
            "id": sg_id, "ingress": rules, "name": "%s-%s-%d" % (app, env, k), "name_prefix": "",
            "owner_id": account, "revoke_rules_on_delete": False, "tags": tags(), "vpc_id": vpc,
            "timeouts": None,
        }
        insts.append(Instance("module.network.module.sg[%d]" % (k // 4), "managed", "aws_security_group",
                              "this", k % 4, aws_provider,
                              aws["aws_security_group"].get("version", 0), conform(s, a),
                              private=private_aws))

    # CloudFront distributions with their certificates in module.cdn["<site>"].
    cert_arns = {}
    for k in range(n["cdns"]):
        site = "%s%d" % (g.pick(["www", "static", "docs", "app", "img"]), k)
        mod = 'module.cdn["%s"]' % site
        domain = "%s.%s.example.com" % (site, app)
        cs = aws["aws_acm_certificate"]["block"]
        cert_id = "%s-%s-%s-%s-%s" % (g.hex(8), g.hex(4), g.hex(4), g.hex(4), g.hex(12))
        cert_arn = "arn:aws:acm:us-east-1:%s:certificate/%s" % (account, cert_id)
        imported = rng.random() < 0.3
        ca = g.block(cs, fill=0.3)
        ca.update({
            "arn": cert_arn, "id": cert_arn, "domain_name": domain,
            "subject_alternative_names": [domain, "*." + domain] if rng.random() < 0.5 else [domain],
            "validation_method": None if imported else g.pick(["DNS", "DNS", "EMAIL"]),
            "certificate_body": ("-----BEGIN CERTIFICATE-----\nMII%s\n-----END CERTIFICATE-----\n" % g.hex(64))
            if imported else None,
            "certificate_chain": None, "certificate_authority_arn": None,
            "private_key": ("-----BEGIN RSA PRIVATE KEY-----\nMII%s\n-----END RSA PRIVATE KEY-----\n" % g.hex(64))
            if imported else None,
            "domain_validation_options": [] if imported else [{
                "domain_name": domain, "resource_record_name": "_%s.%s." % (g.hex(32), domain),
                "resource_record_type": "CNAME", "resource_record_value": "_%s.acm-validations.aws." % g.hex(32)}],
            "validation_emails": [], "tags": tags(),
        })
        # Some certificates were being replaced (create_before_destroy) when the apply
        # stopped: the old object is still there, deposed.
        deposed = rng.random() < 0.15
        insts.append(Instance(mod, "managed", "aws_acm_certificate", "this", None, aws_provider,
                              aws["aws_acm_certificate"].get("version", 0), conform(cs, ca),
                              ["private_key"], cbd=deposed))
        if deposed:
            old_arn = "arn:aws:acm:us-east-1:%s:certificate/%s-%s-%s-%s-%s" % (
                account, g.hex(8), g.hex(4), g.hex(4), g.hex(4), g.hex(12))
            oa = dict(ca, arn=old_arn, id=old_arn)
            insts.append(Instance(mod, "managed", "aws_acm_certificate", "this", None, aws_provider,
                                  aws["aws_acm_certificate"].get("version", 0), conform(cs, oa),
                                  ["private_key"], deposed=g.hex(8)))
        cert_arns[site] = cert_arn
        ds = aws["aws_cloudfront_distribution"]["block"]
        da = g.block(ds, fill=0.5)
        origin_bucket = buckets[g.pick(bucket_names)]
        dist_id = "E" + g.hex(13).upper()
        ipv6 = rng.random() < 0.6
        da.update({
            "id": dist_id, "arn": "arn:aws:cloudfront::%s:distribution/%s" % (account, dist_id),
            "domain_name": "d%s.cloudfront.net" % g.hex(13), "enabled": rng.random() < 0.95,
            "aliases": [domain], "tags": tags(), "status": "Deployed", "etag": "E" + g.hex(13).upper(),
            "hosted_zone_id": "Z2FDTNDATAQYW2", "price_class": g.pick(["PriceClass_All", "PriceClass_100"]),
            "in_progress_validation_batches": 0, "is_ipv6_enabled": ipv6,
            "viewer_certificate": [{
                "acm_certificate_arn": cert_arn if rng.random() < 0.9 else None,
                "cloudfront_default_certificate": False, "iam_certificate_id": None,
                "minimum_protocol_version": "TLSv1.2_2021", "ssl_support_method": "sni-only"}],
        })
        if old:
            da["ipv6_enabled"] = ipv6
        for o in da.get("origin") or []:
            o["domain_name"] = origin_bucket.get("bucket_domain_name")
        insts.append(Instance(mod, "managed", "aws_cloudfront_distribution", "this", None, aws_provider,
                              aws["aws_cloudfront_distribution"].get("version", 0), conform(ds, da),
                              private=private_aws,
                              deps=[mod + ".aws_acm_certificate.this", "module.storage.aws_s3_bucket.this"]))

    # tfwire_record: the numbers (sizes, some beyond float64 and some beyond Decimal128(38, 9)).
    rec_schema = schemas[(TFWIRE, VERSIONS[TFWIRE])]["resource_schemas"]["tfwire_record"]["block"]
    for k in range(n["records"]):
        roll = rng.random()
        if roll < 0.04:
            size = BIG + rng.randrange(1, 1000)
        elif roll < 0.05:
            size = HUGE + rng.randrange(1, 1000)
        elif roll < 0.13:
            size = g.pick([0.1, 0.2, 0.3, 2.5, 1.25, 99.99])
        elif roll < 0.16:
            size = None
        else:
            size = rng.randrange(0, 5 * 10**9)
        path = "store/%s/%s-%d.json" % (app, g.hex(6), k)
        a = {"id": "record-" + g.hex(12), "path": path, "size": size,
             "tags": {"kind": g.pick(["manifest", "lock", "index"])} if rng.random() < 0.5 else None,
             "value": "v" + g.hex(16)}
        insts.append(Instance("", "managed", "tfwire_record", "r", k, 'provider["%s"]' % TFWIRE, 0,
                              conform(rec_schema, a), status="tainted" if rng.random() < 0.03 else None))

    # time_static, a local_file (sensitive content), a data source, terraform_data (dynamic).
    ts = rng.randrange(1600000000, 1760000000)
    ta = {"day": 1 + ts % 28, "hour": ts % 24, "id": "2024-01-01T00:00:00Z", "minute": ts % 60,
          "month": 1 + ts % 12, "rfc3339": "2024-01-01T00:00:00Z", "second": ts % 60, "triggers": None,
          "unix": ts, "year": 2020 + ts % 6}
    insts.append(Instance("", "managed", "time_static", "created", None, 'provider["%s"]' % TIME, 0,
                          dict(sorted(ta.items()))))
    content = "generated for %s\n" % ws
    lf = {"content": content, "content_base64": None, "directory_permission": "0777",
          "file_permission": "0644", "filename": "out/%s.env" % app,
          "id": hashlib.sha1(content.encode()).hexdigest(),
          "sensitive_content": ("TOKEN=%s\n" % g.hex(24)) if rng.random() < 0.5 else None}
    insts.append(Instance("", "managed", "local_file", "env", None, 'provider["%s"]' % LOCAL, 0, lf,
                          ["sensitive_content"]))
    motd = "welcome to %s\n" % app
    insts.append(Instance("", "data", "local_file", "motd", None, 'provider["%s"]' % LOCAL, 0,
                          {"content": motd, "content_base64": base64.b64encode(motd.encode()).decode(),
                           "filename": "motd.txt", "id": hashlib.sha1(motd.encode()).hexdigest()}))
    insts.append(Instance("", "managed", "terraform_data", "release", None,
                          'provider["%s"]' % BUILTIN, 0,
                          {"id": "%s-%s-%s-%s-%s" % (g.hex(8), g.hex(4), g.hex(4), g.hex(4), g.hex(12)),
                           "input": {"value": {"replicas": rng.randrange(1, 9),
                                               "version": "1.%d.%d" % (rng.randrange(30), rng.randrange(10))},
                                     "type": ["object", {"replicas": "number", "version": "string"}]},
                           "output": {"value": {"replicas": 1, "version": "1.0.0"},
                                      "type": ["object", {"replicas": "number", "version": "string"}]},
                           "store": None, "triggers_replace": None}))
    for k in range(n["k8s"]):
        ns = "%s-%s-%d" % (app, env, k)
        insts.append(Instance("module.k8s", "managed", "kubernetes_namespace", "ns", ns,
                              'provider["%s"]' % K8S, 0,
                              {"id": ns, "metadata": [{"annotations": None, "generate_name": "",
                                                       "generation": 0, "labels": {"team": team},
                                                       "name": ns, "resource_version": str(rng.randrange(10**6)),
                                                       "uid": g.hex(32)}],
                               "timeouts": None, "wait_for_default_service_account": False}))

    insts.sort(key=lambda x: (x.module, x.mode, x.type, x.name, sort_key(x.key)))
    outputs = {}
    outputs["bucket_arns"] = {"value": sorted(b["arn"] for b in buckets.values()),
                              "type": ["list", "string"]}
    outputs["region"] = {"value": region, "type": "string"}
    if cert_arns:
        outputs["certificate_arns"] = {"value": dict(sorted(cert_arns.items())),
                                       "type": ["map", "string"]}
    if rng.random() < 0.6:
        outputs["db_password"] = {"value": g.hex(20), "type": "string", "sensitive": True}
    if rng.random() < 0.3:
        outputs["admin"] = {"value": {"token": g.hex(16), "user": "admin"},
                            "type": ["object", {"token": "string", "user": "string"}], "sensitive": True}
    outputs["record_count"] = {"value": n["records"], "type": "number"}
    if rng.random() < 0.1:
        outputs["total_bytes"] = {"value": BIG + rng.randrange(1000), "type": "number"}
    state = {
        "version": 4, "terraform_version": tfv, "serial": rng.randrange(1, 800),
        "lineage": "%s-%s-%s-%s-%s" % (g.hex(8), g.hex(4), g.hex(4), g.hex(4), g.hex(12)),
        "outputs": dict(sorted(outputs.items())), "insts": insts,
    }
    return ws, state


def sort_key(key):
    if key is None:
        return (0, 0, "")
    if isinstance(key, int):
        return (1, key, "")
    return (2, 0, key)


# ---------------------------------------------------------------- documents


def tfstate_doc(state):
    resources = []
    for inst in state["insts"]:
        if resources and resources[-1][0] == inst.resource_address():
            res = resources[-1][1]
        else:
            res = {}
            if inst.module:
                res["module"] = inst.module
            res.update({"mode": inst.mode, "type": inst.type, "name": inst.name, "provider": inst.provider,
                        "instances": []})
            resources.append((inst.resource_address(), res))
        obj = {}
        if inst.key is not None:
            obj["index_key"] = inst.key
        if inst.status:
            obj["status"] = inst.status
        if inst.deposed:
            obj["deposed"] = inst.deposed
        obj["schema_version"] = inst.schema_version
        obj["attributes"] = inst.attrs
        obj["sensitive_attributes"] = [[{"type": "get_attr", "value": a}] for a in inst.sensitive]
        if state["terraform_version"] == "1.16.0":
            obj["identity_schema_version"] = 0
        if inst.private:
            obj["private"] = inst.private
        if inst.deps:
            obj["dependencies"] = inst.deps
        if inst.cbd:
            obj["create_before_destroy"] = True
        res["instances"].append(obj)
    return {
        "version": 4, "terraform_version": state["terraform_version"], "serial": state["serial"],
        "lineage": state["lineage"], "outputs": state["outputs"], "resources": [r for _, r in resources],
        "check_results": None,
    }


def sens_tree(v, sensitive):
    """`sensitive_values` of one value (the clients' SensitiveAsBool)."""
    if sensitive:
        return True
    if isinstance(v, list):
        return [sens_tree(x, False) for x in v]
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            t = sens_tree(x, False)
            if t is not False:
                out[k] = t
        return out
    return False


def show_values(inst):
    """An object's attributes as `show -json` prints them: dynamic values without their
    `{"value", "type"}` wrapper."""
    vals = {}
    for k, v in inst.attrs.items():
        if isinstance(v, dict) and set(v) == {"value", "type"} and inst.type == "terraform_data":
            v = v["value"]
        vals[k] = v
    return vals


def sensitive_values(inst, vals):
    out = {}
    for k, v in vals.items():
        t = sens_tree(v, k in inst.sensitive)
        if t is not False:
            out[k] = t
    return out


def show_resource(inst, vals=None):
    if vals is None:
        vals = show_values(inst)
    r = {"address": inst.address(), "mode": inst.mode, "type": inst.type, "name": inst.name}
    if inst.key is not None:
        r["index"] = inst.key
    r["provider_name"] = inst.provider[len('provider["'):-2]
    r["schema_version"] = inst.schema_version
    r["values"] = vals
    r["sensitive_values"] = sensitive_values(inst, vals)
    if inst.deps:
        r["depends_on"] = inst.deps
    if inst.status == "tainted":
        r["tainted"] = True
    if inst.deposed:
        r["deposed_key"] = inst.deposed
    return r


def module_tree(entries):
    """`root_module` from [(module address, resource JSON)], child modules nested by address;
    the entries come in the order the clients print them (by resource address, then key)."""
    root = {"resources": [], "children": {}}

    def parts(addr):
        out, cur = [], ""
        for seg in split_module(addr):
            cur = seg if not cur else cur + "." + seg
            out.append(cur)
        return out

    for mod, res in entries:
        node = root
        for p in parts(mod) if mod else []:
            node = node["children"].setdefault(p, {"resources": [], "children": {}})
        node["resources"].append(res)

    def emit(node, addr):
        out = {}
        if node["resources"]:
            out["resources"] = node["resources"]
        if addr:
            out["address"] = addr
        if node["children"]:
            out["child_modules"] = [emit(node["children"][k], k) for k in sorted(node["children"])]
        return out

    return emit(root, "")


def show_order(insts):
    """Instances in the clients' `show -json` order: by resource address, then instance key."""
    return sorted(insts, key=lambda x: (x.resource_address(), sort_key(x.key)))


def split_module(addr):
    """`module.a["x.y"].module.b` → ['module.a["x.y"]', 'module.b'] (dots inside keys kept)."""
    segs, cur, depth, i = [], "", 0, 0
    while i < len(addr):
        c = addr[i]
        if c == '"':
            j = addr.index('"', i + 1)
            cur += addr[i:j + 1]
            i = j + 1
            continue
        if c == "." and depth == 0 and addr.startswith(".module.", i):
            segs.append(cur)
            cur = ""
            i += 1
            continue
        cur += c
        i += 1
    segs.append(cur)
    return segs


def show_outputs(outputs):
    return {k: {"sensitive": bool(o.get("sensitive")), "value": o["value"], "type": o["type"]}
            for k, o in outputs.items()}


def show_state_doc(state):
    return {
        "format_version": "1.0", "terraform_version": state["terraform_version"],
        "values": {"outputs": show_outputs(state["outputs"]),
                   "root_module": module_tree([(i.module, show_resource(i)) for i in show_order(state["insts"])])},
    }


# ---------------------------------------------------------------- plans

UNKNOWN_ON_CREATE = {
    "aws_s3_bucket": ["arn", "bucket_domain_name", "bucket_regional_domain_name", "hosted_zone_id", "id",
                      "region"],
    "aws_security_group": ["arn", "id", "owner_id"],
    "tfwire_record": ["id", "size"],
}


def plan_doc(seed, i, ws, state, schemas):
    rng = random.Random("%s:plan:%d" % (seed, i))
    changes, drift, planned = [], [], []
    for inst in show_order(state["insts"]):
        if inst.mode == "data":
            continue
        before = show_values(inst)
        roll = rng.random()
        after = copy.deepcopy(before)
        unknown = {}
        if inst.deposed:
            actions = ["delete"]
            after = None
        elif roll < 0.70:
            actions = ["no-op"]
        elif roll < 0.88 and "tags" in after:
            actions = ["update"]
            after["tags"] = dict(sorted(dict(after["tags"] or {}, LastReviewed="2026-11").items()))
            if inst.type == "aws_s3_bucket" and rng.random() < 0.3:
                after["acl"] = "private"
        elif roll < 0.93 and inst.type in UNKNOWN_ON_CREATE:
            actions = rng.choice([["delete", "create"], ["create", "delete"]])
            for k in UNKNOWN_ON_CREATE[inst.type]:
                after.pop(k, None)
                unknown[k] = True
        elif roll < 0.96:
            actions = ["delete"]
            after = None
        else:
            actions = ["no-op"]
        if not inst.deposed and rng.random() < 0.03 and "tags" in before and before["tags"] is not None:
            drifted = copy.deepcopy(before)
            drifted["tags"] = dict(sorted(dict(before["tags"], ChangedBy="console").items()))
            drift.append(change_entry(inst, ["update"], before, drifted, {}))
        changes.append(change_entry(inst, actions, before, after, unknown))
        if after is not None:
            planned.append((inst, show_resource(inst, after)))
    # New buckets: values unknown until apply.
    aws_version = AWS_NEW if any(x.type == "aws_security_group" and x.schema_version == 1
                                 for x in state["insts"]) else AWS_OLD
    s = schemas[(AWS, aws_version)]["resource_schemas"]["aws_s3_bucket"]
    for k in range(rng.randrange(1, 4)):
        key = "new-%d" % k
        inst = Instance("module.storage", "managed", "aws_s3_bucket", "this", key, 'provider["%s"]' % AWS,
                        s.get("version", 0), {})
        after = conform(s["block"], {"acl": rng.choice(["private", "public-read"]), "force_destroy": False,
                                     "tags": {"Team": ws.split("/")[0][5:]}})
        unknown = {}
        for name in UNKNOWN_ON_CREATE["aws_s3_bucket"] + ["bucket"]:
            if name in after:
                after.pop(name)
                unknown[name] = True
        changes.append(change_entry(inst, ["create"], None, after, unknown))
        planned.append((inst, show_resource(inst, after)))
    changes.sort(key=lambda c: c["address"])
    outputs = show_outputs(state["outputs"])
    output_changes = {}
    for name, o in outputs.items():
        output_changes[name] = {"actions": ["no-op"], "before": o["value"], "after": o["value"],
                                "after_unknown": False, "before_sensitive": o["sensitive"],
                                "after_sensitive": o["sensitive"]}
    output_changes["new_bucket_arns"] = {"actions": ["create"], "before": None, "after_unknown": True,
                                         "before_sensitive": False, "after_sensitive": False}
    doc = {
        "format_version": "1.2", "terraform_version": state["terraform_version"],
        "planned_values": {"outputs": {k: {"sensitive": o["sensitive"], "value": o["value"]}
                                       for k, o in outputs.items()},
                           "root_module": module_tree(
                               [(x.module, r) for x, r in sorted(
                                   planned, key=lambda e: (e[0].resource_address(), sort_key(e[0].key)))])},
    }
    if drift:
        doc["resource_drift"] = drift
    doc["resource_changes"] = changes
    doc["output_changes"] = dict(sorted(output_changes.items()))
    doc["prior_state"] = show_state_doc(state)
    providers = sorted({x.provider[len('provider["'):-2] for x in state["insts"]})
    doc["configuration"] = {"provider_config": {p.split("/")[-1]: {"name": p.split("/")[-1], "full_name": p}
                                                for p in providers}, "root_module": {}}
    doc["timestamp"] = "2026-11-20T10:%02d:%02dZ" % (i // 60 % 60, i % 60)
    doc["applyable"] = True
    doc["complete"] = True
    doc["errored"] = False
    return doc


def change_entry(inst, actions, before, after, unknown):
    return {
        "address": inst.address(), "mode": inst.mode, "type": inst.type, "name": inst.name,
        **({"index": inst.key} if inst.key is not None else {}),
        "provider_name": inst.provider[len('provider["'):-2],
        **({"deposed": inst.deposed} if inst.deposed else {}),
        "change": {
            "actions": actions, "before": before, "after": after, "after_unknown": unknown,
            "before_sensitive": sensitive_values(inst, before) if before is not None else False,
            "after_sensitive": sensitive_values(inst, after) if after is not None else False,
        },
    }


# ---------------------------------------------------------------- writing


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, path)


def go_indent(doc):
    """Go's json.MarshalIndent(doc, "", "  "): raw UTF-8, `<>&` escaped."""
    s = json.dumps(doc, indent=2, ensure_ascii=False)
    return s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026") + "\n"


def go_compact(doc):
    """The clients' `show -json`: compact, non-ASCII escaped as \\uXXXX, `<>&` escaped."""
    s = json.dumps(doc, separators=(",", ":"), ensure_ascii=True)
    return s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026") + "\n"


SCHEMAS = None


def job(args):
    seed, i, out, plan, scale = args
    ws, state = build_state(seed, i, SCHEMAS, scale)
    text = go_indent(tfstate_doc(state))
    write(os.path.join(out, "states", ws, "terraform.tfstate"), text)
    write(os.path.join(out, "show-json", ws, "terraform.tfstate.json"), go_compact(show_state_doc(state)))
    if plan:
        write(os.path.join(out, "plans", ws, "plan.json"), go_compact(plan_doc(seed, i, ws, state, SCHEMAS)))
    return len(text.encode("utf-8"))


def init(schemas):
    global SCHEMAS
    SCHEMAS = schemas


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", required=True)
    p.add_argument("--states", type=int, required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--plans", type=int, default=0, help="how many states also get a plan JSON")
    p.add_argument("--scale", type=float, default=2.0,
                   help="multiplies the number of objects per state (2.0: ~310 KB a state on average)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = p.parse_args()
    if a.states < 1 or a.plans < 0 or a.plans > a.states:
        p.error("need 1 <= --states and 0 <= --plans <= --states")
    schemas = provider_schemas()
    write_schema_cache(a.out, schemas)
    step = a.states // a.plans if a.plans else 0
    planned = {k * step for k in range(a.plans)}
    work = [(a.seed, i, a.out, i in planned, a.scale) for i in range(a.states)]
    if a.jobs > 1 and a.states > 50:
        with Pool(a.jobs, initializer=init, initargs=(schemas,)) as pool:
            sizes = pool.map(job, work, chunksize=8)
    else:
        init(schemas)
        sizes = [job(w) for w in work]
    print("generate.py: %d states, %d bytes of state files, %d plans, in %s" % (
        a.states, sum(sizes), a.plans, a.out), file=sys.stderr)


if __name__ == "__main__":
    main()
