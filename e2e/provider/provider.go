package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// tfwireProvider is the framework half of the test provider. Its configuration is used only to exercise the
// provider schema's DynamicValues (ValidateProviderConfig, ConfigureProvider).
type tfwireProvider struct{}

var (
	_ provider.ProviderWithFunctions          = tfwireProvider{}
	_ provider.ProviderWithEphemeralResources = tfwireProvider{}
	_ provider.ProviderWithListResources      = tfwireProvider{}
	_ provider.ProviderWithActions            = tfwireProvider{}
)

func newProvider() provider.Provider { return tfwireProvider{} }

func (tfwireProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "tfwire"
	resp.Version = "1.0.0"
}

func (tfwireProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		Attributes: map[string]schema.Attribute{
			"label":  schema.StringAttribute{Optional: true},
			"tags":   schema.MapAttribute{Optional: true, ElementType: types.StringType},
			"secret": schema.StringAttribute{Optional: true, Sensitive: true},
			"settings": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
				"level": schema.NumberAttribute{Optional: true},
				"modes": schema.SetAttribute{Optional: true, ElementType: types.StringType},
			}},
		},
		Blocks: map[string]schema.Block{
			"feature": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
				"name":    schema.StringAttribute{Required: true},
				"enabled": schema.BoolAttribute{Optional: true},
			}}},
		},
	}
}

func (tfwireProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (tfwireProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		func() resource.Resource { return &shapesResource{} },
		func() resource.Resource { return &recordResource{} },
		func() resource.Resource { return &itemResource{} },
		func() resource.Resource { return &thingResource{} },
	}
}

func (tfwireProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{func() list.ListResource { return &thingList{} }}
}

func (tfwireProvider) Actions(context.Context) []func() action.Action {
	return []func() action.Action{func() action.Action { return &writeAction{} }}
}

func (tfwireProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{func() ephemeral.EphemeralResource { return &tokenEphemeral{} }}
}

func (tfwireProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{
		func() function.Function { return &digestFunction{} },
		func() function.Function { return &summarizeFunction{} },
	}
}

func (tfwireProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		func() datasource.DataSource { return &echoDataSource{} },
		func() datasource.DataSource { return &recordDataSource{} },
	}
}

// digest is the deterministic identifier the provider derives from its inputs: the first 12 hex digits of the
// SHA-256 of the parts joined by NUL.
func digest(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:6])
}
