//go:build tools

// Package tools pins HashiCorp's local provider (v1.4.0, terraform-plugin-sdk v1, plugin protocol 5), which
// e2e/run.sh builds from this module.
package tools

import _ "github.com/terraform-providers/terraform-provider-local"
