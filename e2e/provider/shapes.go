package main

import (
	"context"
	"math/big"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// shapesResource (tfwire_shapes) has an attribute or block of every shape the framework can declare. It keeps no
// state of its own: Create and Update fill the computed attributes from the inputs, deterministically; Read
// returns the prior state.
type shapesResource struct{}

var (
	_ resource.ResourceWithModifyPlan = &shapesResource{}

	objectValueType = map[string]attr.Type{
		"a": types.StringType,
		"b": types.NumberType,
		"c": types.ListType{ElemType: types.BoolType},
	}
)

func (*shapesResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_shapes"
}

// nestedAttributes is the object every nested attribute of tfwire_shapes holds; withHash adds a computed member.
func nestedAttributes(withHash bool) map[string]schema.Attribute {
	attrs := map[string]schema.Attribute{
		"key":   schema.StringAttribute{Required: true},
		"value": schema.StringAttribute{Optional: true},
		"count": schema.Int64Attribute{Optional: true},
	}
	if withHash {
		attrs["hash"] = schema.StringAttribute{Computed: true}
	}
	return attrs
}

func (*shapesResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: 1,
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"name": schema.StringAttribute{Required: true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"bool_value":    schema.BoolAttribute{Optional: true},
			"number_value":  schema.NumberAttribute{Optional: true},
			"int_value":     schema.Int64Attribute{Optional: true},
			"float_value":   schema.Float64Attribute{Optional: true},
			"string_value":  schema.StringAttribute{Optional: true},
			"list_value":    schema.ListAttribute{Optional: true, ElementType: types.StringType},
			"set_value":     schema.SetAttribute{Optional: true, ElementType: types.NumberType},
			"map_value":     schema.MapAttribute{Optional: true, ElementType: types.BoolType},
			"object_value":  schema.ObjectAttribute{Optional: true, AttributeTypes: objectValueType},
			"nested_lists":  schema.ListAttribute{Optional: true, ElementType: types.ListType{ElemType: types.MapType{ElemType: types.StringType}}},
			"dynamic_value": schema.DynamicAttribute{Optional: true},
			"single_nested": schema.SingleNestedAttribute{Optional: true, Attributes: nestedAttributes(true)},
			"list_nested": schema.ListNestedAttribute{Optional: true,
				NestedObject: schema.NestedAttributeObject{Attributes: nestedAttributes(true)}},
			"set_nested": schema.SetNestedAttribute{Optional: true,
				NestedObject: schema.NestedAttributeObject{Attributes: nestedAttributes(false)}},
			"map_nested": schema.MapNestedAttribute{Optional: true,
				NestedObject: schema.NestedAttributeObject{Attributes: nestedAttributes(true)}},
			"secret":              schema.StringAttribute{Optional: true, Sensitive: true},
			"secret_map":          schema.MapAttribute{Optional: true, Sensitive: true, ElementType: types.StringType},
			"password_wo":         schema.StringAttribute{Optional: true, Sensitive: true, WriteOnly: true},
			"password_wo_version": schema.Int64Attribute{Optional: true},
			"fail_on_apply":       schema.BoolAttribute{Optional: true},
			"fail_on_destroy":     schema.BoolAttribute{Optional: true},
			// Computed: unknown in the plan of a create (and of an update, except computed_list, set at plan time).
			"computed_number":  schema.NumberAttribute{Computed: true},
			"computed_list":    schema.ListAttribute{Computed: true, ElementType: types.StringType},
			"computed_dynamic": schema.DynamicAttribute{Computed: true},
			"computed_secret":  schema.StringAttribute{Computed: true, Sensitive: true},
			"nfd_name":         schema.StringAttribute{Computed: true},
			"optional_computed": schema.StringAttribute{Optional: true, Computed: true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		},
		Blocks: map[string]schema.Block{
			"single_block": schema.SingleNestedBlock{Attributes: map[string]schema.Attribute{
				"label": schema.StringAttribute{Optional: true},
				"size":  schema.NumberAttribute{Optional: true},
			}},
			"list_block": schema.ListNestedBlock{
				Validators: []validator.List{listvalidator.SizeAtMost(3)},
				NestedObject: schema.NestedBlockObject{
					Attributes: map[string]schema.Attribute{
						"name":  schema.StringAttribute{Required: true},
						"flags": schema.SetAttribute{Optional: true, ElementType: types.StringType},
					},
					Blocks: map[string]schema.Block{
						"inner": schema.SetNestedBlock{NestedObject: schema.NestedBlockObject{
							Attributes: map[string]schema.Attribute{"weight": schema.Float64Attribute{Optional: true}},
						}},
					},
				},
			},
			"set_block": schema.SetNestedBlock{NestedObject: schema.NestedBlockObject{
				Attributes: map[string]schema.Attribute{
					"cidr": schema.StringAttribute{Required: true},
					"port": schema.Int64Attribute{Optional: true},
				},
			}},
		},
	}
}

// ModifyPlan makes computed_list known at plan time whenever name is known and the resource changes.
func (*shapesResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var name types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &name)...)
	if name.IsUnknown() || name.IsNull() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("computed_list"), computedList(name.ValueString()))...)
}

func computedList(name string) types.List {
	return types.ListValueMust(types.StringType, []attr.Value{
		types.StringValue(name), types.StringValue(strings.ToUpper(name)), types.StringValue(digest(name)),
	})
}

// fill writes the computed attributes of tfwire_shapes into state, derived from the planned values.
func (*shapesResource) fill(ctx context.Context, state *tfsdk.State, id string) diag.Diagnostics {
	var diags diag.Diagnostics
	var name types.String
	var number types.Number
	diags.Append(state.GetAttribute(ctx, path.Root("name"), &name)...)
	diags.Append(state.GetAttribute(ctx, path.Root("number_value"), &number)...)
	if diags.HasError() {
		return diags
	}
	n := name.ValueString()
	if id == "" {
		id = "shapes-" + digest(n)
	}
	// A number no float64 holds exactly: the input plus 0.1 at 512 bits, or a 40-digit fraction.
	computed, _, _ := big.ParseFloat("1234567890123456789012345678901234567890.0625", 10, 512, big.ToNearestEven)
	if !number.IsNull() && !number.IsUnknown() {
		tenth, _, _ := big.ParseFloat("0.1", 10, 512, big.ToNearestEven)
		computed = new(big.Float).SetPrec(512).Add(number.ValueBigFloat(), tenth)
	}
	dynamic := types.DynamicValue(types.ObjectValueMust(
		map[string]attr.Type{
			"name":  types.StringType,
			"tuple": types.TupleType{ElemTypes: []attr.Type{types.StringType, types.NumberType, types.BoolType}},
		},
		map[string]attr.Value{
			"name": types.StringValue(n),
			"tuple": types.TupleValueMust([]attr.Type{types.StringType, types.NumberType, types.BoolType},
				[]attr.Value{types.StringValue(id), types.NumberValue(big.NewFloat(float64(len(n)))), types.BoolValue(len(n)%2 == 0)}),
		}))
	set := func(p path.Path, v any) { diags.Append(state.SetAttribute(ctx, p, v)...) }
	set(path.Root("id"), types.StringValue(id))
	set(path.Root("computed_number"), types.NumberValue(computed))
	set(path.Root("computed_list"), computedList(n))
	set(path.Root("computed_dynamic"), dynamic)
	set(path.Root("computed_secret"), types.StringValue("secret-"+digest("secret", n)))
	// "cafe" + U+0301 COMBINING ACUTE ACCENT: the decomposed (NFD) spelling, which NFC would fold into U+00E9.
	set(path.Root("nfd_name"), types.StringValue("cafe\u0301 "+n))
	set(path.Root("password_wo"), types.StringNull())
	var optional types.String
	diags.Append(state.GetAttribute(ctx, path.Root("optional_computed"), &optional)...)
	if optional.IsUnknown() || optional.IsNull() {
		set(path.Root("optional_computed"), types.StringValue("default-"+n))
	}
	var single types.Object
	diags.Append(state.GetAttribute(ctx, path.Root("single_nested"), &single)...)
	if !single.IsNull() && !single.IsUnknown() {
		diags.Append(fillHash(ctx, state, path.Root("single_nested"))...)
	}
	var list types.List
	diags.Append(state.GetAttribute(ctx, path.Root("list_nested"), &list)...)
	for i := range list.Elements() {
		diags.Append(fillHash(ctx, state, path.Root("list_nested").AtListIndex(i))...)
	}
	var m types.Map
	diags.Append(state.GetAttribute(ctx, path.Root("map_nested"), &m)...)
	for k := range m.Elements() {
		diags.Append(fillHash(ctx, state, path.Root("map_nested").AtMapKey(k))...)
	}
	return diags
}

func fillHash(ctx context.Context, state *tfsdk.State, p path.Path) diag.Diagnostics {
	var key, value types.String
	diags := state.GetAttribute(ctx, p.AtName("key"), &key)
	diags.Append(state.GetAttribute(ctx, p.AtName("value"), &value)...)
	diags.Append(state.SetAttribute(ctx, p.AtName("hash"), types.StringValue(digest(key.ValueString(), value.ValueString())))...)
	return diags
}

func failOnApply(ctx context.Context, state tfsdk.State, diags *diag.Diagnostics) bool {
	var fail types.Bool
	diags.Append(state.GetAttribute(ctx, path.Root("fail_on_apply"), &fail)...)
	if fail.ValueBool() {
		diags.AddAttributeError(path.Root("fail_on_apply"), "Apply failed as configured",
			"tfwire_shapes fails every create and update while fail_on_apply is true.")
		return true
	}
	return false
}

func (r *shapesResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	resp.State.Raw = req.Plan.Raw
	resp.Diagnostics.Append(r.fill(ctx, &resp.State, "")...)
	failOnApply(ctx, resp.State, &resp.Diagnostics)
}

func (*shapesResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (r *shapesResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var id types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
	resp.State.Raw = req.Plan.Raw
	resp.Diagnostics.Append(r.fill(ctx, &resp.State, id.ValueString())...)
	failOnApply(ctx, resp.State, &resp.Diagnostics)
}

func (*shapesResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var fail types.Bool
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("fail_on_destroy"), &fail)...)
	if fail.ValueBool() {
		resp.Diagnostics.AddError("Destroy failed as configured",
			"tfwire_shapes refuses to be destroyed while its state says fail_on_destroy = true.")
	}
}
