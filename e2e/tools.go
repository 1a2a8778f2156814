//go:build tools

// Package tools pins the programs e2e/run.sh builds from this module (OpenTofu's CLI).
package tools

import _ "github.com/opentofu/opentofu/cmd/tofu"
