package tfwire

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/polyhost/polyhost/host/terraform/internal/tfplugin6"
)

// Converters between tfprotov6 and protocol 6 messages: xTo6 builds the
// tfplugin6 message, xFrom6 the tfprotov6 value, one per message.

func dynamicValueTo6(v *tfprotov6.DynamicValue) *tfplugin6.DynamicValue {
	if v == nil {
		return nil
	}
	return &tfplugin6.DynamicValue{Msgpack: v.MsgPack, Json: v.JSON}
}

func dynamicValueFrom6(v *tfplugin6.DynamicValue) *tfprotov6.DynamicValue {
	if v == nil {
		return nil
	}
	return &tfprotov6.DynamicValue{MsgPack: v.Msgpack, JSON: v.Json}
}

func dynamicValuesTo6(vs []*tfprotov6.DynamicValue) []*tfplugin6.DynamicValue {
	out := make([]*tfplugin6.DynamicValue, len(vs))
	for i, v := range vs {
		out[i] = dynamicValueTo6(v)
	}
	return out
}

func rawStateTo6(s *tfprotov6.RawState) *tfplugin6.RawState {
	if s == nil {
		return nil
	}
	return &tfplugin6.RawState{Json: s.JSON, Flatmap: s.Flatmap}
}

func resourceIdentityDataTo6(d *tfprotov6.ResourceIdentityData) *tfplugin6.ResourceIdentityData {
	if d == nil {
		return nil
	}
	return &tfplugin6.ResourceIdentityData{IdentityData: dynamicValueTo6(d.IdentityData)}
}

func resourceIdentityDataFrom6(d *tfplugin6.ResourceIdentityData) *tfprotov6.ResourceIdentityData {
	if d == nil {
		return nil
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: dynamicValueFrom6(d.IdentityData)}
}

// clientCapabilitiesTo6 takes the fields of the request's capabilities.
func clientCapabilitiesTo6(deferralAllowed, writeOnlyAllowed bool) *tfplugin6.ClientCapabilities {
	return &tfplugin6.ClientCapabilities{DeferralAllowed: deferralAllowed, WriteOnlyAttributesAllowed: writeOnlyAllowed}
}

func diagnosticsFrom6(ds []*tfplugin6.Diagnostic) []*tfprotov6.Diagnostic {
	if ds == nil {
		return nil
	}
	out := make([]*tfprotov6.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if d != nil {
			out = append(out, diagnosticFrom6(d))
		}
	}
	return out
}

func diagnosticFrom6(d *tfplugin6.Diagnostic) *tfprotov6.Diagnostic {
	return &tfprotov6.Diagnostic{
		Severity:  tfprotov6.DiagnosticSeverity(d.Severity),
		Summary:   d.Summary,
		Detail:    d.Detail,
		Attribute: attributePathFrom6(d.Attribute),
	}
}

func attributePathFrom6(p *tfplugin6.AttributePath) *tftypes.AttributePath {
	if p == nil {
		return nil
	}
	steps := make([]tftypes.AttributePathStep, 0, len(p.Steps))
	for _, s := range p.Steps {
		switch sel := s.GetSelector().(type) {
		case *tfplugin6.AttributePath_Step_AttributeName:
			steps = append(steps, tftypes.AttributeName(sel.AttributeName))
		case *tfplugin6.AttributePath_Step_ElementKeyString:
			steps = append(steps, tftypes.ElementKeyString(sel.ElementKeyString))
		case *tfplugin6.AttributePath_Step_ElementKeyInt:
			steps = append(steps, tftypes.ElementKeyInt(sel.ElementKeyInt))
		}
	}
	return tftypes.NewAttributePathWithSteps(steps)
}

func attributePathsFrom6(ps []*tfplugin6.AttributePath) []*tftypes.AttributePath {
	if ps == nil {
		return nil
	}
	out := make([]*tftypes.AttributePath, len(ps))
	for i, p := range ps {
		out[i] = attributePathFrom6(p)
	}
	return out
}

func deferredFrom6(d *tfplugin6.Deferred) *tfprotov6.Deferred {
	if d == nil {
		return nil
	}
	return &tfprotov6.Deferred{Reason: tfprotov6.DeferredReason(d.Reason)}
}

func serverCapabilitiesFrom6(c *tfplugin6.ServerCapabilities) *tfprotov6.ServerCapabilities {
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

func functionErrorFrom6(e *tfplugin6.FunctionError) *tfprotov6.FunctionError {
	if e == nil {
		return nil
	}
	return &tfprotov6.FunctionError{Text: e.Text, FunctionArgument: e.FunctionArgument}
}

func getMetadataResponseFrom6(r *tfplugin6.GetMetadata_Response) *tfprotov6.GetMetadataResponse {
	out := &tfprotov6.GetMetadataResponse{
		ServerCapabilities: serverCapabilitiesFrom6(r.ServerCapabilities),
		Diagnostics:        diagnosticsFrom6(r.Diagnostics),
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
	for _, m := range r.StateStores {
		out.StateStores = append(out.StateStores, tfprotov6.StateStoreMetadata{TypeName: m.TypeName})
	}
	return out
}

func getProviderSchemaResponseFrom6(r *tfplugin6.GetProviderSchema_Response) (*tfprotov6.GetProviderSchemaResponse, error) {
	out := &tfprotov6.GetProviderSchemaResponse{
		ServerCapabilities: serverCapabilitiesFrom6(r.ServerCapabilities),
		Diagnostics:        diagnosticsFrom6(r.Diagnostics),
	}
	var err error
	if out.Provider, err = schemaFrom6(r.Provider); err != nil {
		return nil, fmt.Errorf("provider schema: %w", err)
	}
	if out.ProviderMeta, err = schemaFrom6(r.ProviderMeta); err != nil {
		return nil, fmt.Errorf("provider_meta schema: %w", err)
	}
	for _, m := range []struct {
		kind string
		in   map[string]*tfplugin6.Schema
		out  *map[string]*tfprotov6.Schema
	}{
		{"resource", r.ResourceSchemas, &out.ResourceSchemas},
		{"data source", r.DataSourceSchemas, &out.DataSourceSchemas},
		{"ephemeral resource", r.EphemeralResourceSchemas, &out.EphemeralResourceSchemas},
		{"list resource", r.ListResourceSchemas, &out.ListResourceSchemas},
		{"state store", r.StateStoreSchemas, &out.StateStoreSchemas},
	} {
		if *m.out, err = schemasFrom6(m.in); err != nil {
			return nil, fmt.Errorf("%s %w", m.kind, err)
		}
	}
	if len(r.ActionSchemas) > 0 {
		out.ActionSchemas = make(map[string]*tfprotov6.ActionSchema, len(r.ActionSchemas))
		for name, a := range r.ActionSchemas {
			s, err := schemaFrom6(a.GetSchema())
			if err != nil {
				return nil, fmt.Errorf("action %s schema: %w", name, err)
			}
			out.ActionSchemas[name] = &tfprotov6.ActionSchema{Schema: s}
		}
	}
	if out.Functions, err = functionsFrom6(r.Functions); err != nil {
		return nil, err
	}
	return out, nil
}

func schemasFrom6(in map[string]*tfplugin6.Schema) (map[string]*tfprotov6.Schema, error) {
	out := make(map[string]*tfprotov6.Schema, len(in))
	for name, s := range in {
		c, err := schemaFrom6(s)
		if err != nil {
			return nil, fmt.Errorf("%s schema: %w", name, err)
		}
		out[name] = c
	}
	return out, nil
}

func schemaFrom6(s *tfplugin6.Schema) (*tfprotov6.Schema, error) {
	if s == nil {
		return nil, nil
	}
	b, err := schemaBlockFrom6(s.Block)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.Schema{Version: s.Version, Block: b}, nil
}

func schemaBlockFrom6(b *tfplugin6.Schema_Block) (*tfprotov6.SchemaBlock, error) {
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
	if out.Attributes, err = schemaAttributesFrom6(b.Attributes); err != nil {
		return nil, err
	}
	for _, nb := range b.BlockTypes {
		c, err := schemaNestedBlockFrom6(nb)
		if err != nil {
			return nil, err
		}
		out.BlockTypes = append(out.BlockTypes, c)
	}
	return out, nil
}

func schemaAttributesFrom6(as []*tfplugin6.Schema_Attribute) ([]*tfprotov6.SchemaAttribute, error) {
	var out []*tfprotov6.SchemaAttribute
	for _, a := range as {
		c, err := schemaAttributeFrom6(a)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func schemaAttributeFrom6(a *tfplugin6.Schema_Attribute) (*tfprotov6.SchemaAttribute, error) {
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
	if a.NestedType != nil {
		if out.NestedType, err = schemaObjectFrom6(a.NestedType); err != nil {
			return nil, fmt.Errorf("attribute %s: %w", a.Name, err)
		}
	}
	return out, nil
}

func schemaObjectFrom6(o *tfplugin6.Schema_Object) (*tfprotov6.SchemaObject, error) {
	as, err := schemaAttributesFrom6(o.Attributes)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.SchemaObject{Attributes: as, Nesting: tfprotov6.SchemaObjectNestingMode(o.Nesting)}, nil
}

func schemaNestedBlockFrom6(nb *tfplugin6.Schema_NestedBlock) (*tfprotov6.SchemaNestedBlock, error) {
	b, err := schemaBlockFrom6(nb.Block)
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

func functionsFrom6(in map[string]*tfplugin6.Function) (map[string]*tfprotov6.Function, error) {
	out := make(map[string]*tfprotov6.Function, len(in))
	for name, f := range in {
		c, err := functionFrom6(f)
		if err != nil {
			return nil, fmt.Errorf("function %s: %w", name, err)
		}
		out[name] = c
	}
	return out, nil
}

func functionFrom6(f *tfplugin6.Function) (*tfprotov6.Function, error) {
	out := &tfprotov6.Function{
		Summary:            f.Summary,
		Description:        f.Description,
		DescriptionKind:    tfprotov6.StringKind(f.DescriptionKind),
		DeprecationMessage: f.DeprecationMessage,
	}
	for _, p := range f.Parameters {
		c, err := functionParameterFrom6(p)
		if err != nil {
			return nil, err
		}
		out.Parameters = append(out.Parameters, c)
	}
	if f.VariadicParameter != nil {
		c, err := functionParameterFrom6(f.VariadicParameter)
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

func functionParameterFrom6(p *tfplugin6.Function_Parameter) (*tfprotov6.FunctionParameter, error) {
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

func importedResourcesFrom6(rs []*tfplugin6.ImportResourceState_ImportedResource) []*tfprotov6.ImportedResource {
	var out []*tfprotov6.ImportedResource
	for _, r := range rs {
		out = append(out, &tfprotov6.ImportedResource{
			TypeName: r.TypeName,
			State:    dynamicValueFrom6(r.State),
			Private:  r.Private,
			Identity: resourceIdentityDataFrom6(r.Identity),
		})
	}
	return out
}

// parseType reads a type as providers send it, cty's JSON type notation.
func parseType(b []byte) (tftypes.Type, error) {
	//lint:ignore SA1019 the public parser of cty JSON types; deprecated for third parties, used knowingly.
	t, err := tftypes.ParseJSONType(b)
	if err != nil {
		return nil, fmt.Errorf("type %s: %w", b, err)
	}
	return t, nil
}
