package main

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// blocksTypeName is the one resource written directly on terraform-plugin-go: the framework declares neither
// group nor map block nesting, nor min_items/max_items, and this resource has all of them.
const blocksTypeName = "tfwire_blocks"

// server is the framework's protocol 6 server with tfwire_blocks added beside it.
type server struct {
	tfprotov6.ProviderServer
	blocks blocksResource
}

func (s *server) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	resp, err := s.ProviderServer.GetProviderSchema(ctx, req)
	if err == nil && resp != nil && resp.ResourceSchemas != nil {
		resp.ResourceSchemas[blocksTypeName] = blocksSchema
	}
	return resp, err
}

func (s *server) GetMetadata(ctx context.Context, req *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	resp, err := s.ProviderServer.GetMetadata(ctx, req)
	if err == nil && resp != nil {
		resp.Resources = append(resp.Resources, tfprotov6.ResourceMetadata{TypeName: blocksTypeName})
	}
	return resp, err
}

func (s *server) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	if req.TypeName == blocksTypeName {
		return &tfprotov6.ValidateResourceConfigResponse{}, nil
	}
	return s.ProviderServer.ValidateResourceConfig(ctx, req)
}

func (s *server) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	if req.TypeName == blocksTypeName {
		return s.blocks.upgrade(req), nil
	}
	return s.ProviderServer.UpgradeResourceState(ctx, req)
}

func (s *server) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	if req.TypeName == blocksTypeName {
		return &tfprotov6.ReadResourceResponse{NewState: req.CurrentState, Private: req.Private}, nil
	}
	return s.ProviderServer.ReadResource(ctx, req)
}

func (s *server) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	if req.TypeName == blocksTypeName {
		return s.blocks.plan(req), nil
	}
	return s.ProviderServer.PlanResourceChange(ctx, req)
}

func (s *server) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	if req.TypeName == blocksTypeName {
		return &tfprotov6.ApplyResourceChangeResponse{NewState: req.PlannedState, Private: req.PlannedPrivate}, nil
	}
	return s.ProviderServer.ApplyResourceChange(ctx, req)
}

func (s *server) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	if req.TypeName == blocksTypeName {
		return &tfprotov6.ImportResourceStateResponse{Diagnostics: errorDiag("tfwire_blocks cannot be imported")}, nil
	}
	return s.ProviderServer.ImportResourceState(ctx, req)
}

func (s *server) MoveResourceState(ctx context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	if req.TargetTypeName == blocksTypeName {
		return &tfprotov6.MoveResourceStateResponse{Diagnostics: errorDiag("tfwire_blocks cannot be moved into")}, nil
	}
	return s.ProviderServer.MoveResourceState(ctx, req)
}

// The list resource and action RPCs are not part of tfprotov6.ProviderServer (terraform-plugin-go finds them by
// type assertion), so the embedding does not promote them: they are forwarded here.

func (s *server) ValidateListResourceConfig(ctx context.Context, req *tfprotov6.ValidateListResourceConfigRequest) (*tfprotov6.ValidateListResourceConfigResponse, error) {
	return s.ProviderServer.(tfprotov6.ProviderServerWithListResource).ValidateListResourceConfig(ctx, req)
}

func (s *server) ListResource(ctx context.Context, req *tfprotov6.ListResourceRequest) (*tfprotov6.ListResourceServerStream, error) {
	return s.ProviderServer.(tfprotov6.ProviderServerWithListResource).ListResource(ctx, req)
}

func (s *server) ValidateActionConfig(ctx context.Context, req *tfprotov6.ValidateActionConfigRequest) (*tfprotov6.ValidateActionConfigResponse, error) {
	return s.ProviderServer.(tfprotov6.ProviderServerWithActions).ValidateActionConfig(ctx, req)
}

func (s *server) PlanAction(ctx context.Context, req *tfprotov6.PlanActionRequest) (*tfprotov6.PlanActionResponse, error) {
	return s.ProviderServer.(tfprotov6.ProviderServerWithActions).PlanAction(ctx, req)
}

func (s *server) InvokeAction(ctx context.Context, req *tfprotov6.InvokeActionRequest) (*tfprotov6.InvokeActionServerStream, error) {
	return s.ProviderServer.(tfprotov6.ProviderServerWithActions).InvokeAction(ctx, req)
}

var (
	_ tfprotov6.ProviderServerWithListResource = &server{}
	_ tfprotov6.ProviderServerWithActions      = &server{}
)

func errorDiag(summary string) []*tfprotov6.Diagnostic {
	return []*tfprotov6.Diagnostic{{Severity: tfprotov6.DiagnosticSeverityError, Summary: summary}}
}

func attribute(name string, typ tftypes.Type, required, optional, computed bool) *tfprotov6.SchemaAttribute {
	return &tfprotov6.SchemaAttribute{Name: name, Type: typ, Required: required, Optional: optional, Computed: computed}
}

func nestedBlock(name string, mode tfprotov6.SchemaNestedBlockNestingMode, minItems, maxItems int64, block *tfprotov6.SchemaBlock) *tfprotov6.SchemaNestedBlock {
	return &tfprotov6.SchemaNestedBlock{TypeName: name, Nesting: mode, MinItems: minItems, MaxItems: maxItems, Block: block}
}

// blocksSchema has one nested block of each nesting mode; "listed" requires 1 to 3 items, "setof" at most 4.
var blocksSchema = &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{
	Attributes: []*tfprotov6.SchemaAttribute{
		attribute("id", tftypes.String, false, false, true),
		attribute("name", tftypes.String, true, false, false),
		attribute("note", tftypes.String, false, true, false),
	},
	BlockTypes: []*tfprotov6.SchemaNestedBlock{
		nestedBlock("group", tfprotov6.SchemaNestedBlockNestingModeGroup, 0, 0, &tfprotov6.SchemaBlock{
			Attributes: []*tfprotov6.SchemaAttribute{
				attribute("enabled", tftypes.Bool, false, true, false),
				attribute("level", tftypes.Number, false, true, false),
			},
		}),
		nestedBlock("listed", tfprotov6.SchemaNestedBlockNestingModeList, 1, 3, &tfprotov6.SchemaBlock{
			Attributes: []*tfprotov6.SchemaAttribute{
				attribute("name", tftypes.String, true, false, false),
				attribute("weight", tftypes.Number, false, true, false),
				attribute("labels", tftypes.Map{ElementType: tftypes.String}, false, true, false),
			},
			BlockTypes: []*tfprotov6.SchemaNestedBlock{
				nestedBlock("rule", tfprotov6.SchemaNestedBlockNestingModeList, 0, 0, &tfprotov6.SchemaBlock{
					Attributes: []*tfprotov6.SchemaAttribute{attribute("expr", tftypes.String, true, false, false)},
				}),
			},
		}),
		nestedBlock("mapped", tfprotov6.SchemaNestedBlockNestingModeMap, 0, 0, &tfprotov6.SchemaBlock{
			Attributes: []*tfprotov6.SchemaAttribute{
				attribute("address", tftypes.String, false, true, false),
				attribute("ports", tftypes.List{ElementType: tftypes.Number}, false, true, false),
			},
		}),
		nestedBlock("setof", tfprotov6.SchemaNestedBlockNestingModeSet, 0, 4, &tfprotov6.SchemaBlock{
			Attributes: []*tfprotov6.SchemaAttribute{
				attribute("key", tftypes.String, true, false, false),
				attribute("value", tftypes.String, false, true, false),
			},
		}),
		nestedBlock("single", tfprotov6.SchemaNestedBlockNestingModeSingle, 0, 0, &tfprotov6.SchemaBlock{
			Attributes: []*tfprotov6.SchemaAttribute{
				attribute("mode", tftypes.String, false, true, false),
				attribute("extra", tftypes.DynamicPseudoType, false, true, false),
			},
		}),
	},
}}

type blocksResource struct{}

func (blocksResource) upgrade(req *tfprotov6.UpgradeResourceStateRequest) *tfprotov6.UpgradeResourceStateResponse {
	typ := blocksSchema.ValueType()
	val, err := req.RawState.Unmarshal(typ)
	if err != nil {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: errorDiag("tfwire_blocks state: " + err.Error())}
	}
	dv, err := tfprotov6.NewDynamicValue(typ, val)
	if err != nil {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: errorDiag("tfwire_blocks state: " + err.Error())}
	}
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: &dv}
}

// plan returns the proposed state with id filled in: kept from the prior state, else "blocks-" and a digest of
// the name (unknown while the name is); a new name replaces the resource.
func (blocksResource) plan(req *tfprotov6.PlanResourceChangeRequest) *tfprotov6.PlanResourceChangeResponse {
	typ := blocksSchema.ValueType()
	fail := func(err error) *tfprotov6.PlanResourceChangeResponse {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: errorDiag("tfwire_blocks plan: " + err.Error())}
	}
	proposed, err := req.ProposedNewState.Unmarshal(typ)
	if err != nil {
		return fail(err)
	}
	prior, err := req.PriorState.Unmarshal(typ)
	if err != nil {
		return fail(err)
	}
	if proposed.IsNull() {
		return &tfprotov6.PlanResourceChangeResponse{PlannedState: req.ProposedNewState}
	}
	attrs := map[string]tftypes.Value{}
	if err := proposed.As(&attrs); err != nil {
		return fail(err)
	}
	var requiresReplace []*tftypes.AttributePath
	var priorAttrs map[string]tftypes.Value
	if !prior.IsNull() {
		if err := prior.As(&priorAttrs); err != nil {
			return fail(err)
		}
		if !priorAttrs["name"].Equal(attrs["name"]) {
			requiresReplace = append(requiresReplace, tftypes.NewAttributePath().WithAttributeName("name"))
		}
	}
	switch {
	case priorAttrs != nil && len(requiresReplace) == 0:
		attrs["id"] = priorAttrs["id"]
	case attrs["name"].IsKnown():
		var name string
		if err := attrs["name"].As(&name); err != nil {
			return fail(err)
		}
		attrs["id"] = tftypes.NewValue(tftypes.String, "blocks-"+digest(name))
	default:
		attrs["id"] = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	}
	planned, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
	if err != nil {
		return fail(fmt.Errorf("encoding: %w", err))
	}
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: &planned, RequiresReplace: requiresReplace, PlannedPrivate: req.PriorPrivate}
}
