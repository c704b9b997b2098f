package schemagen

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/polyhost/polyhost/host"
)

// Header starts every schema Generate writes.
const Header = "Code generated from Go types and an overlay by polyhost's host/schemagen; DO NOT EDIT.\n" +
	"Edit the Go types' tags and doc comments, or the overlay, then run go generate."

// Generate builds the schema of package name from the Go types of the
// registrations in opts ([host.SchemaFromTypes]), with descriptions read
// from their doc comments ([Docs]), and merges in the overlay file at
// overlayPath ("" for none): a partial schema in YAML for what Go cannot
// say, such as the package's description, its language sections, meta,
// and properties' defaults. The overlay may add to what the types declare,
// or replace it, but not declare a resource, type, function or property of
// its own. The result is checked as the host will check it: loaded, and
// compared with the Go types.
func Generate(name, overlayPath string, opts ...host.Option) ([]byte, error) {
	docs := NewDocs()
	src, err := host.SchemaFromTypes(name, docs, opts...)
	if err != nil {
		return nil, err
	}
	if err := docs.Err(); err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err
	}
	root := doc.Content[0]
	if overlayPath != "" {
		raw, err := os.ReadFile(overlayPath)
		if err != nil {
			return nil, err
		}
		var overlay yaml.Node
		if err := yaml.Unmarshal(raw, &overlay); err != nil {
			return nil, fmt.Errorf("%s: %w", overlayPath, err)
		}
		if len(overlay.Content) > 0 {
			top := overlay.Content[0]
			comments := []string{Header, overlay.HeadComment, top.HeadComment}
			if len(top.Content) > 0 { // a comment before the first key is the file's
				comments = append(comments, top.Content[0].HeadComment)
				top.Content[0].HeadComment = ""
			}
			if err := merge(root, top, nil); err != nil {
				return nil, fmt.Errorf("%s: %w", overlayPath, err)
			}
			root.HeadComment = joinComments(comments...)
		}
	}
	if root.HeadComment == "" {
		root.HeadComment = Header
	}
	orderTopLevel(root)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	out := buf.Bytes()
	p, err := host.New(name, append(opts, host.WithSchema(out))...)
	if err != nil {
		return nil, fmt.Errorf("the schema with the overlay merged in: %w", err)
	}
	_ = p.Close()
	return out, nil
}

func joinComments(cs ...string) string {
	var out []string
	for _, c := range cs {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	return strings.Join(out, "\n\n")
}

// named are the sections whose keys name things, and what they name: the
// overlay may only add to those the Go types declare.
var named = map[string]string{"resources": "resource", "types": "type", "functions": "function",
	"variables": "variable", "properties": "property", "inputProperties": "input property", "methods": "method"}

// merge merges overlay mapping src into dst; path is where, for messages.
func merge(dst, src *yaml.Node, path []string) error {
	if dst.Kind != yaml.MappingNode || src.Kind != yaml.MappingNode {
		return fmt.Errorf("%s: want a mapping", where(path))
	}
	var errs []error
	for i := 0; i+1 < len(src.Content); i += 2 {
		key, val := src.Content[i], src.Content[i+1]
		at := append(slices.Clone(path), key.Value)
		j := keyIndex(dst, key.Value)
		switch {
		case j >= 0 && dst.Content[j+1].Kind == yaml.MappingNode && val.Kind == yaml.MappingNode:
			if err := merge(dst.Content[j+1], val, at); err != nil {
				errs = append(errs, err)
			}
		case j >= 0:
			dst.Content[j+1] = val
		case len(path) > 0 && named[path[len(path)-1]] != "" && isSchemaSection(path[0]):
			errs = append(errs, fmt.Errorf("%s: the Go types declare no such %s (the overlay only adds to what they declare)",
				where(at), named[path[len(path)-1]]))
		default:
			dst.Content = append(dst.Content, key, val)
		}
	}
	return errors.Join(errs...)
}

// keyIndex is the index of key in mapping m's content, or -1.
func keyIndex(m *yaml.Node, key string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return i
		}
	}
	return -1
}

func isSchemaSection(s string) bool {
	return s == "resources" || s == "types" || s == "functions" || s == "config" || s == "provider"
}

func where(path []string) string {
	if len(path) == 0 {
		return "the top level"
	}
	return strings.Join(path, ".")
}

// topLevel is the order of a schema's sections, as people write them.
var topLevel = []string{"name", "namespace", "displayName", "description", "keywords", "homepage", "license", "attribution",
	"repository", "logoUrl", "publisher", "pluginDownloadURL", "version", "meta", "language",
	"config", "provider", "types", "resources", "functions"}

// orderTopLevel puts the top-level sections in that order; any other
// (unknown to this list) goes before config.
func orderTopLevel(root *yaml.Node) {
	rank := func(key string) int {
		if i := slices.Index(topLevel, key); i >= 0 {
			return 2 * i
		}
		return 2*slices.Index(topLevel, "config") - 1
	}
	type pair struct{ k, v *yaml.Node }
	pairs := make([]pair, 0, len(root.Content)/2)
	for i := 0; i+1 < len(root.Content); i += 2 {
		pairs = append(pairs, pair{root.Content[i], root.Content[i+1]})
	}
	slices.SortStableFunc(pairs, func(a, b pair) int { return rank(a.k.Value) - rank(b.k.Value) })
	root.Content = root.Content[:0]
	for _, p := range pairs {
		root.Content = append(root.Content, p.k, p.v)
	}
}

// Main is the main function of a package's generate command:
//
//	//go:generate go run ./cmd/gen-schema -o schema.yaml -overlay schema.overlay.yaml
//
// It writes the schema Generate builds to -o, or with -check only reports
// whether the file there differs.
func Main(name string, opts ...host.Option) {
	fs := flag.NewFlagSet(filepath.Base(os.Args[0]), flag.ExitOnError)
	out := fs.String("o", "schema.yaml", "the schema `file` to write")
	overlay := fs.String("overlay", "", "the overlay `file` merged into the schema (none if empty)")
	check := fs.Bool("check", false, "write nothing; fail if the file differs from what would be written")
	_ = fs.Parse(os.Args[1:])
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "usage: %s [-o schema.yaml] [-overlay file] [-check]\n", fs.Name())
		os.Exit(2)
	}
	src, err := Generate(name, *overlay, opts...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", fs.Name(), err)
		os.Exit(1)
	}
	if *check {
		old, err := os.ReadFile(*out)
		if err != nil || !bytes.Equal(old, src) {
			fmt.Fprintf(os.Stderr, "%s: %s is not what the Go types and the overlay make: run go generate\n", fs.Name(), *out)
			os.Exit(1)
		}
		return
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", fs.Name(), err)
		os.Exit(1)
	}
}
