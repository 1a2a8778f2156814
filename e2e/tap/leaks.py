"""The strings no tap log and no redacted cassette may hold (e2e/tap.sh, e2e/replay.sh).

`s3cret` is the sensitive scenario's; the others are e2e/tap/secrets/main.tf's: one in every attribute the tfwire
provider's schema marks sensitive or write-only, and the ephemeral `tfwire_token`'s value ("tok-" and the provider's
digest of its name and scopes), which reaches the provider again in a write-only attribute.
"""

import hashlib

SECRETS = ["s3cret", "tap-leak-provider-secret", "tap-leak-resource-secret", "tap-leak-map-value",
           "tap-leak-write-only", "tap-leak-data-secret",
           "tok-" + hashlib.sha256(b"tap-leak-token\0leak").hexdigest()[:12]]
