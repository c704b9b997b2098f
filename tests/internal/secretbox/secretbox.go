// Package secretbox is a test provider package for secrets by provenance:
// components that derive values from their inputs in ways the host cannot
// follow by text (base64, upper case, a hash), so that the end-to-end
// scripts tests/testdata/real_secrets_* can check no secret, nor anything
// derived from one, reaches the state or the CLI's output in plaintext,
// while values never derived from a secret stay plain.
//
// Box decodes its inputs into plain Go fields; PreciseBox takes them as
// property.Value and derives with host.Apply; EnvBox takes a secret input
// that the host may fill from an environment variable. Vault is a custom resource
// that stores nothing: its outputs are its inputs and a digest. Box.reveal
// and shout upper-case a plain string argument.
package secretbox

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/monitorclient"
)

// Schema is schema.yaml, the package schema.
//
//go:embed schema.yaml
var Schema []byte

// Name is the package name.
const Name = "secretbox"

// Tokens of the package.
const (
	BoxType        = "secretbox:index:Box"
	PreciseBoxType = "secretbox:index:PreciseBox"
	EnvBoxType     = "secretbox:index:EnvBox"
	VaultType      = "secretbox:index:Vault"
	RevealMethod   = "secretbox:index:Box/reveal"
	ShoutFunction  = "secretbox:index:shout"
)

// Options describe the secretbox package to the host.
func Options(version string) []host.Option {
	return []host.Option{
		host.WithVersion(version),
		host.WithSchema(Schema),
		host.WithComponent(BoxType, BuildBox),
		host.WithComponent(PreciseBoxType, BuildPreciseBox),
		host.WithComponent(EnvBoxType, BuildEnvBox),
		host.WithResource(VaultType, Vault{}),
		host.WithMethod(RevealMethod, Reveal),
		host.WithFunction(ShoutFunction, Shout),
	}
}

// Nested is the type secretbox:index:Nested.
type Nested struct {
	Inner string `pulumi:"inner"`
}

// BoxArgs are a Box's inputs, all plain Go fields but Precise.
type BoxArgs struct {
	Password string            `pulumi:"password"`
	Pin      string            `pulumi:"pin,optional"`
	Count    int               `pulumi:"count,optional"`
	Flag     bool              `pulumi:"flag,optional"`
	Nested   Nested            `pulumi:"nested,optional"`
	List     []string          `pulumi:"list,optional"`
	Labels   map[string]string `pulumi:"labels,optional"`
	Plain    string            `pulumi:"plain,optional"`
	Precise  property.Value    `pulumi:"precise,optional"`
}

// BoxOutputs are a Box's outputs, computed in Go from the plain fields.
type BoxOutputs struct {
	Encoded   string `pulumi:"encoded"`
	Upper     string `pulumi:"upper"`
	Hash      string `pulumi:"hash"`
	PlainEcho string `pulumi:"plainEcho"`
}

// VaultArgs are a Vault's inputs. Box builds them from plain Go values; the
// Vault backend decodes them into plain Go values too.
type VaultArgs struct {
	Encoded    string            `pulumi:"encoded,optional"`
	Upper      string            `pulumi:"upper,optional"`
	Hash       string            `pulumi:"hash,optional"`
	Short      string            `pulumi:"short,optional"`
	Doubled    int               `pulumi:"doubled,optional"`
	FlagText   string            `pulumi:"flagText,optional"`
	Inner      string            `pulumi:"inner,optional"`
	ListJoined string            `pulumi:"listJoined,optional"`
	Labels     map[string]string `pulumi:"labels,optional"`
	Note       string            `pulumi:"note,optional"`
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// BuildBox registers one Vault whose inputs are derived from the plain
// fields, and returns values derived the same way.
func BuildBox(ctx context.Context, c *host.Component, args BoxArgs) (BoxOutputs, error) {
	flag := "flag-off"
	if args.Flag {
		flag = "flag-on"
	}
	var labels map[string]string
	if args.Labels != nil {
		labels = map[string]string{}
		for k, v := range args.Labels {
			labels[k] = strings.ToUpper(v)
		}
	}
	inputs, err := host.Encode(VaultArgs{
		Encoded:    b64(args.Password),
		Upper:      strings.ToUpper(args.Password),
		Hash:       sha(args.Password),
		Short:      args.Pin,
		Doubled:    args.Count * 2,
		FlagText:   flag,
		Inner:      strings.ToUpper(args.Nested.Inner),
		ListJoined: strings.ToUpper(strings.Join(args.List, ",")),
		Labels:     labels,
	})
	if err != nil {
		return BoxOutputs{}, err
	}
	if !args.Precise.IsNull() {
		inputs = inputs.Set("note", args.Precise)
	}
	if _, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
		Type: VaultType, Name: c.Name() + "-vault", Custom: true, Inputs: inputs,
	}); err != nil {
		return BoxOutputs{}, err
	}
	return BoxOutputs{
		Encoded:   b64(args.Password),
		Upper:     strings.ToUpper(args.Password),
		Hash:      sha(args.Password),
		PlainEcho: args.Plain,
	}, nil
}

// PreciseArgs are a PreciseBox's inputs, raw.
type PreciseArgs struct {
	Password property.Value `pulumi:"password"`
	Plain    property.Value `pulumi:"plain,optional"`
}

// PreciseOutputs are a PreciseBox's outputs.
type PreciseOutputs struct {
	PlainEcho property.Value `pulumi:"plainEcho"`
}

// derive is host.Apply of a string function over one value.
func derive(f func(string) string, v property.Value) property.Value {
	return host.Apply(func(vals ...property.Value) property.Value {
		if !vals[0].IsString() {
			return property.New(property.Null)
		}
		return property.New(f(vals[0].AsString()))
	}, v)
}

// BuildPreciseBox registers a Vault derived from the password with
// host.Apply, and an open Vault derived from the plain input alone; it
// returns the plain input.
func BuildPreciseBox(ctx context.Context, c *host.Component, args PreciseArgs) (PreciseOutputs, error) {
	plain := args.Plain
	if plain.IsNull() {
		plain = property.New("")
	}
	g, gctx := c.Group(ctx)
	g.Go(func() error {
		_, err := c.Register(gctx, monitorclient.RegisterResourceRequest{
			Type: VaultType, Name: c.Name() + "-vault", Custom: true,
			Inputs: property.NewMap(map[string]property.Value{
				"encoded": derive(b64, args.Password),
				"upper":   derive(strings.ToUpper, args.Password),
				"hash":    derive(sha, args.Password),
				"note":    plain,
			}),
		})
		return err
	})
	g.Go(func() error {
		_, err := c.Register(gctx, monitorclient.RegisterResourceRequest{
			Type: VaultType, Name: c.Name() + "-open", Custom: true,
			Inputs: property.NewMap(map[string]property.Value{
				"encoded": derive(b64, plain),
				"upper":   derive(strings.ToUpper, plain),
				"note":    plain,
			}),
		})
		return err
	})
	if err := g.Wait(); err != nil {
		return PreciseOutputs{}, err
	}
	return PreciseOutputs{PlainEcho: plain}, nil
}

// EnvBoxArgs are an EnvBox's inputs: a token the schema marks secret,
// which the host fills from SECRETBOX_TOKEN when the program gives none.
type EnvBoxArgs struct {
	Token string `pulumi:"token,optional"`
}

// EnvBoxOutputs are an EnvBox's outputs, both from the token.
type EnvBoxOutputs struct {
	TokenEcho  string `pulumi:"tokenEcho"`
	TokenUpper string `pulumi:"tokenUpper"`
}

// BuildEnvBox registers a Vault holding the token upper-cased and in
// base64, and returns the token as given and upper-cased.
func BuildEnvBox(ctx context.Context, c *host.Component, args EnvBoxArgs) (EnvBoxOutputs, error) {
	inputs, err := host.Encode(VaultArgs{Encoded: b64(args.Token), Upper: strings.ToUpper(args.Token)})
	if err != nil {
		return EnvBoxOutputs{}, err
	}
	if _, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
		Type: VaultType, Name: c.Name() + "-vault", Custom: true, Inputs: inputs,
	}); err != nil {
		return EnvBoxOutputs{}, err
	}
	return EnvBoxOutputs{TokenEcho: args.Token, TokenUpper: strings.ToUpper(args.Token)}, nil
}

// Vault manages secretbox:index:Vault. It stores nothing outside the
// state: every operation computes the outputs from the inputs, decoded
// into plain Go values as most backends do.
type Vault struct{}

var _ custom.Resource = Vault{}

func vaultState(inputs property.Map) (property.Map, error) {
	var args VaultArgs
	if err := host.Decode(inputs, &args); err != nil {
		return property.Map{}, err
	}
	out, err := host.Encode(args)
	if err != nil {
		return property.Map{}, err
	}
	return out.Set("digest", property.New(sha(args.Encoded))), nil
}

// Create computes the outputs; the ID is the resource's name.
func (Vault) Create(ctx context.Context, req custom.CreateRequest) (custom.CreateResponse, error) {
	out, err := vaultState(req.Inputs)
	if err != nil {
		return custom.CreateResponse{}, err
	}
	return custom.CreateResponse{ID: resource.ID("vault-" + req.Name), Outputs: out}, nil
}

// Read recomputes the outputs from the recorded inputs: nothing changes
// out of band.
func (Vault) Read(ctx context.Context, req custom.ReadRequest) (custom.ReadResponse, error) {
	out, err := vaultState(req.Inputs)
	if err != nil {
		return custom.ReadResponse{}, err
	}
	ins, err := vaultInputs(req.Inputs)
	if err != nil {
		return custom.ReadResponse{}, err
	}
	return custom.ReadResponse{ID: req.ID, Inputs: ins, Outputs: out}, nil
}

// vaultInputs are the inputs as the backend sees them: decoded and encoded
// again, plain.
func vaultInputs(inputs property.Map) (property.Map, error) {
	var args VaultArgs
	if err := host.Decode(inputs, &args); err != nil {
		return property.Map{}, err
	}
	return host.Encode(args)
}

// Update recomputes the outputs.
func (Vault) Update(ctx context.Context, req custom.UpdateRequest) (custom.UpdateResponse, error) {
	out, err := vaultState(req.Inputs)
	return custom.UpdateResponse{Outputs: out}, err
}

// Delete has nothing to remove.
func (Vault) Delete(ctx context.Context, req custom.DeleteRequest) (custom.DeleteResponse, error) {
	return custom.DeleteResponse{}, nil
}

// RevealArgs are Box.reveal's arguments, a plain Go field.
type RevealArgs struct {
	Word string `pulumi:"word"`
}

// UpperResult is the result of Box.reveal and shout.
type UpperResult struct {
	Upper string `pulumi:"upper"`
}

// Reveal upper-cases the word.
func Reveal(ctx context.Context, self *host.Component, args RevealArgs) (UpperResult, error) {
	return UpperResult{Upper: strings.ToUpper(args.Word)}, nil
}

// ShoutArgs are shout's arguments, a plain Go field.
type ShoutArgs struct {
	Text string `pulumi:"text"`
}

// Shout upper-cases the text.
func Shout(ctx context.Context, args ShoutArgs) (UpperResult, error) {
	return UpperResult{Upper: strings.ToUpper(args.Text)}, nil
}
