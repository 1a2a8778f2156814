//go:build tools

// Package main's tools file pins HashiCorp's time provider, which e2e/run.sh builds from this module.
package main

import _ "github.com/hashicorp/terraform-provider-time"
