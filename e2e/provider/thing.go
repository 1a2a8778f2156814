package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/list"
	lschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// thingsDir is where tfwire_thing keeps its objects, relative to the working directory: one JSON file per thing at
// things/<zone>/<name>.json, so that a scenario can make one outside the client (to import or list it).
const thingsDir = "things"

// thingResource (tfwire_thing) is the resource with a resource identity ({name, zone}): importable by identity,
// listable by the tfwire_thing list resource.
type thingResource struct{}

var (
	_ resource.ResourceWithIdentity    = &thingResource{}
	_ resource.ResourceWithImportState = &thingResource{}
)

type thingModel struct {
	ID     types.String `tfsdk:"id"`
	Name   types.String `tfsdk:"name"`
	Zone   types.String `tfsdk:"zone"`
	Value  types.String `tfsdk:"value"`
	Labels types.Map    `tfsdk:"labels"`
}

type thingIdentity struct {
	Name types.String `tfsdk:"name"`
	Zone types.String `tfsdk:"zone"`
}

// thingFile is what a thing's file holds.
type thingFile struct {
	Value  *string           `json:"value,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
}

func thingPath(zone, name string) string { return filepath.Join(thingsDir, zone, name+".json") }

func (*thingResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_thing"
}

func (*thingResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id": schema.StringAttribute{Computed: true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"name": schema.StringAttribute{Required: true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
		"zone": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("z1"),
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
		"value":  schema.StringAttribute{Optional: true},
		"labels": schema.MapAttribute{Optional: true, ElementType: types.StringType},
	}}
}

func (*thingResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"name": identityschema.StringAttribute{RequiredForImport: true},
		"zone": identityschema.StringAttribute{OptionalForImport: true},
	}}
}

func thingID(zone, name string) string { return "thing-" + digest(zone, name) }

func readThing(zone, name string) (*thingFile, error) {
	b, err := os.ReadFile(thingPath(zone, name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var t thingFile
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", thingPath(zone, name), err)
	}
	return &t, nil
}

func writeThing(ctx context.Context, m *thingModel) error {
	var t thingFile
	if !m.Value.IsNull() {
		v := m.Value.ValueString()
		t.Value = &v
	}
	if !m.Labels.IsNull() {
		t.Labels = map[string]string{}
		if diags := m.Labels.ElementsAs(ctx, &t.Labels, false); diags.HasError() {
			return fmt.Errorf("labels: %v", diags)
		}
	}
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	p := thingPath(m.Zone.ValueString(), m.Name.ValueString())
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	m.ID = types.StringValue(thingID(m.Zone.ValueString(), m.Name.ValueString()))
	return os.WriteFile(p, append(b, '\n'), 0o644)
}

// fillThing sets the model's attributes from a thing's file.
func fillThing(ctx context.Context, m *thingModel, zone, name string, t *thingFile) error {
	m.ID = types.StringValue(thingID(zone, name))
	m.Name = types.StringValue(name)
	m.Zone = types.StringValue(zone)
	m.Value = types.StringPointerValue(t.Value)
	m.Labels = types.MapNull(types.StringType)
	if t.Labels != nil {
		labels, diags := types.MapValueFrom(ctx, types.StringType, t.Labels)
		if diags.HasError() {
			return fmt.Errorf("labels: %v", diags)
		}
		m.Labels = labels
	}
	return nil
}

func (*thingResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := writeThing(ctx, &m); err != nil {
		resp.Diagnostics.AddError("Cannot write thing", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	resp.Diagnostics.Append(resp.Identity.Set(ctx, thingIdentity{Name: m.Name, Zone: m.Zone})...)
}

func (*thingResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	zone, name := m.Zone.ValueString(), m.Name.ValueString()
	t, err := readThing(zone, name)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read thing", err.Error())
		return
	}
	if t == nil {
		resp.State.RemoveResource(ctx)
		return
	}
	if err := fillThing(ctx, &m, zone, name, t); err != nil {
		resp.Diagnostics.AddError("Cannot read thing", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	resp.Diagnostics.Append(resp.Identity.Set(ctx, thingIdentity{Name: m.Name, Zone: m.Zone})...)
}

func (*thingResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := writeThing(ctx, &m); err != nil {
		resp.Diagnostics.AddError("Cannot write thing", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	resp.Diagnostics.Append(resp.Identity.Set(ctx, thingIdentity{Name: m.Name, Zone: m.Zone})...)
}

func (*thingResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	err := os.Remove(thingPath(m.Zone.ValueString(), m.Name.ValueString()))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		resp.Diagnostics.AddError("Cannot delete thing", err.Error())
	}
}

// ImportState imports by identity ({name, zone}, zone "z1" when left out) or by an id "<zone>/<name>".
func (*thingResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var id thingIdentity
	if req.ID != "" {
		zone, name, ok := strings.Cut(req.ID, "/")
		if !ok {
			resp.Diagnostics.AddError("Bad import id", fmt.Sprintf("%q: expected <zone>/<name>", req.ID))
			return
		}
		id = thingIdentity{Name: types.StringValue(name), Zone: types.StringValue(zone)}
	} else {
		resp.Diagnostics.Append(req.Identity.Get(ctx, &id)...)
		if resp.Diagnostics.HasError() {
			return
		}
		if id.Zone.IsNull() || id.Zone.ValueString() == "" {
			id.Zone = types.StringValue("z1")
		}
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), id.Name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("zone"), id.Zone)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), thingID(id.Zone.ValueString(), id.Name.ValueString()))...)
	resp.Diagnostics.Append(resp.Identity.Set(ctx, id)...)
}

// thingList (list "tfwire_thing") lists the things on disk, sorted by zone then name, optionally of one zone and
// with a name prefix.
type thingList struct{}

var _ list.ListResource = &thingList{}

type thingListConfig struct {
	Zone   types.String `tfsdk:"zone"`
	Prefix types.String `tfsdk:"prefix"`
}

func (*thingList) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_thing"
}

func (*thingList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = lschema.Schema{Attributes: map[string]lschema.Attribute{
		"zone":   lschema.StringAttribute{Optional: true},
		"prefix": lschema.StringAttribute{Optional: true},
	}}
}

func (*thingList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg thingListConfig
	if diags := req.Config.Get(ctx, &cfg); diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	type key struct{ zone, name string }
	var keys []key
	zones, err := os.ReadDir(thingsDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		stream.Results = listError(err)
		return
	}
	for _, z := range zones {
		if !z.IsDir() || (!cfg.Zone.IsNull() && cfg.Zone.ValueString() != z.Name()) {
			continue
		}
		files, err := os.ReadDir(filepath.Join(thingsDir, z.Name()))
		if err != nil {
			stream.Results = listError(err)
			return
		}
		for _, f := range files {
			name, ok := strings.CutSuffix(f.Name(), ".json")
			if ok && strings.HasPrefix(name, cfg.Prefix.ValueString()) {
				keys = append(keys, key{z.Name(), name})
			}
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].zone != keys[j].zone {
			return keys[i].zone < keys[j].zone
		}
		return keys[i].name < keys[j].name
	})
	stream.Results = func(push func(list.ListResult) bool) {
		for i, k := range keys {
			if req.Limit > 0 && int64(i) >= req.Limit {
				return
			}
			r := req.NewListResult(ctx)
			r.DisplayName = k.zone + "/" + k.name
			r.Diagnostics.Append(r.Identity.Set(ctx, thingIdentity{Name: types.StringValue(k.name), Zone: types.StringValue(k.zone)})...)
			if req.IncludeResource {
				t, err := readThing(k.zone, k.name)
				if err == nil && t == nil {
					err = fmt.Errorf("%s: vanished while listing", thingPath(k.zone, k.name))
				}
				var m thingModel
				if err == nil {
					err = fillThing(ctx, &m, k.zone, k.name, t)
				}
				if err != nil {
					r.Diagnostics.AddError("Cannot read thing", err.Error())
				} else {
					r.Diagnostics.Append(r.Resource.Set(ctx, &m)...)
				}
			}
			if !push(r) {
				return
			}
		}
	}
}

func listError(err error) func(func(list.ListResult) bool) {
	return func(push func(list.ListResult) bool) {
		var r list.ListResult
		r.Diagnostics.AddError("Cannot list things", err.Error())
		push(r)
	}
}
