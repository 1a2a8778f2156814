package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// recordResource (tfwire_record) keeps its value in a JSON file at `path` (relative to the working directory), so
// that a scenario can change it outside OpenTofu (drift) and import it by path.
type recordResource struct{}

var _ resource.ResourceWithImportState = &recordResource{}

// recordFile is what a record file holds.
type recordFile struct {
	Value string            `json:"value"`
	Tags  map[string]string `json:"tags,omitempty"`
}

type recordModel struct {
	ID    types.String `tfsdk:"id"`
	Path  types.String `tfsdk:"path"`
	Value types.String `tfsdk:"value"`
	Tags  types.Map    `tfsdk:"tags"`
	Size  types.Int64  `tfsdk:"size"`
}

func (*recordResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_record"
}

func (*recordResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id": schema.StringAttribute{Computed: true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"path": schema.StringAttribute{Required: true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
		"value": schema.StringAttribute{Required: true},
		"tags":  schema.MapAttribute{Optional: true, ElementType: types.StringType},
		"size":  schema.Int64Attribute{Computed: true},
	}}
}

func readRecord(p string) (*recordFile, error) {
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var rec recordFile
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return &rec, nil
}

func writeRecord(ctx context.Context, m *recordModel) error {
	rec := recordFile{Value: m.Value.ValueString()}
	if !m.Tags.IsNull() {
		rec.Tags = map[string]string{}
		if diags := m.Tags.ElementsAs(ctx, &rec.Tags, false); diags.HasError() {
			return fmt.Errorf("tags: %v", diags)
		}
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	p := m.Path.ValueString()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	m.ID = types.StringValue("record-" + digest(p))
	m.Size = types.Int64Value(int64(len(rec.Value)))
	return os.WriteFile(p, append(b, '\n'), 0o644)
}

func (*recordResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m recordModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := writeRecord(ctx, &m); err != nil {
		resp.Diagnostics.AddError("Cannot write record", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (*recordResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m recordModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	rec, err := readRecord(m.Path.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Cannot read record", err.Error())
		return
	}
	if rec == nil {
		resp.State.RemoveResource(ctx)
		return
	}
	m.ID = types.StringValue("record-" + digest(m.Path.ValueString()))
	m.Value = types.StringValue(rec.Value)
	m.Size = types.Int64Value(int64(len(rec.Value)))
	if rec.Tags != nil {
		tags, diags := types.MapValueFrom(ctx, types.StringType, rec.Tags)
		resp.Diagnostics.Append(diags...)
		m.Tags = tags
	} else {
		m.Tags = types.MapNull(types.StringType)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (*recordResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m recordModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := writeRecord(ctx, &m); err != nil {
		resp.Diagnostics.AddError("Cannot write record", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (*recordResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var p types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("path"), &p)...)
	if err := os.Remove(p.ValueString()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		resp.Diagnostics.AddError("Cannot delete record", err.Error())
	}
}

// ImportState takes the record's path as the import id.
func (*recordResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("path"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), "record-"+digest(req.ID))...)
}

// recordDataSource (data.tfwire_record) reads a record file.
type recordDataSource struct{}

func (*recordDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_record"
}

func (*recordDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{Attributes: map[string]dschema.Attribute{
		"id":    dschema.StringAttribute{Computed: true},
		"path":  dschema.StringAttribute{Required: true},
		"value": dschema.StringAttribute{Computed: true},
		"tags":  dschema.MapAttribute{Computed: true, ElementType: types.StringType},
		"size":  dschema.Int64Attribute{Computed: true},
	}}
}

func (*recordDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m recordModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	rec, err := readRecord(m.Path.ValueString())
	if err == nil && rec == nil {
		err = fmt.Errorf("%s: no such record", m.Path.ValueString())
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot read record", err.Error())
		return
	}
	m.ID = types.StringValue("record-" + digest(m.Path.ValueString()))
	m.Value = types.StringValue(rec.Value)
	m.Size = types.Int64Value(int64(len(rec.Value)))
	tags, diags := types.MapValueFrom(ctx, types.StringType, rec.Tags)
	resp.Diagnostics.Append(diags...)
	m.Tags = tags
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
