package engine

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/archive"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/asset"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

const (
	// computedPlaceholder is how the real engine persists an unknown value.
	computedPlaceholder = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"
	// floatSig marks NaN/Inf numbers, which JSON cannot carry.
	floatSig = "8ad145fe-0d11-4827-bfd7-1abcbf086f5c"

	engineVersion = "polyhost-test-engine"
)

// resState is one resource row of the stack state, with decrypted values.
type resState struct {
	URN                     resource.URN
	Type                    tokens.Type
	Custom                  bool
	ID                      resource.ID
	Inputs                  resource.PropertyMap
	Outputs                 resource.PropertyMap
	Parent                  resource.URN
	Dependencies            []resource.URN
	PropertyDependencies    map[resource.PropertyKey][]resource.URN
	Provider                string
	Protect                 bool
	RetainOnDelete          bool
	DeletedWith             resource.URN
	ReplaceWith             []resource.URN
	ReplacementTrigger      resource.PropertyValue
	Delete                  bool
	PendingReplacement      bool
	External                bool
	AdditionalSecretOutputs []resource.PropertyKey
	Aliases                 []resource.URN
	CustomTimeouts          resource.CustomTimeouts
	IgnoreChanges           []string
	ReplaceOnChanges        []string
	HideDiff                []resource.PropertyPath
	InitErrors              []string
	ImportID                resource.ID
	Created, Modified       *time.Time
}

// copy returns a shallow copy; property maps are treated as immutable.
func (s *resState) copy() *resState {
	c := *s
	return &c
}

// allDeps lists every URN s depends on (parent, dependencies, property
// dependencies, deletedWith, replaceWith), without the provider.
func (s *resState) allDeps() []resource.URN {
	var deps []resource.URN
	if s.Parent != "" {
		deps = append(deps, s.Parent)
	}
	deps = append(deps, s.Dependencies...)
	for _, k := range sortedKeys(s.PropertyDependencies) {
		deps = append(deps, s.PropertyDependencies[k]...)
	}
	if s.DeletedWith != "" {
		deps = append(deps, s.DeletedWith)
	}
	return append(deps, s.ReplaceWith...)
}

// LoadState reads a state file written by the engine, or a `pulumi stack
// export` of the real CLI. Secret values stay encrypted; use LoadResources
// for a decrypted view.
func LoadState(path string) (*apitype.DeploymentV3, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var export struct {
		Version    int             `json:"version"`
		Deployment json.RawMessage `json:"deployment"`
	}
	if err := json.Unmarshal(data, &export); err == nil && export.Deployment != nil {
		// Version 4 is version 3 with a list of features the state uses
		// (byteString, replaceWith, hooks, ...), written when it uses one.
		if export.Version != 3 && export.Version != 4 {
			return nil, fmt.Errorf("parsing state %s: export version %d, want 3 or 4", path, export.Version)
		}
		data = export.Deployment
	}
	var d apitype.DeploymentV3
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("parsing state %s: %w", path, err)
	}
	return &d, nil
}

// Resource is a decrypted view of one state row, for test assertions.
type Resource struct {
	URN, Type, ID, Parent, Provider string
	Custom                          bool
	Delete, PendingReplacement      bool
	Protect, RetainOnDelete         bool
	External                        bool
	DeletedWith                     string
	ImportID                        string
	Dependencies                    []string
	PropertyDependencies            map[string][]string
	CustomTimeouts                  resource.CustomTimeouts
	InitErrors                      []string // a partial failure's reasons
	HideDiff                        []string // paths whose diffs the CLI hides
	Inputs, Outputs                 property.Map
}

// LoadResources reads a state file and decrypts its secrets with the
// per-stack key kept beside it (an export with --show-secrets needs no
// key). A missing file yields no resources.
func LoadResources(path string) ([]Resource, error) {
	states, err := readSnapshot(path)
	if err != nil {
		return nil, err
	}
	out := make([]Resource, 0, len(states))
	for _, s := range states {
		r := Resource{
			URN: string(s.URN), Type: string(s.Type), ID: string(s.ID), Parent: string(s.Parent),
			Provider: s.Provider, Custom: s.Custom, Delete: s.Delete, PendingReplacement: s.PendingReplacement,
			Protect: s.Protect, RetainOnDelete: s.RetainOnDelete, External: s.External,
			DeletedWith: string(s.DeletedWith), ImportID: string(s.ImportID), InitErrors: s.InitErrors,
			Inputs:  resource.FromResourcePropertyMap(s.Inputs),
			Outputs: resource.FromResourcePropertyMap(s.Outputs),
		}
		for _, d := range s.Dependencies {
			r.Dependencies = append(r.Dependencies, string(d))
		}
		for k, deps := range s.PropertyDependencies {
			if r.PropertyDependencies == nil {
				r.PropertyDependencies = map[string][]string{}
			}
			for _, d := range deps {
				r.PropertyDependencies[string(k)] = append(r.PropertyDependencies[string(k)], string(d))
			}
		}
		r.CustomTimeouts = s.CustomTimeouts
		for _, p := range s.HideDiff {
			r.HideDiff = append(r.HideDiff, p.String())
		}
		out = append(out, r)
	}
	return out, nil
}

// readSnapshot loads and decrypts the state at path; a missing file is an
// empty stack.
func readSnapshot(path string) ([]*resState, error) {
	d, err := LoadState(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var dec config.Decrypter = config.NewErrorCrypter("state " + path + " holds secrets but its key file is missing")
	if c, err := loadCrypter(path, false); err != nil {
		return nil, err
	} else if c != nil {
		dec = c
	}
	states := make([]*resState, 0, len(d.Resources))
	for _, r := range d.Resources {
		s, err := deserializeResource(r, dec)
		if err != nil {
			return nil, fmt.Errorf("state %s: %w", path, err)
		}
		states = append(states, s)
	}
	return states, nil
}

// writeSnapshot serializes states (encrypting secrets) and replaces the
// state file atomically.
func writeSnapshot(path string, states []*resState) error {
	enc, err := loadCrypter(path, true)
	if err != nil {
		return err
	}
	manifest := apitype.ManifestV1{Time: time.Now().UTC(), Version: engineVersion}
	manifest.Magic = manifest.NewMagic()
	d := apitype.DeploymentV3{
		Manifest:         manifest,
		SecretsProviders: secretsProviderSection(path),
	}
	for _, s := range states {
		r, err := serializeResource(s, enc)
		if err != nil {
			return err
		}
		d.Resources = append(d.Resources, r)
	}
	data, err := json.MarshalIndent(&d, "", "    ")
	if err != nil {
		return err
	}
	return writeFileAtomic(path, data, 0o600)
}

// writeFileAtomic writes to a temporary file in the same directory, fsyncs
// it and renames it over path, so readers never see a partial file.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	cleanup := func(err error) error {
		_ = f.Close()
		_ = os.Remove(tmp)
		return err
	}
	if _, err := f.Write(data); err != nil {
		return cleanup(err)
	}
	if err := f.Chmod(perm); err != nil {
		return cleanup(err)
	}
	if err := f.Sync(); err != nil {
		return cleanup(err)
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

func serializeResource(s *resState, enc config.Encrypter) (apitype.ResourceV3, error) {
	r := apitype.ResourceV3{
		URN:                     s.URN,
		Custom:                  s.Custom,
		Delete:                  s.Delete,
		ID:                      s.ID,
		Type:                    s.Type,
		Parent:                  s.Parent,
		Protect:                 s.Protect,
		External:                s.External,
		Dependencies:            s.Dependencies,
		InitErrors:              s.InitErrors,
		Provider:                s.Provider,
		PropertyDependencies:    s.PropertyDependencies,
		PendingReplacement:      s.PendingReplacement,
		AdditionalSecretOutputs: s.AdditionalSecretOutputs,
		Aliases:                 s.Aliases,
		ImportID:                s.ImportID,
		RetainOnDelete:          s.RetainOnDelete,
		DeletedWith:             s.DeletedWith,
		ReplaceWith:             s.ReplaceWith,
		Created:                 s.Created,
		Modified:                s.Modified,
		IgnoreChanges:           s.IgnoreChanges,
		ReplaceOnChanges:        s.ReplaceOnChanges,
		HideDiff:                s.HideDiff,
	}
	if s.CustomTimeouts.IsNotEmpty() {
		ct := s.CustomTimeouts
		r.CustomTimeouts = &ct
	}
	var err error
	if s.Inputs != nil {
		if r.Inputs, err = serializeProps(s.Inputs, enc); err != nil {
			return r, fmt.Errorf("%s inputs: %w", s.URN, err)
		}
	}
	if s.Outputs != nil {
		if r.Outputs, err = serializeProps(s.Outputs, enc); err != nil {
			return r, fmt.Errorf("%s outputs: %w", s.URN, err)
		}
	}
	if !s.ReplacementTrigger.IsNull() {
		if r.ReplacementTrigger, err = serializeValue(s.ReplacementTrigger, enc); err != nil {
			return r, fmt.Errorf("%s replacementTrigger: %w", s.URN, err)
		}
	}
	return r, nil
}

func serializeProps(m resource.PropertyMap, enc config.Encrypter) (map[string]any, error) {
	out := make(map[string]any, len(m))
	for _, k := range m.StableKeys() {
		v, err := serializeValue(m[k], enc)
		if err != nil {
			return nil, err
		}
		out[string(k)] = v
	}
	return out, nil
}

// serializeValue mirrors the real engine's state encoding: unknowns become the
// computed placeholder, output values are flattened, secrets become the
// encrypted envelope {sig: secretSig, ciphertext}.
func serializeValue(v resource.PropertyValue, enc config.Encrypter) (any, error) {
	switch {
	case v.IsNull():
		return nil, nil
	case v.IsComputed():
		return computedPlaceholder, nil
	case v.IsOutput():
		o := v.OutputValue()
		elem := o.Element
		if !o.Known {
			elem = resource.MakeComputed(resource.NewProperty(""))
		}
		if o.Secret {
			elem = resource.MakeSecret(elem)
		}
		return serializeValue(elem, enc)
	case v.IsArray():
		arr := v.ArrayValue()
		out := make([]any, len(arr))
		for i, e := range arr {
			se, err := serializeValue(e, enc)
			if err != nil {
				return nil, err
			}
			out[i] = se
		}
		return out, nil
	case v.IsObject():
		return serializeProps(v.ObjectValue(), enc)
	case v.IsAsset():
		return v.AssetValue().Serialize(), nil
	case v.IsArchive():
		return v.ArchiveValue().Serialize(), nil
	case v.IsResourceReference():
		ref := v.ResourceReferenceValue()
		m := map[string]any{
			resource.SigKey:  resource.ResourceReferenceSig,
			"urn":            string(ref.URN),
			"packageVersion": ref.PackageVersion,
		}
		if id, ok := ref.IDString(); ok {
			m["id"] = id
		}
		return m, nil
	case v.IsSecret():
		// Encrypt the whole serialized element once; nested secrets need no second layer.
		inner, err := serializeValue(v.SecretValue().Element, config.NopEncrypter)
		if err != nil {
			return nil, err
		}
		plain, err := json.Marshal(inner)
		if err != nil {
			return nil, err
		}
		if enc == config.NopEncrypter {
			// Nested inside an outer secret: keep the marker, the outer layer encrypts.
			return map[string]any{resource.SigKey: resource.SecretSig, "plaintext": string(plain)}, nil
		}
		ct, err := enc.EncryptValue(context.Background(), string(plain))
		if err != nil {
			return nil, err
		}
		return &apitype.SecretV1{Sig: resource.SecretSig, Ciphertext: ct}, nil
	case v.IsString() && !utf8.ValidString(v.StringValue()):
		return map[string]any{
			resource.SigKey: resource.ByteStringSig,
			"value":         base64.StdEncoding.EncodeToString([]byte(v.StringValue())),
		}, nil
	case v.IsNumber() && (math.IsNaN(v.NumberValue()) || math.IsInf(v.NumberValue(), 0)):
		return map[string]any{
			resource.SigKey: floatSig,
			"value":         fmt.Sprintf("%016x", math.Float64bits(v.NumberValue())),
		}, nil
	default:
		return v.V, nil
	}
}

func deserializeResource(r apitype.ResourceV3, dec config.Decrypter) (*resState, error) {
	if r.URN == "" {
		return nil, errors.New("resource without urn")
	}
	if r.Type == "" {
		return nil, fmt.Errorf("resource %s has no type", r.URN)
	}
	ins, err := deserializeProps(r.Inputs, dec)
	if err != nil {
		return nil, fmt.Errorf("%s inputs: %w", r.URN, err)
	}
	outs, err := deserializeProps(r.Outputs, dec)
	if err != nil {
		return nil, fmt.Errorf("%s outputs: %w", r.URN, err)
	}
	trigger, err := deserializeValue(r.ReplacementTrigger, dec)
	if err != nil {
		return nil, fmt.Errorf("%s replacementTrigger: %w", r.URN, err)
	}
	s := &resState{
		URN: r.URN, Type: r.Type, Custom: r.Custom, ID: r.ID, Inputs: ins, Outputs: outs,
		Parent: r.Parent, Dependencies: r.Dependencies, PropertyDependencies: r.PropertyDependencies,
		Provider: r.Provider, Protect: r.Protect, RetainOnDelete: r.RetainOnDelete,
		DeletedWith: r.DeletedWith, ReplaceWith: r.ReplaceWith, ReplacementTrigger: trigger,
		Delete: r.Delete, PendingReplacement: r.PendingReplacement, External: r.External,
		AdditionalSecretOutputs: r.AdditionalSecretOutputs, Aliases: r.Aliases,
		IgnoreChanges: r.IgnoreChanges, ReplaceOnChanges: r.ReplaceOnChanges, HideDiff: r.HideDiff, InitErrors: r.InitErrors,
		ImportID: r.ImportID, Created: r.Created, Modified: r.Modified,
	}
	if r.CustomTimeouts != nil {
		s.CustomTimeouts = *r.CustomTimeouts
	}
	return s, nil
}

// deserializeProps always returns a non-nil map, as the real engine's
// stack.DeserializeProperties does: providers are promised old inputs.
func deserializeProps(m map[string]any, dec config.Decrypter) (resource.PropertyMap, error) {
	out := make(resource.PropertyMap, len(m))
	for k, v := range m {
		pv, err := deserializeValue(v, dec)
		if err != nil {
			return nil, err
		}
		out[resource.PropertyKey(k)] = pv
	}
	return out, nil
}

func deserializeValue(v any, dec config.Decrypter) (resource.PropertyValue, error) {
	switch w := v.(type) {
	case nil:
		return resource.NewNullProperty(), nil
	case bool:
		return resource.NewProperty(w), nil
	case float64:
		return resource.NewProperty(w), nil
	case string:
		if w == computedPlaceholder {
			return resource.MakeComputed(resource.NewProperty("")), nil
		}
		return resource.NewProperty(w), nil
	case []any:
		arr := make([]resource.PropertyValue, len(w))
		for i, e := range w {
			pe, err := deserializeValue(e, dec)
			if err != nil {
				return resource.PropertyValue{}, err
			}
			arr[i] = pe
		}
		return resource.NewProperty(arr), nil
	case map[string]any:
		return deserializeObject(w, dec)
	default:
		return resource.PropertyValue{}, fmt.Errorf("unexpected state value of type %T", v)
	}
}

func deserializeObject(w map[string]any, dec config.Decrypter) (resource.PropertyValue, error) {
	sig, hasSig := w[resource.SigKey]
	if !hasSig {
		obj, err := deserializeProps(w, dec)
		if err != nil {
			return resource.PropertyValue{}, err
		}
		return resource.NewProperty(obj), nil
	}
	switch sig {
	case asset.AssetSig:
		a, _, err := asset.Deserialize(w)
		if err != nil {
			return resource.PropertyValue{}, err
		}
		return resource.NewProperty(a), nil
	case archive.ArchiveSig:
		a, _, err := archive.Deserialize(w)
		if err != nil {
			return resource.PropertyValue{}, err
		}
		return resource.NewProperty(a), nil
	case resource.SecretSig:
		ct, hasCT := w["ciphertext"].(string)
		pt, hasPT := w["plaintext"].(string)
		if hasCT == hasPT {
			return resource.PropertyValue{}, errors.New("malformed secret: exactly one of ciphertext or plaintext")
		}
		if hasCT {
			var err error
			if pt, err = dec.DecryptValue(context.Background(), ct); err != nil {
				return resource.PropertyValue{}, fmt.Errorf("decrypting secret: %w", err)
			}
		}
		var elem any
		if err := json.Unmarshal([]byte(pt), &elem); err != nil {
			return resource.PropertyValue{}, fmt.Errorf("decoding secret: %w", err)
		}
		inner, err := deserializeValue(elem, dec)
		if err != nil {
			return resource.PropertyValue{}, err
		}
		return resource.MakeSecret(inner), nil
	case resource.ResourceReferenceSig:
		urn, ok := w["urn"].(string)
		if !ok {
			return resource.PropertyValue{}, errors.New("malformed resource reference: missing urn")
		}
		version, _ := w["packageVersion"].(string)
		if id, hasID := w["id"]; hasID {
			ids, _ := id.(string)
			return resource.MakeCustomResourceReference(resource.URN(urn), resource.ID(ids), version), nil
		}
		return resource.MakeComponentResourceReference(resource.URN(urn), version), nil
	case resource.ByteStringSig:
		s, _ := w["value"].(string)
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return resource.PropertyValue{}, fmt.Errorf("malformed byte string: %w", err)
		}
		return resource.NewProperty(string(b)), nil
	case floatSig:
		s, _ := w["value"].(string)
		bits, err := strconv.ParseUint(s, 16, 64)
		if err != nil {
			return resource.PropertyValue{}, fmt.Errorf("malformed float: %w", err)
		}
		return resource.NewProperty(math.Float64frombits(bits)), nil
	default:
		return resource.PropertyValue{}, fmt.Errorf("unrecognized signature %v in state", sig)
	}
}

func sortedKeys[V any](m map[resource.PropertyKey]V) []resource.PropertyKey {
	keys := make([]resource.PropertyKey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
