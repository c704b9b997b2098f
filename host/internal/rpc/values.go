package rpc

import (
	"slices"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/internal/wire"
)

// Values and the parts several messages share.

// Property values are read with one of two sets of options: Construct and
// Call, where the engine may send anything Handshake accepts (unknowns,
// secrets, resource references and output values), and the rest (CRUD,
// Invoke, configuration), where there is no monitor connection, so a
// resource reference stands for its ID (or URN), as the provider
// implementer's guide prescribes. Unknowns and secrets are kept in both.
// A program's engine reads a provider's answers with resource references
// (answerValues).
var (
	programValues = wire.UnmarshalOptions{Resources: true, OutputValues: true}
	crudValues    = wire.UnmarshalOptions{}
	answerValues  = wire.UnmarshalOptions{Resources: true}
)

// fromWire reads values that may hold anything Handshake accepts.
func fromWire(s *structpb.Struct) (property.Map, error) { return wire.UnmarshalMap(s, programValues) }

// crudFromWire reads the values of CRUD, Invoke and configuration.
func crudFromWire(s *structpb.Struct) (property.Map, error) { return wire.UnmarshalMap(s, crudValues) }

// marshal writes values with unknowns, secrets and resource references
// kept, and strings that are not valid UTF-8 as byte strings where the
// reader takes them.
func marshal(m property.Map, byteStrings bool) (*structpb.Struct, error) {
	return wire.MarshalMap(m, wire.MarshalOptions{Secrets: true, Resources: true, ByteStrings: byteStrings})
}

// toWire writes an answer's values, byte strings as the engine said at
// Handshake.
func (s *server) toWire(m property.Map) (*structpb.Struct, error) {
	return marshal(m, s.byteStrings.Load())
}

// withDependencies marks each top-level value of m with the URNs deps says
// it depends on, as a request's or an answer's dependency map does.
func withDependencies(m property.Map, deps map[string][]urn.URN) property.Map {
	for k, urns := range deps {
		v, ok := m.GetOk(k)
		if !ok {
			continue
		}
		all := slices.Clone(v.Dependencies())
		for _, u := range urns {
			if !slices.Contains(all, u) {
				all = append(all, u)
			}
		}
		m = m.Set(k, v.WithDependencies(all))
	}
	return m
}

// stackInfo builds the deployment's description; secret config values are
// marked secret so they stay secret in whatever the component builds.
func stackInfo(project, stack, org string, dryRun bool, parallel int, config map[string]string, secretKeys []string) core.StackInfo {
	cfg := make(map[string]property.Value, len(config))
	for k, v := range config {
		cfg[k] = property.New(v).WithSecret(slices.Contains(secretKeys, k))
	}
	return core.StackInfo{Project: project, Stack: stack, Organization: org, DryRun: dryRun, Parallel: parallel,
		Config: property.NewMap(cfg)}
}

// configStrings is stack configuration as the engine sends it: the values
// as strings, and the keys of the secret ones.
func configStrings(config property.Map) (map[string]string, []string) {
	if config.Len() == 0 {
		return nil, nil
	}
	out := map[string]string{}
	var secret []string
	for k, v := range config.AllStable {
		if v.IsString() {
			out[k] = v.AsString()
		}
		if v.Secret() {
			secret = append(secret, k)
		}
	}
	return out, secret
}
