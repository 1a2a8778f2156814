package main

import (
	"context"
	"math/big"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// digestFunction is provider::tfwire::digest(part, ...): the provider's id digest of its string arguments.
type digestFunction struct{}

func (*digestFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "digest"
}

func (*digestFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary:           "The first 12 hex digits of the SHA-256 of the parts joined by NUL",
		Parameters:        []function.Parameter{function.StringParameter{Name: "first"}},
		VariadicParameter: function.StringParameter{Name: "rest"},
		Return:            function.StringReturn{},
	}
}

func (*digestFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var first string
	var rest []string
	resp.Error = req.Arguments.Get(ctx, &first, &rest)
	if resp.Error != nil {
		return
	}
	resp.Error = resp.Result.Set(ctx, digest(append([]string{first}, rest...)...))
}

// summarizeFunction is provider::tfwire::summarize(numbers, label, options): count and sum of a list of numbers
// (arbitrary precision), a label, upper-cased when options.upper, and the labels' keys sorted.
type summarizeFunction struct{}

var summaryType = map[string]attr.Type{
	"count": types.Int64Type,
	"sum":   types.NumberType,
	"label": types.StringType,
	"keys":  types.ListType{ElemType: types.StringType},
}

func (*summarizeFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "summarize"
}

func (*summarizeFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Count and sum of numbers, with a label",
		Parameters: []function.Parameter{
			function.ListParameter{Name: "numbers", ElementType: types.NumberType},
			function.StringParameter{Name: "label"},
			function.ObjectParameter{Name: "options", AttributeTypes: map[string]attr.Type{
				"upper":  types.BoolType,
				"labels": types.MapType{ElemType: types.StringType},
			}},
		},
		Return: function.ObjectReturn{AttributeTypes: summaryType},
	}
}

func (*summarizeFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var numbers []*big.Float
	var label string
	var options struct {
		Upper  types.Bool `tfsdk:"upper"`
		Labels types.Map  `tfsdk:"labels"`
	}
	resp.Error = req.Arguments.Get(ctx, &numbers, &label, &options)
	if resp.Error != nil {
		return
	}
	sum := new(big.Float).SetPrec(512)
	for _, n := range numbers {
		sum.Add(sum, n)
	}
	if options.Upper.ValueBool() {
		label = strings.ToUpper(label)
	}
	keys := make([]attr.Value, 0)
	var sorted []string
	for k := range options.Labels.Elements() {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		keys = append(keys, types.StringValue(k))
	}
	obj, diags := types.ObjectValue(summaryType, map[string]attr.Value{
		"count": types.Int64Value(int64(len(numbers))),
		"sum":   types.NumberValue(sum),
		"label": types.StringValue(label),
		"keys":  types.ListValueMust(types.StringType, keys),
	})
	if diags.HasError() {
		resp.Error = function.FuncErrorFromDiags(ctx, diags)
		return
	}
	resp.Error = resp.Result.Set(ctx, obj)
}
