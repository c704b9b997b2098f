package core

import (
	_ "embed"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// configSchema declares variables of each kind.
//
//go:embed testdata/schemas/config.yaml
var configSchema string

// Stack config and the Node and Python SDKs send a non-string variable as
// a string: a number, a JSON list or object, also through a $ref.
func TestCheckConfigDecodesStrings(t *testing.T) {
	t.Parallel()
	p := New("test")
	if err := p.SetSchema([]byte(configSchema)); err != nil {
		t.Fatal(err)
	}
	if err := p.Finish(); err != nil {
		t.Fatal(err)
	}
	checked, failures := p.CheckConfig(property.NewMap(map[string]property.Value{
		"retries":  property.New("3"),
		"endpoint": property.New(`{"host":"h","port":8080}`),
		"tags":     property.New(`{"a":"b"}`),
		"zones":    property.New(`["a","b"]`).WithSecret(true),
		"size":     property.New("2"),
		"token":    property.New(`["not","decoded"]`),
		"name":     property.New("3"),
	}))
	if len(failures) > 0 {
		t.Fatalf("failures: %+v", failures)
	}
	want := property.NewMap(map[string]property.Value{
		"retries": property.New(3.0),
		"endpoint": property.New(map[string]property.Value{
			"host": property.New("h"), "port": property.New(8080.0)}),
		"tags":  property.New(map[string]property.Value{"a": property.New("b")}),
		"zones": property.New([]property.Value{property.New("a"), property.New("b")}).WithSecret(true),
		"size":  property.New(2.0),
		"token": property.New(`["not","decoded"]`).WithSecret(true),
		"name":  property.New("3"),
	})
	if !checked.Equals(want) {
		t.Errorf("checked\n got: %v\nwant: %v", checked, want)
	}
	_, failures = p.CheckConfig(property.NewMap(map[string]property.Value{"zones": property.New(`["a",`)}))
	if len(failures) != 1 || failures[0].Property != "zones" {
		t.Errorf("a string that is not JSON: failures %+v, want one naming zones", failures)
	}
}
