package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/blang/semver"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/terraform"
)

// Parameter is what the engine records for a package and hands back on
// later runs: where the binary is, and the package it made.
type Parameter struct {
	Path    string `json:"path"`             // absolute
	Name    string `json:"name"`             // the package's
	Version string `json:"version"`          // the package's
	Binary  string `json:"binary,omitempty"` // the bare name it was added by, if any
}

// releaseName is a provider binary's name: terraform-provider-NAME, with
// an optional _vVERSION as release archives name it.
var releaseName = regexp.MustCompile(`^terraform-provider-([a-z0-9][a-z0-9-]*?)(?:_v(\d+\.\d+\.\d+\S*))?$`)

// nameOf is the package name and version a binary's file name gives.
func nameOf(path string) (name, version string, err error) {
	base := strings.TrimSuffix(filepath.Base(path), ".exe")
	m := releaseName.FindStringSubmatch(base)
	if m == nil {
		return "", "", fmt.Errorf("%s: not a Terraform provider's name (terraform-provider-<name>, as its releases are named)", path)
	}
	name, version = m[1], "0.0.0"
	if m[2] != "" {
		if _, err := semver.Parse(m[2]); err != nil {
			return "", "", fmt.Errorf("%s: version %q in the name is not semver", path, m[2])
		}
		version = m[2]
	}
	return name, version, nil
}

// find is the absolute path of the binary arg names: a path, or a name
// looked for on PATH.
func find(arg string) (string, error) {
	if !strings.ContainsRune(arg, filepath.Separator) && !strings.ContainsRune(arg, '/') {
		found, err := exec.LookPath(arg)
		if err != nil {
			return "", fmt.Errorf("terraform provider %s: not on PATH", arg)
		}
		arg = found
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		return "", fmt.Errorf("terraform provider %s: %w", arg, err)
	}
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("terraform provider %s: no such file", abs)
	case err != nil:
		return "", fmt.Errorf("terraform provider %s: %w", abs, err)
	case info.IsDir():
		return "", fmt.Errorf("terraform provider %s: a directory, not a provider binary", abs)
	}
	return abs, nil
}

// Parameterize serves the package of a Terraform provider binary: from
// the command line (`pulumi package add <plugin> <binary>`), the binary's
// path or name; from a program, the Parameter recorded then.
func Parameterize(_ context.Context, req host.ParameterizeRequest) (host.Parameterized, error) {
	param, err := parameterOf(req)
	if err != nil {
		return host.Parameterized{}, err
	}
	var value []byte // for a program's request, the one it registered
	if req.Args != nil {
		if value, err = json.Marshal(param); err != nil {
			return host.Parameterized{}, err
		}
	}
	p, err := host.New(param.Name, host.WithVersion(param.Version),
		terraform.WithProvider(param.Path, terraform.Prefix(param.Name)))
	if err != nil {
		return host.Parameterized{}, err
	}
	return host.Parameterized{Provider: p, Value: value}, nil
}

// parameterOf is the Parameter req gives.
func parameterOf(req host.ParameterizeRequest) (Parameter, error) {
	if req.Args != nil || req.Name == "" { // no name: arguments, none given
		if len(req.Args) != 1 {
			return Parameter{}, diag.Errorf("", "want one argument, the path or name of a Terraform provider binary; got %q", req.Args)
		}
		path, err := find(req.Args[0])
		if err != nil {
			return Parameter{}, diag.Errorf("", "%v", err)
		}
		name, version, err := nameOf(path)
		if err != nil {
			return Parameter{}, diag.Errorf("", "%v", err)
		}
		param := Parameter{Path: path, Name: name, Version: version}
		if !strings.ContainsRune(req.Args[0], '/') && !strings.ContainsRune(req.Args[0], filepath.Separator) {
			param.Binary = req.Args[0]
		}
		return param, nil
	}
	var param Parameter
	if err := json.Unmarshal(req.Value, &param); err != nil || param.Path == "" || param.Name == "" {
		return Parameter{}, diag.Errorf("", "parameter of package %s: %q is not a terraform-provider parameter ({\"path\":...,\"name\":...})", req.Name, req.Value)
	}
	if param.Version == "" {
		param.Version = req.Version
	}
	if _, err := os.Stat(param.Path); err != nil && param.Binary != "" {
		// Moved since the package was added by name: the one on PATH now.
		if found, ferr := find(param.Binary); ferr == nil {
			param.Path = found
		}
	}
	return param, nil
}
