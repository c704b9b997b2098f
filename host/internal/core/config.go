package core

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/schema"
)

// configState is the provider instance's configuration: the values, and
// them decoded into WithConfig's type. Configure replaces it whole.
type configState struct {
	values     property.Map
	typed      any // WithConfig's C; nil without WithConfig
	configured bool
	// self is the provider resource the engine configured the instance
	// as, when it said (a method's children default to it).
	self providers.Reference
}

// reservedConfigKeys are keys the engine adds to provider inputs itself.
var reservedConfigKeys = []string{"version", "pluginDownloadURL"}

// configSpec is the schema of the provider's configuration.
func (p *Provider) configSpec() (schema.Object, bool) {
	if p.schema == nil {
		return schema.Object{}, false
	}
	if len(p.schema.Config.Variables) > 0 {
		return schema.Object{Properties: p.schema.Config.Variables, Required: p.schema.Config.Required}, true
	}
	return p.schema.Provider.Inputs(), true
}

// CheckConfig validates news against the schema's config section, applies
// defaults, and marks secret variables secret; its failures are redacted.
func (p *Provider) CheckConfig(news property.Map) (property.Map, []diag.CheckFailure) {
	checked, failures := p.checkConfig(news)
	return checked, printable(failures, news, checked)
}

// checkConfig is CheckConfig before its failures are redacted.
func (p *Provider) checkConfig(news property.Map) (property.Map, []diag.CheckFailure) {
	spec, ok := p.configSpec()
	if !ok {
		return news, nil
	}
	checked := news.Delete(reservedConfigKeys...)
	for name, prop := range spec.Properties {
		v, has := checked.GetOk(name)
		if has {
			v = fromConfigString(p.schema.TypeOf(prop), v)
			checked = checked.Set(name, v)
		}
		if !has || v.IsNull() {
			if dv, ok := defaultValue(prop, p.schema.TypeOf(prop)); ok {
				checked = checked.Set(name, dv)
			}
		}
		if v, has := checked.GetOk(name); has && prop.Secret {
			checked = checked.Set(name, v.WithSecret(true))
		}
	}
	failures := p.schema.Check(spec, checked)
	for _, k := range reservedConfigKeys {
		if v, ok := news.GetOk(k); ok {
			checked = checked.Set(k, v)
		}
	}
	return checked, failures
}

// defaultValue is the value of a property of type typ that is absent
// from inputs or configuration: from the first environment variable its
// defaultInfo names that is set, else its default; ok is false if it has
// neither.
func defaultValue(prop schema.Property, typ string) (v property.Value, ok bool) {
	if prop.DefaultInfo != nil {
		for _, name := range prop.DefaultInfo.Environment {
			if s := os.Getenv(name); s != "" {
				return fromConfigString(typ, property.New(s)), true
			}
		}
	}
	if prop.Default == nil {
		return property.Value{}, false
	}
	v, err := property.Any(prop.Default)
	return v, err == nil
}

// fromConfigString decodes a string given for a variable of another type
// typ. The engine passes stack config to a default provider as strings
// ("3", "true", a JSON list or object), and the generated Node and Python
// SDKs JSON-encode an explicit provider's non-string inputs. A string that
// does not decode is left for the schema check to name.
func fromConfigString(typ string, v property.Value) property.Value {
	if !v.IsString() {
		return v
	}
	switch typ {
	case "integer", "number", "boolean", "array", "object":
	default:
		return v
	}
	var decoded any
	if err := json.Unmarshal([]byte(v.AsString()), &decoded); err != nil {
		return v
	}
	return jsonValue(decoded).WithSecret(v.Secret())
}

// jsonValue is the property value of what encoding/json decodes into an
// any: nil, a bool, a float64, a string, or a slice or map of those.
func jsonValue(v any) property.Value {
	switch v := v.(type) {
	case bool:
		return property.New(v)
	case float64:
		return property.New(v)
	case string:
		return property.New(v)
	case []any:
		elems := make([]property.Value, len(v))
		for i, e := range v {
			elems[i] = jsonValue(e)
		}
		return property.New(elems)
	case map[string]any:
		fields := make(map[string]property.Value, len(v))
		for k, e := range v {
			fields[k] = jsonValue(e)
		}
		return property.New(fields)
	}
	return property.Value{} // null
}

// ConfigDiff is the outcome of DiffConfig.
type ConfigDiff struct {
	Changed  []string // keys whose value changed
	Replaces []string // changed keys that force replacing the provider
}

// diffConfig compares two configurations. A change to a variable marked
// replaceOnChanges in the schema replaces the provider (and so every
// resource it manages); any other change is an in-place update.
func (p *Provider) DiffConfig(olds, news property.Map) ConfigDiff {
	spec, _ := p.configSpec()
	keys := map[string]bool{}
	for k := range olds.All {
		keys[k] = true
	}
	for k := range news.All {
		keys[k] = true
	}
	var d ConfigDiff
	for k := range keys {
		if k == "version" || k == "pluginDownloadURL" {
			continue
		}
		o, n := olds.Get(k), news.Get(k)
		if o.Equals(n) {
			continue
		}
		d.Changed = append(d.Changed, k)
		if prop, ok := spec.Properties[k]; ok && (prop.ReplaceOnChanges || prop.WillReplaceOnChanges) {
			d.Replaces = append(d.Replaces, k)
		}
	}
	sort.Strings(d.Changed)
	sort.Strings(d.Replaces)
	return d
}

// Configure records the configuration and runs the author's function
// (host.WithConfig); its error, or panic, is redacted. self is the
// provider resource configured, zero if the engine did not say.
func (p *Provider) Configure(ctx context.Context, config property.Map, self providers.Reference) error {
	_, err := recovering("", "", "configure", func() (struct{}, error) { return struct{}{}, p.configure(ctx, config, self) })
	if err != nil {
		return p.Failed(ctx, err, "", "", config)
	}
	return nil
}

// configure records the configuration and runs the author's function,
// whose context has the new configuration.
func (p *Provider) configure(ctx context.Context, config property.Map, self providers.Reference) error {
	state := &configState{values: config, configured: true, self: self}
	if p.onConfigure != nil {
		typed, err := p.decodeConfig(config)
		if err == nil {
			state.typed = typed
			err = p.onConfigure(context.WithValue(ctx, scopeKey{}, &scope{p: p, config: state}), config)
		}
		if err != nil {
			return fmt.Errorf("configure %s: %w", p.name, err)
		}
	}
	p.mu.Lock()
	p.config = state
	p.mu.Unlock()
	return nil
}

// Config is the configuration's values, secrets marked.
func (p *Provider) Config() property.Map { return p.configNow().values }

// configNow is the configuration as it is now.
func (p *Provider) configNow() *configState {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.config
}
