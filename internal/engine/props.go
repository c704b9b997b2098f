package engine

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
)

// downgradeOutputValues replaces output values with computed, secret or
// plain values, as the engine does for non-remote registrations.
func downgradeOutputValues(m resource.PropertyMap) resource.PropertyMap {
	out := make(resource.PropertyMap, len(m))
	for k, v := range m {
		out[k] = downgradeOutputValue(v)
	}
	return out
}

func downgradeOutputValue(v resource.PropertyValue) resource.PropertyValue {
	switch {
	case v.IsOutput():
		o := v.OutputValue()
		r := resource.MakeComputed(resource.NewProperty(""))
		if o.Known {
			r = downgradeOutputValue(o.Element)
		}
		if o.Secret {
			r = resource.MakeSecret(r)
		}
		return r
	case v.IsObject():
		return resource.NewProperty(downgradeOutputValues(v.ObjectValue()))
	case v.IsArray():
		arr := make([]resource.PropertyValue, len(v.ArrayValue()))
		for i, e := range v.ArrayValue() {
			arr[i] = downgradeOutputValue(e)
		}
		return resource.NewProperty(arr)
	case v.IsSecret():
		return resource.MakeSecret(downgradeOutputValue(v.SecretValue().Element))
	case v.IsResourceReference():
		ref := v.ResourceReferenceValue()
		ref.ID = downgradeOutputValue(ref.ID)
		return resource.NewProperty(ref)
	default:
		return v
	}
}

// outputDeps collects the dependencies carried by output values inside v.
func outputDeps(v resource.PropertyValue, into map[resource.URN]bool) {
	switch {
	case v.IsOutput():
		o := v.OutputValue()
		if o.Known {
			outputDeps(o.Element, into)
		}
		for _, d := range o.Dependencies {
			into[d] = true
		}
	case v.IsResourceReference():
		outputDeps(v.ResourceReferenceValue().ID, into)
	case v.IsObject():
		for _, e := range v.ObjectValue() {
			outputDeps(e, into)
		}
	case v.IsArray():
		for _, e := range v.ArrayValue() {
			outputDeps(e, into)
		}
	case v.IsSecret():
		outputDeps(v.SecretValue().Element, into)
	}
}

// extendDeps returns deps plus the output-value dependencies of v, sorted and
// without duplicates.
func extendDeps(deps []resource.URN, v resource.PropertyValue) []resource.URN {
	set := make(map[resource.URN]bool, len(deps))
	for _, d := range deps {
		set[d] = true
	}
	outputDeps(v, set)
	return sortedURNs(set)
}

func sortedURNs(set map[resource.URN]bool) []resource.URN {
	out := make([]resource.URN, 0, len(set))
	for u := range set {
		out = append(out, u)
	}
	slices.Sort(out)
	return out
}

func dedupURNs(in []resource.URN) []resource.URN {
	if len(in) == 0 {
		return nil
	}
	set := make(map[resource.URN]bool, len(in))
	for _, u := range in {
		if u != "" {
			set[u] = true
		}
	}
	return sortedURNs(set)
}

// processIgnoreChanges resets each ignoreChanges path in inputs to its old
// value. Paths that cannot be reset are returned.
func processIgnoreChanges(inputs, oldInputs resource.PropertyMap, ignoreChanges []string) (resource.PropertyMap, []string) {
	out := inputs.Copy()
	var invalid []string
	for _, ic := range ignoreChanges {
		path, err := resource.ParsePropertyPath(ic)
		if err != nil {
			continue
		}
		if !path.Reset(oldInputs, out) {
			invalid = append(invalid, ic)
		}
	}
	return out, invalid
}

// applyReplaceOnChanges upgrades changed keys matching replaceOnChanges paths
// to replacements, like the real step generator.
func applyReplaceOnChanges(diff plugin.DiffResult, replaceOnChanges []string, hasInitErrors bool) (plugin.DiffResult, error) {
	if diff.Changes != plugin.DiffSome && !hasInitErrors {
		return diff, nil
	}
	paths := make([]resource.PropertyPath, 0, len(replaceOnChanges))
	for _, p := range replaceOnChanges {
		path, err := resource.ParsePropertyPath(p)
		if err != nil {
			return diff, err
		}
		paths = append(paths, path)
	}
	contains := func(p resource.PropertyPath) bool {
		for _, rp := range paths {
			if rp.Contains(p) {
				return true
			}
		}
		return false
	}
	if diff.DetailedDiff != nil {
		dd := make(map[string]plugin.PropertyDiff, len(diff.DetailedDiff))
		for p, v := range diff.DetailedDiff {
			path, err := resource.ParsePropertyPath(p)
			if err != nil {
				return diff, err
			}
			if contains(path) {
				v = v.ToReplace()
			}
			dd[p] = v
		}
		diff.DetailedDiff = dd
	}
	keys := map[resource.PropertyKey]bool{}
	for _, k := range diff.ReplaceKeys {
		keys[k] = true
	}
	for _, k := range diff.ChangedKeys {
		if path, err := resource.ParsePropertyPath(string(k)); err == nil && contains(path) {
			keys[k] = true
		}
	}
	if hasInitErrors {
		if path, err := resource.ParsePropertyPath("#initerror"); err == nil && contains(path) {
			keys["#initerror"] = true
			diff.Changes = plugin.DiffSome
		}
	}
	diff.ReplaceKeys = diff.ReplaceKeys[:0:0]
	for k := range keys {
		diff.ReplaceKeys = append(diff.ReplaceKeys, k)
	}
	slices.Sort(diff.ReplaceKeys)
	return diff, nil
}

// unwrapSecretsAndOutputs strips secret and output wrappers so that values can
// be compared structurally.
func unwrapSecretsAndOutputs(m resource.PropertyMap) resource.PropertyMap {
	out := make(resource.PropertyMap, len(m))
	for k, v := range m {
		out[k] = unwrapValue(v)
	}
	return out
}

func unwrapValue(v resource.PropertyValue) resource.PropertyValue {
	switch {
	case v.IsSecret():
		return unwrapValue(v.SecretValue().Element)
	case v.IsOutput():
		o := v.OutputValue()
		if !o.Known {
			return resource.MakeComputed(resource.NewProperty(""))
		}
		return unwrapValue(o.Element)
	case v.IsArray():
		arr := make([]resource.PropertyValue, len(v.ArrayValue()))
		for i, e := range v.ArrayValue() {
			arr[i] = unwrapValue(e)
		}
		return resource.NewProperty(arr)
	case v.IsObject():
		return resource.NewProperty(unwrapSecretsAndOutputs(v.ObjectValue()))
	case v.IsResourceReference():
		ref := v.ResourceReferenceValue()
		ref.ID = unwrapValue(ref.ID)
		return resource.NewProperty(ref)
	default:
		return v
	}
}

// shouldTriggerReplace reports whether a replacementTrigger changed.
func shouldTriggerReplace(newV, oldV resource.PropertyValue) bool {
	newV, oldV = unwrapValue(newV), unwrapValue(oldV)
	if newV.ContainsUnknowns() || oldV.ContainsUnknowns() {
		return true
	}
	if newV.IsNull() || oldV.IsNull() {
		return false
	}
	return !newV.DeepEquals(oldV)
}

// stripUnknowns drops top-level keys holding unknowns, for callers that did
// not set supportsPartialValues.
func stripUnknowns(m resource.PropertyMap) resource.PropertyMap {
	out := resource.PropertyMap{}
	for k, v := range m {
		if !v.ContainsUnknowns() {
			out[k] = v
		}
	}
	return out
}

// annotateSecretOutputs applies additionalSecretOutputs and marks outputs
// secret when the same-named input was secret, as the step executor does.
func annotateSecretOutputs(s *resState) []string {
	if s.Outputs == nil {
		return nil
	}
	var warnings []string
	outs := s.Outputs.Copy()
	for _, k := range s.AdditionalSecretOutputs {
		if k == "id" {
			warnings = append(warnings, "The 'id' property cannot be made secret. See pulumi/pulumi#2717 for more details.")
			continue
		}
		if v, ok := outs[k]; ok && !v.IsSecret() {
			outs[k] = resource.MakeSecret(v)
		}
	}
	for k, v := range outs {
		if v.IsSecret() {
			continue
		}
		if in, ok := s.Inputs[k]; ok && in.IsSecret() {
			outs[k] = resource.MakeSecret(v)
		}
	}
	s.Outputs = outs
	return warnings
}

// setProviderVersion and setProviderURL record a provider resource's plugin
// in its inputs as the real engine's providers.SetProviderVersion and
// SetProviderURL do: the version at the top level, the download URL in the
// engine-internal "__internal" object, which either creates (so a versioned
// provider has "__internal": {}).
func setProviderVersion(inputs resource.PropertyMap, version string) {
	providerInternal(inputs)
	inputs["version"] = resource.NewProperty(version)
}

func setProviderURL(inputs resource.PropertyMap, url string) {
	providerInternal(inputs)["pluginDownloadURL"] = resource.NewProperty(url)
}

// setProviderChecksums records a plugin's checksums, by platform, as the
// real engine does: hexadecimal strings under __internal's pluginChecksums.
func setProviderChecksums(inputs resource.PropertyMap, checksums map[string][]byte) {
	m := make(resource.PropertyMap, len(checksums))
	for platform, sum := range checksums {
		m[resource.PropertyKey(platform)] = resource.NewProperty(hex.EncodeToString(sum))
	}
	providerInternal(inputs)["pluginChecksums"] = resource.NewProperty(m)
}

// providerInternal returns the "__internal" object of a provider's inputs,
// adding an empty one if there is none.
func providerInternal(inputs resource.PropertyMap) resource.PropertyMap {
	if in := inputs["__internal"]; in.IsObject() {
		return in.ObjectValue()
	}
	m := resource.PropertyMap{}
	inputs["__internal"] = resource.NewProperty(m)
	return m
}

// filterProviderConfig drops the engine-internal "__internal" key.
func filterProviderConfig(m resource.PropertyMap) resource.PropertyMap {
	out := resource.PropertyMap{}
	for k, v := range m {
		if k != "__internal" {
			out[k] = v
		}
	}
	return out
}

// defaultProviderName builds "default[_maj_min_patch[_pre...][_build...]][_url]"
// like the real engine's ProviderRequest.DefaultName.
func defaultProviderName(version *semver.Version, downloadURL string) string {
	var b strings.Builder
	b.WriteString("default")
	if version != nil {
		fmt.Fprintf(&b, "_%d_%d_%d", version.Major, version.Minor, version.Patch)
		for _, pre := range version.Pre {
			b.WriteString("_" + pre.String())
		}
		for _, build := range version.Build {
			b.WriteString("_" + build)
		}
	}
	if downloadURL != "" {
		b.WriteString("_" + tokens.IntoQName(downloadURL).String())
	}
	return b.String()
}
