package tfwire

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/polyhost/polyhost/host/terraform/internal/tfplugin5"
)

// Converters between tfprotov6 and protocol 5 messages: xTo5 builds the
// tfplugin5 message, xFrom5 the tfprotov6 value, one per message.

func dynamicValueTo5(v *tfprotov6.DynamicValue) *tfplugin5.DynamicValue {
	if v == nil {
		return nil
	}
	return &tfplugin5.DynamicValue{Msgpack: v.MsgPack, Json: v.JSON}
}

func dynamicValueFrom5(v *tfplugin5.DynamicValue) *tfprotov6.DynamicValue {
	if v == nil {
		return nil
	}
	return &tfprotov6.DynamicValue{MsgPack: v.Msgpack, JSON: v.Json}
}

func dynamicValuesTo5(vs []*tfprotov6.DynamicValue) []*tfplugin5.DynamicValue {
	out := make([]*tfplugin5.DynamicValue, len(vs))
	for i, v := range vs {
		out[i] = dynamicValueTo5(v)
	}
	return out
}

func rawStateTo5(s *tfprotov6.RawState) *tfplugin5.RawState {
	if s == nil {
		return nil
	}
	return &tfplugin5.RawState{Json: s.JSON, Flatmap: s.Flatmap}
}

func resourceIdentityDataTo5(d *tfprotov6.ResourceIdentityData) *tfplugin5.ResourceIdentityData {
	if d == nil {
		return nil
	}
	return &tfplugin5.ResourceIdentityData{IdentityData: dynamicValueTo5(d.IdentityData)}
}

func resourceIdentityDataFrom5(d *tfplugin5.ResourceIdentityData) *tfprotov6.ResourceIdentityData {
	if d == nil {
		return nil
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: dynamicValueFrom5(d.IdentityData)}
}

// clientCapabilitiesTo5 takes the fields of the request's capabilities.
func clientCapabilitiesTo5(deferralAllowed, writeOnlyAllowed bool) *tfplugin5.ClientCapabilities {
	return &tfplugin5.ClientCapabilities{DeferralAllowed: deferralAllowed, WriteOnlyAttributesAllowed: writeOnlyAllowed}
}

func diagnosticsFrom5(ds []*tfplugin5.Diagnostic) []*tfprotov6.Diagnostic {
	if ds == nil {
		return nil
	}
	out := make([]*tfprotov6.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if d != nil {
			out = append(out, diagnosticFrom5(d))
		}
	}
	return out
}

func diagnosticFrom5(d *tfplugin5.Diagnostic) *tfprotov6.Diagnostic {
	return &tfprotov6.Diagnostic{
		Severity:  tfprotov6.DiagnosticSeverity(d.Severity),
		Summary:   d.Summary,
		Detail:    d.Detail,
		Attribute: attributePathFrom5(d.Attribute),
	}
}

func attributePathFrom5(p *tfplugin5.AttributePath) *tftypes.AttributePath {
	if p == nil {
		return nil
	}
	steps := make([]tftypes.AttributePathStep, 0, len(p.Steps))
	for _, s := range p.Steps {
		switch sel := s.GetSelector().(type) {
		case *tfplugin5.AttributePath_Step_AttributeName:
			steps = append(steps, tftypes.AttributeName(sel.AttributeName))
		case *tfplugin5.AttributePath_Step_ElementKeyString:
			steps = append(steps, tftypes.ElementKeyString(sel.ElementKeyString))
		case *tfplugin5.AttributePath_Step_ElementKeyInt:
			steps = append(steps, tftypes.ElementKeyInt(sel.ElementKeyInt))
		}
	}
	return tftypes.NewAttributePathWithSteps(steps)
}

func attributePathsFrom5(ps []*tfplugin5.AttributePath) []*tftypes.AttributePath {
	if ps == nil {
		return nil
	}
	out := make([]*tftypes.AttributePath, len(ps))
	for i, p := range ps {
		out[i] = attributePathFrom5(p)
	}
	return out
}

func deferredFrom5(d *tfplugin5.Deferred) *tfprotov6.Deferred {
	if d == nil {
		return nil
	}
	return &tfprotov6.Deferred{Reason: tfprotov6.DeferredReason(d.Reason)}
}

func serverCapabilitiesFrom5(c *tfplugin5.ServerCapabilities) *tfprotov6.ServerCapabilities {
	if c == nil {
		return nil
	}
	return &tfprotov6.ServerCapabilities{
		GetProviderSchemaOptional: c.GetProviderSchemaOptional,
		MoveResourceState:         c.MoveResourceState,
		PlanDestroy:               c.PlanDestroy,
		GenerateResourceConfig:    c.GenerateResourceConfig,
	}
}

func functionErrorFrom5(e *tfplugin5.FunctionError) *tfprotov6.FunctionError {
	if e == nil {
		return nil
	}
	return &tfprotov6.FunctionError{Text: e.Text, FunctionArgument: e.FunctionArgument}
}

func getMetadataResponseFrom5(r *tfplugin5.GetMetadata_Response) *tfprotov6.GetMetadataResponse {
	out := &tfprotov6.GetMetadataResponse{
		ServerCapabilities: serverCapabilitiesFrom5(r.ServerCapabilities),
		Diagnostics:        diagnosticsFrom5(r.Diagnostics),
	}
	for _, m := range r.DataSources {
		out.DataSources = append(out.DataSources, tfprotov6.DataSourceMetadata{TypeName: m.TypeName})
	}
	for _, m := range r.Resources {
		out.Resources = append(out.Resources, tfprotov6.ResourceMetadata{TypeName: m.TypeName})
	}
	for _, m := range r.Functions {
		out.Functions = append(out.Functions, tfprotov6.FunctionMetadata{Name: m.Name})
	}
	for _, m := range r.EphemeralResources {
		out.EphemeralResources = append(out.EphemeralResources, tfprotov6.EphemeralResourceMetadata{TypeName: m.TypeName})
	}
	for _, m := range r.ListResources {
		out.ListResources = append(out.ListResources, tfprotov6.ListResourceMetadata{TypeName: m.TypeName})
	}
	for _, m := range r.Actions {
		out.Actions = append(out.Actions, tfprotov6.ActionMetadata{TypeName: m.TypeName})
	}
	return out
}

func getProviderSchemaResponseFrom5(r *tfplugin5.GetProviderSchema_Response) (*tfprotov6.GetProviderSchemaResponse, error) {
	out := &tfprotov6.GetProviderSchemaResponse{
		ServerCapabilities: serverCapabilitiesFrom5(r.ServerCapabilities),
		Diagnostics:        diagnosticsFrom5(r.Diagnostics),
	}
	var err error
	if out.Provider, err = schemaFrom5(r.Provider); err != nil {
		return nil, fmt.Errorf("provider schema: %w", err)
	}
	if out.ProviderMeta, err = schemaFrom5(r.ProviderMeta); err != nil {
		return nil, fmt.Errorf("provider_meta schema: %w", err)
	}
	for _, m := range []struct {
		kind string
		in   map[string]*tfplugin5.Schema
		out  *map[string]*tfprotov6.Schema
	}{
		{"resource", r.ResourceSchemas, &out.ResourceSchemas},
		{"data source", r.DataSourceSchemas, &out.DataSourceSchemas},
		{"ephemeral resource", r.EphemeralResourceSchemas, &out.EphemeralResourceSchemas},
		{"list resource", r.ListResourceSchemas, &out.ListResourceSchemas},
	} {
		if *m.out, err = schemasFrom5(m.in); err != nil {
			return nil, fmt.Errorf("%s %w", m.kind, err)
		}
	}
	if len(r.ActionSchemas) > 0 {
		out.ActionSchemas = make(map[string]*tfprotov6.ActionSchema, len(r.ActionSchemas))
		for name, a := range r.ActionSchemas {
			s, err := schemaFrom5(a.GetSchema())
			if err != nil {
				return nil, fmt.Errorf("action %s schema: %w", name, err)
			}
			out.ActionSchemas[name] = &tfprotov6.ActionSchema{Schema: s}
		}
	}
	if out.Functions, err = functionsFrom5(r.Functions); err != nil {
		return nil, err
	}
	return out, nil
}

func schemasFrom5(in map[string]*tfplugin5.Schema) (map[string]*tfprotov6.Schema, error) {
	out := make(map[string]*tfprotov6.Schema, len(in))
	for name, s := range in {
		c, err := schemaFrom5(s)
		if err != nil {
			return nil, fmt.Errorf("%s schema: %w", name, err)
		}
		out[name] = c
	}
	return out, nil
}

func schemaFrom5(s *tfplugin5.Schema) (*tfprotov6.Schema, error) {
	if s == nil {
		return nil, nil
	}
	b, err := schemaBlockFrom5(s.Block)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.Schema{Version: s.Version, Block: b}, nil
}

func schemaBlockFrom5(b *tfplugin5.Schema_Block) (*tfprotov6.SchemaBlock, error) {
	if b == nil {
		return nil, nil
	}
	out := &tfprotov6.SchemaBlock{
		Version:            b.Version,
		Description:        b.Description,
		DescriptionKind:    tfprotov6.StringKind(b.DescriptionKind),
		Deprecated:         b.Deprecated,
		DeprecationMessage: b.DeprecationMessage,
	}
	var err error
	if out.Attributes, err = schemaAttributesFrom5(b.Attributes); err != nil {
		return nil, err
	}
	for _, nb := range b.BlockTypes {
		c, err := schemaNestedBlockFrom5(nb)
		if err != nil {
			return nil, err
		}
		out.BlockTypes = append(out.BlockTypes, c)
	}
	return out, nil
}

func schemaAttributesFrom5(as []*tfplugin5.Schema_Attribute) ([]*tfprotov6.SchemaAttribute, error) {
	var out []*tfprotov6.SchemaAttribute
	for _, a := range as {
		c, err := schemaAttributeFrom5(a)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func schemaAttributeFrom5(a *tfplugin5.Schema_Attribute) (*tfprotov6.SchemaAttribute, error) {
	out := &tfprotov6.SchemaAttribute{
		Name:               a.Name,
		Description:        a.Description,
		Required:           a.Required,
		Optional:           a.Optional,
		Computed:           a.Computed,
		Sensitive:          a.Sensitive,
		DescriptionKind:    tfprotov6.StringKind(a.DescriptionKind),
		Deprecated:         a.Deprecated,
		WriteOnly:          a.WriteOnly,
		DeprecationMessage: a.DeprecationMessage,
	}
	var err error
	if len(a.Type) > 0 {
		if out.Type, err = parseType(a.Type); err != nil {
			return nil, fmt.Errorf("attribute %s: %w", a.Name, err)
		}
	}
	return out, nil
}

func schemaNestedBlockFrom5(nb *tfplugin5.Schema_NestedBlock) (*tfprotov6.SchemaNestedBlock, error) {
	b, err := schemaBlockFrom5(nb.Block)
	if err != nil {
		return nil, fmt.Errorf("block %s: %w", nb.TypeName, err)
	}
	return &tfprotov6.SchemaNestedBlock{
		TypeName: nb.TypeName,
		Block:    b,
		Nesting:  tfprotov6.SchemaNestedBlockNestingMode(nb.Nesting),
		MinItems: nb.MinItems,
		MaxItems: nb.MaxItems,
	}, nil
}

func functionsFrom5(in map[string]*tfplugin5.Function) (map[string]*tfprotov6.Function, error) {
	out := make(map[string]*tfprotov6.Function, len(in))
	for name, f := range in {
		c, err := functionFrom5(f)
		if err != nil {
			return nil, fmt.Errorf("function %s: %w", name, err)
		}
		out[name] = c
	}
	return out, nil
}

func functionFrom5(f *tfplugin5.Function) (*tfprotov6.Function, error) {
	out := &tfprotov6.Function{
		Summary:            f.Summary,
		Description:        f.Description,
		DescriptionKind:    tfprotov6.StringKind(f.DescriptionKind),
		DeprecationMessage: f.DeprecationMessage,
	}
	for _, p := range f.Parameters {
		c, err := functionParameterFrom5(p)
		if err != nil {
			return nil, err
		}
		out.Parameters = append(out.Parameters, c)
	}
	if f.VariadicParameter != nil {
		c, err := functionParameterFrom5(f.VariadicParameter)
		if err != nil {
			return nil, err
		}
		out.VariadicParameter = c
	}
	if f.Return != nil {
		t, err := parseType(f.Return.Type)
		if err != nil {
			return nil, fmt.Errorf("return: %w", err)
		}
		out.Return = &tfprotov6.FunctionReturn{Type: t}
	}
	return out, nil
}

func functionParameterFrom5(p *tfplugin5.Function_Parameter) (*tfprotov6.FunctionParameter, error) {
	t, err := parseType(p.Type)
	if err != nil {
		return nil, fmt.Errorf("parameter %s: %w", p.Name, err)
	}
	return &tfprotov6.FunctionParameter{
		AllowNullValue:     p.AllowNullValue,
		AllowUnknownValues: p.AllowUnknownValues,
		Description:        p.Description,
		DescriptionKind:    tfprotov6.StringKind(p.DescriptionKind),
		Name:               p.Name,
		Type:               t,
	}, nil
}

func importedResourcesFrom5(rs []*tfplugin5.ImportResourceState_ImportedResource) []*tfprotov6.ImportedResource {
	var out []*tfprotov6.ImportedResource
	for _, r := range rs {
		out = append(out, &tfprotov6.ImportedResource{
			TypeName: r.TypeName,
			State:    dynamicValueFrom5(r.State),
			Private:  r.Private,
			Identity: resourceIdentityDataFrom5(r.Identity),
		})
	}
	return out
}
