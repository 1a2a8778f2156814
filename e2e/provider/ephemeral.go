package main

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	eschema "github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// tokenEphemeral (ephemeral "tfwire_token") derives a token from its name: a value that is never stored in a plan
// or a state, for write-only attributes and provider configuration.
type tokenEphemeral struct{}

var _ ephemeral.EphemeralResource = &tokenEphemeral{}

type tokenModel struct {
	Name   types.String `tfsdk:"name"`
	Scopes types.List   `tfsdk:"scopes"`
	Value  types.String `tfsdk:"value"`
	Length types.Int64  `tfsdk:"length"`
}

func (*tokenEphemeral) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_token"
}

func (*tokenEphemeral) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = eschema.Schema{Attributes: map[string]eschema.Attribute{
		"name":   eschema.StringAttribute{Required: true},
		"scopes": eschema.ListAttribute{Optional: true, ElementType: types.StringType},
		"value":  eschema.StringAttribute{Computed: true, Sensitive: true},
		"length": eschema.Int64Attribute{Computed: true},
	}}
}

// Open returns "tok-" and the digest of the name and scopes.
func (*tokenEphemeral) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m tokenModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	parts := []string{m.Name.ValueString()}
	var scopes []string
	resp.Diagnostics.Append(m.Scopes.ElementsAs(ctx, &scopes, true)...)
	parts = append(parts, scopes...)
	v := "tok-" + digest(parts...)
	m.Value = types.StringValue(v)
	m.Length = types.Int64Value(int64(len(v)))
	resp.Diagnostics.Append(resp.Result.Set(ctx, &m)...)
}
