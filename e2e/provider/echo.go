package main

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// echoDataSource (data.tfwire_echo) returns its dynamic input unchanged plus values derived from it: numbers no
// float64 holds, a non-NFC string and a computed nested list.
type echoDataSource struct{}

var itemObject = map[string]attr.Type{"name": types.StringType, "position": types.NumberType, "even": types.BoolType}

func (*echoDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_echo"
}

func (*echoDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":      schema.StringAttribute{Computed: true},
			"input":   schema.DynamicAttribute{Optional: true},
			"names":   schema.ListAttribute{Optional: true, ElementType: types.StringType},
			"secret":  schema.StringAttribute{Optional: true, Sensitive: true},
			"output":  schema.DynamicAttribute{Computed: true},
			"upper":   schema.ListAttribute{Computed: true, ElementType: types.StringType},
			"numbers": schema.MapAttribute{Computed: true, ElementType: types.NumberType},
			"nfd":     schema.StringAttribute{Computed: true},
			"items": schema.ListNestedAttribute{Computed: true, NestedObject: schema.NestedAttributeObject{
				Attributes: map[string]schema.Attribute{
					"name":     schema.StringAttribute{Computed: true},
					"position": schema.NumberAttribute{Computed: true},
					"even":     schema.BoolAttribute{Computed: true},
				},
			}},
		},
		Blocks: map[string]schema.Block{
			"filter": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
				"name":   schema.StringAttribute{Required: true},
				"values": schema.SetAttribute{Optional: true, ElementType: types.StringType},
			}}},
		},
	}
}

func bigNumber(s string) types.Number {
	f, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
	if err != nil {
		panic(err) // only called with the constants below
	}
	return types.NumberValue(f)
}

func (*echoDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var input types.Dynamic
	var names types.List
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("input"), &input)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("names"), &names)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var list []string
	if !names.IsNull() {
		resp.Diagnostics.Append(names.ElementsAs(ctx, &list, false)...)
	}
	upper := make([]attr.Value, len(list))
	items := make([]attr.Value, len(list))
	for i, n := range list {
		upper[i] = types.StringValue(strings.ToUpper(n))
		items[i] = types.ObjectValueMust(itemObject, map[string]attr.Value{
			"name": types.StringValue(n), "position": types.NumberValue(big.NewFloat(float64(i))),
			"even": types.BoolValue(i%2 == 0),
		})
	}
	key, _ := json.Marshal(list)
	resp.State.Raw = req.Config.Raw
	set := func(p string, v any) { resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(p), v)...) }
	set("id", types.StringValue("echo-"+digest(string(key), input.String())))
	if input.IsNull() {
		set("output", types.DynamicNull())
	} else {
		set("output", input)
	}
	set("upper", types.ListValueMust(types.StringType, upper))
	set("items", types.ListValueMust(types.ObjectType{AttrTypes: itemObject}, items))
	set("nfd", types.StringValue("Cafe\u0301 Noe\u0308l \u1100\u1161\u11a8"))
	set("numbers", types.MapValueMust(types.NumberType, map[string]attr.Value{
		"two_pow_100": bigNumber("1267650600228229401496703205376"),
		"tenth":       bigNumber("0.1"),
		"negative":    bigNumber("-0.00000015"),
		"long_pi":     bigNumber("3.14159265358979323846264338327950288419716939937510"),
		"max_int64":   bigNumber("9223372036854775807"),
		"past_int64":  bigNumber("9223372036854775808"),
		"huge":        bigNumber("1e300"),
		"zero":        bigNumber("0"),
	}))
}
