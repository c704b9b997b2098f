package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"
	"golang.org/x/mod/modfile"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/pkg/v3/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/contract"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"
)

// generator is the langhost.Generator of one runtime, backed by pkg/v3's
// codegen the way Pulumi's own language hosts use it
// (sdk/{nodejs,python,go}/.../pulumi-language-*/main.go in pulumi/pulumi):
// bind the schema with the CLI's loader, generate, write the files.
type generator struct{ runtime string }

// tool is the name generated files say made them ("this file was generated
// by pulumi-language-nodejs"): the name the CLI started us as.
func (g generator) tool() string { return "pulumi-language-" + g.runtime }

// GeneratePackage writes the SDK for req.Schema into req.Directory. Binding
// errors come back as diagnostics, as the CLI expects.
func (g generator) GeneratePackage(ctx context.Context, req *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer contract.IgnoreClose(loader)
	cached := schema.NewCachedLoader(loader)

	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.GetSchema()), &spec); err != nil {
		return nil, fmt.Errorf("decoding the schema: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, cached, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	resp := &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}
	if diags.HasErrors() {
		return resp, nil
	}
	files, err := g.generate(pkg, req, cached)
	if err != nil {
		return nil, err
	}
	return resp, writeFiles(req.GetDirectory(), files)
}

func (g generator) generate(pkg *schema.Package, req *pulumirpc.GeneratePackageRequest, loader schema.ReferenceLoader) (map[string][]byte, error) {
	switch g.runtime {
	case "nodejs":
		return nodejs.GeneratePackage(g.tool(), pkg, req.GetExtraFiles(), req.GetLocalDependencies(), req.GetLocal(), loader)
	case "python":
		return python.GeneratePackage(g.tool(), pkg, req.GetExtraFiles(), loader)
	case "go":
		if len(req.GetExtraFiles()) > 0 {
			return nil, errors.New("overlays are not supported for Go")
		}
		return gogen.GeneratePackage(g.tool(), pkg, req.GetLocalDependencies())
	}
	return nil, fmt.Errorf("no SDK generator for runtime %q", g.runtime)
}

func writeFiles(dir string, files map[string][]byte) error {
	for name, data := range files {
		out := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return fmt.Errorf("creating the directory of %s: %w", name, err)
		}
		if err := os.WriteFile(out, data, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	return nil
}

// Link adds the generated SDKs to the program's project file as Pulumi's
// hosts do: a `file:` dependency in package.json (npm pkg set), a path line
// in requirements.txt, a requirement and replace directive in go.mod. It
// installs nothing (InstallDependencies does not either): the programs run
// with the shared installs of tests/setup.sh.
func (g generator) Link(ctx context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer contract.IgnoreClose(loader)
	cached := schema.NewCachedLoader(loader)
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		return nil, errors.New("link request names no program directory")
	}

	var pkgs []linked
	for _, dep := range req.GetPackages() {
		if dep.GetPackage().GetName() == "pulumi" {
			return nil, errors.New("linking a local build of the core Pulumi SDK is not supported by the polyhost test language host")
		}
		pkg, err := loadPackage(ctx, cached, dep.GetPackage())
		if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, linked{pkg: pkg, path: dep.GetPath()})
	}
	switch g.runtime {
	case "nodejs":
		return linkNode(ctx, dir, pkgs)
	case "python":
		return linkPython(ctx, req.GetInfo().GetRootDirectory(), dir, pkgs)
	case "go":
		return linkGo(dir, pkgs)
	}
	return nil, fmt.Errorf("no linker for runtime %q", g.runtime)
}

type linked struct {
	pkg  *schema.Package
	path string // of the SDK, relative to the project's root
}

func loadPackage(ctx context.Context, loader schema.ReferenceLoader, dep *pulumirpc.PackageDependency) (*schema.Package, error) {
	desc := &schema.PackageDescriptor{Name: dep.GetName(), DownloadURL: dep.GetServer()}
	if v, err := semver.Parse(dep.GetVersion()); err == nil {
		desc.Version = &v
	}
	if p := dep.GetParameterization(); p != nil {
		desc.Parameterization = &schema.ParameterizationDescriptor{Name: p.GetName(), Value: p.GetValue()}
		if v, err := semver.Parse(p.GetVersion()); err == nil {
			desc.Parameterization.Version = v
		}
	}
	ref, err := schema.LoadPackageReferenceV2(ctx, loader, desc)
	if err != nil {
		return nil, fmt.Errorf("loading the schema of %s: %w", dep.GetName(), err)
	}
	return ref.Definition()
}

func linkNode(ctx context.Context, dir string, pkgs []linked) (*pulumirpc.LinkResponse, error) {
	pm, err := npm.ResolvePackageManager(npm.AutoPackageManager, dir)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("You can import the SDK in your TypeScript code with:\n\n")
	for _, l := range pkgs {
		if err := l.pkg.ImportLanguages(map[string]schema.Language{"nodejs": nodejs.Importer}); err != nil {
			return nil, err
		}
		name := "@pulumi/" + l.pkg.Name
		if l.pkg.Namespace != "" {
			name = "@" + l.pkg.Namespace + "/" + l.pkg.Name
		}
		if info, ok := l.pkg.Language["nodejs"].(nodejs.NodePackageInfo); ok && info.PackageName != "" {
			name = info.PackageName
		}
		if err := pm.Link(ctx, dir, name, l.path); err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "  import * as %s from %q;\n", camel(l.pkg.Name), name)
	}
	return &pulumirpc.LinkResponse{ImportInstructions: b.String()}, nil
}

func linkPython(ctx context.Context, root, dir string, pkgs []linked) (*pulumirpc.LinkResponse, error) {
	if root == "" {
		root = dir
	}
	paths := map[string]string{}
	var b strings.Builder
	b.WriteString("You can import the SDK in your Python code with:\n\n")
	for _, l := range pkgs {
		if err := l.pkg.ImportLanguages(map[string]schema.Language{"python": python.Importer}); err != nil {
			return nil, err
		}
		name := python.PyPack(l.pkg.Namespace, l.pkg.Name)
		importName := strings.ReplaceAll(l.pkg.Name, "-", "_")
		if info, ok := l.pkg.Language["python"].(python.PackageInfo); ok && info.PackageName != "" {
			name, importName = info.PackageName, info.PackageName
		}
		paths[name] = l.path
		fmt.Fprintf(&b, "  import %s as %s\n", name, importName)
	}
	tc, err := toolchain.ResolveToolchain(toolchain.PythonOptions{Root: root, ProgramDir: dir, Toolchain: toolchain.Pip})
	if err != nil {
		return nil, err
	}
	if err := tc.LinkPackages(ctx, paths); err != nil {
		return nil, fmt.Errorf("linking packages: %w", err)
	}
	return &pulumirpc.LinkResponse{ImportInstructions: b.String()}, nil
}

func linkGo(dir string, pkgs []linked) (*pulumirpc.LinkResponse, error) {
	file := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	mod, err := modfile.Parse(file, data, nil)
	if err != nil {
		return nil, err
	}
	var imports []string
	for _, l := range pkgs {
		if err := l.pkg.ImportLanguages(map[string]schema.Language{"go": gogen.Importer}); err != nil {
			return nil, err
		}
		var modPath, importPath string
		if info, ok := l.pkg.Language["go"].(gogen.GoPackageInfo); ok {
			modPath, importPath = info.ModulePath, info.ImportBasePath
			if modPath == "" && importPath != "" {
				modPath = path.Dir(importPath)
			}
		}
		if modPath == "" {
			modPath = gogen.ExtractModulePath(l.pkg.Reference())
		}
		if importPath == "" {
			importPath = gogen.ExtractImportBasePath(l.pkg.Reference())
		}
		rel := filepath.ToSlash(l.path)
		if !strings.HasPrefix(rel, "./") && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(l.path) {
			rel = "./" + rel
		}
		// Pulumi's host adds the replace and leaves the require to `go mod
		// tidy` in InstallDependencies; ours installs nothing, so it adds both.
		if err := mod.AddRequire(modPath, "v0.0.0"); err != nil {
			return nil, fmt.Errorf("adding a requirement on %s: %w", modPath, err)
		}
		if err := mod.AddReplace(modPath, "", rel, ""); err != nil {
			return nil, fmt.Errorf("adding a replace directive for %s: %w", modPath, err)
		}
		// Pulumi's host prints ExtractImportBasePath, which ignores the
		// schema's importBasePath; the package is where the schema says.
		imports = append(imports, fmt.Sprintf("    %q\n", importPath))
	}
	sort.Strings(imports)
	out, err := mod.Format()
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(file, out, 0o644); err != nil {
		return nil, err
	}
	return &pulumirpc.LinkResponse{
		ImportInstructions: "You can import the SDK in your Go code with:\n\n  import (\n" + strings.Join(imports, "") + "  )\n",
	}, nil
}

// camel is the import name Pulumi's Node host suggests: the package name
// in lower camel case (my-pkg: myPkg).
func camel(name string) string {
	parts := strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' })
	for i := range parts {
		if i > 0 && parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}
