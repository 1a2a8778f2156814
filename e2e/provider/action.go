package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/action"
	aschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// writeAction (action "tfwire_write") writes a text file built from its configuration: an observable,
// deterministic side effect that a scenario copies into the corpus.
type writeAction struct{}

var _ action.Action = &writeAction{}

type writeConfig struct {
	Path   types.String `tfsdk:"path"`
	Text   types.String `tfsdk:"text"`
	Repeat types.Int64  `tfsdk:"repeat"`
	Upper  types.Bool   `tfsdk:"upper"`
	Ratio  types.Number `tfsdk:"ratio"`
	Lines  types.List   `tfsdk:"lines"`
	Meta   types.Map    `tfsdk:"meta"`
	Header *writeHeader `tfsdk:"header"`
	Token  types.String `tfsdk:"token"`
}

type writeHeader struct {
	Title types.String `tfsdk:"title"`
	Level types.Int64  `tfsdk:"level"`
}

func (*writeAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_write"
}

func (*writeAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = aschema.Schema{
		Attributes: map[string]aschema.Attribute{
			"path":   aschema.StringAttribute{Required: true},
			"text":   aschema.StringAttribute{Required: true},
			"repeat": aschema.Int64Attribute{Optional: true},
			"upper":  aschema.BoolAttribute{Optional: true},
			"ratio":  aschema.NumberAttribute{Optional: true},
			"lines":  aschema.ListAttribute{Optional: true, ElementType: types.StringType},
			"meta":   aschema.MapAttribute{Optional: true, ElementType: types.StringType},
			"token":  aschema.StringAttribute{Optional: true},
		},
		Blocks: map[string]aschema.Block{
			"header": aschema.SingleNestedBlock{Attributes: map[string]aschema.Attribute{
				"title": aschema.StringAttribute{Optional: true},
				"level": aschema.Int64Attribute{Optional: true},
			}},
		},
	}
}

// Invoke writes (or rewrites) the file at path, relative to the working directory, and reports two progress
// events. A token is written only as its digest.
func (*writeAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var c writeConfig
	resp.Diagnostics.Append(req.Config.Get(ctx, &c)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var b strings.Builder
	if c.Header != nil && !c.Header.Title.IsNull() {
		level := c.Header.Level.ValueInt64()
		if level < 1 {
			level = 1
		}
		fmt.Fprintf(&b, "%s %s\n", strings.Repeat("#", int(level)), c.Header.Title.ValueString())
	}
	text := c.Text.ValueString()
	if c.Upper.ValueBool() {
		text = strings.ToUpper(text)
	}
	n := c.Repeat.ValueInt64()
	if c.Repeat.IsNull() {
		n = 1
	}
	for i := int64(0); i < n; i++ {
		b.WriteString(text + "\n")
	}
	if !c.Ratio.IsNull() {
		fmt.Fprintf(&b, "ratio: %s\n", c.Ratio.ValueBigFloat().Text('g', -1))
	}
	var lines []string
	resp.Diagnostics.Append(c.Lines.ElementsAs(ctx, &lines, true)...)
	for _, l := range lines {
		b.WriteString("- " + l + "\n")
	}
	meta := map[string]string{}
	resp.Diagnostics.Append(c.Meta.ElementsAs(ctx, &meta, true)...)
	keys := make([]string, 0, len(meta))
	for k := range meta {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s = %s\n", k, meta[k])
	}
	if !c.Token.IsNull() {
		fmt.Fprintf(&b, "token digest: %s\n", digest(c.Token.ValueString()))
	}
	if resp.Diagnostics.HasError() {
		return
	}
	p := c.Path.ValueString()
	resp.SendProgress(action.InvokeProgressEvent{Message: "writing " + p})
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		resp.Diagnostics.AddError("Cannot write file", err.Error())
		return
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		resp.Diagnostics.AddError("Cannot write file", err.Error())
		return
	}
	resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("wrote %d bytes to %s", b.Len(), p)})
}
