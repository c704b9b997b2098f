package langhost

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestEngineAddress(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args    []string
		want    string
		wantErr bool
	}{
		{args: nil, wantErr: true},
		{args: []string{"-root=/x"}, wantErr: true},
		{args: []string{"127.0.0.1:1234"}, want: "127.0.0.1:1234"},
		{args: []string{"--tracing", "http://t", "127.0.0.1:1"}, want: "127.0.0.1:1"},
		{args: []string{"-root=/x", "--logtostderr", "127.0.0.1:2"}, want: "127.0.0.1:2"},
	} {
		got, err := engineAddress(tc.args)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("engineAddress(%q) = %q, %v; want %q, error %v", tc.args, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestNewServerRefusesOtherRuntimes(t *testing.T) {
	t.Parallel()
	if _, err := NewServer("dotnet", "x"); err == nil || !strings.Contains(err.Error(), `"dotnet"`) {
		t.Fatalf("NewServer(dotnet) = %v, want an error naming the runtime", err)
	}
}

// goProgram writes a Go program that exits with code after printing to stderr.
func goProgram(t *testing.T, code string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":  "module exiter\n\ngo 1.26\n",
		"main.go": "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tfmt.Fprintln(os.Stderr, \"boom\")\n\tos.Exit(" + code + ")\n}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Run reports how the program ended: exit 32 (already reported to the
// engine) is a bail, any other failure an error carrying its stderr.
func TestRunReportsHowTheProgramEnded(t *testing.T) {
	t.Parallel()
	srv, err := NewServer("go", "127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	run := func(dir string) *pulumirpc.RunResponse {
		resp, err := srv.Run(context.Background(), &pulumirpc.RunRequest{
			Project: "p", Stack: "s", MonitorAddress: "127.0.0.1:1",
			Info: &pulumirpc.ProgramInfo{RootDirectory: dir, ProgramDirectory: dir, EntryPoint: "."},
		})
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		return resp
	}
	if resp := run(goProgram(t, "32")); !resp.Bail || resp.Error != "" {
		t.Errorf("exit 32: got %+v, want a bail", resp)
	}
	if resp := run(goProgram(t, "3")); resp.Bail || !strings.Contains(resp.Error, "exited with status 3") || !strings.Contains(resp.Error, "boom") {
		t.Errorf("exit 3: got %+v, want an error with the status and stderr", resp)
	}
	if resp := run(""); !strings.Contains(resp.Error, "no program directory") {
		t.Errorf("no directory: got %+v, want an error saying so", resp)
	}
}

// GetRequiredPackages answers for each runtime the way its real host does:
// node_modules for nodejs, the go.mod's modules for go. The directory has
// both; each runtime reports only its own.
func TestRequiredPackagesByRuntime(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	t.Setenv("GOWORK", "off") // the temporary module is in no workspace
	dir := t.TempDir()
	for name, body := range map[string]string{
		"prog/node_modules/@acme/sitekit/package.json": `{"name": "@acme/sitekit", "version": "0.1.0", "pulumi": {"resource": true, "name": "sitekit"}}`,
		"prog/go.mod":                    "module example.com/prog\n\ngo 1.21\n\nrequire example.com/gokit v0.0.0-00010101000000-000000000000\n\nreplace example.com/gokit => ../gokit\n",
		"gokit/go.mod":                   "module example.com/gokit\n\ngo 1.21\n",
		"gokit/gokit/pulumi-plugin.json": `{"resource": true, "name": "gokit", "version": "0.2.0", "server": "https://example.com/dl"}`,
	} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	prog := filepath.Join(dir, "prog")
	req := &pulumirpc.GetRequiredPackagesRequest{Info: &pulumirpc.ProgramInfo{RootDirectory: prog, ProgramDirectory: prog}}
	for runtime, want := range map[string]string{
		"nodejs": "resource sitekit 0.1.0 ",
		"go":     "resource gokit 0.2.0 https://example.com/dl",
	} {
		srv, _ := NewServer(runtime, "x")
		resp, err := srv.GetRequiredPackages(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range resp.Packages {
			got = append(got, strings.Join([]string{p.Kind, p.Name, p.Version, p.Server}, " "))
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: packages %q, want [%q]", runtime, got, want)
		}
	}
}

func TestRuntimeFromName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		arg0, want string
		wantErr    bool
	}{
		{arg0: "/x/pulumi-language-go", want: "go"},
		{arg0: "pulumi-language-nodejs", want: "nodejs"},
		{arg0: "/x/pulumi-language-python.exe", want: "python"},
		{arg0: "/x/pulumi-language-polyhost", wantErr: true},
		{arg0: "/x/pulumi-language-dotnet", wantErr: true},
		{arg0: "langhost", wantErr: true},
	} {
		got, err := RuntimeFromName(tc.arg0)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("RuntimeFromName(%q) = %q, %v; want %q, error %v", tc.arg0, got, err, tc.want, tc.wantErr)
		}
	}
}

type fakeGenerator struct{ gen, link int }

func (f *fakeGenerator) GeneratePackage(context.Context, *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error) {
	f.gen++
	return &pulumirpc.GeneratePackageResponse{}, nil
}

func (f *fakeGenerator) Link(context.Context, *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	f.link++
	return &pulumirpc.LinkResponse{ImportInstructions: "import it"}, nil
}

// Without a generator, GeneratePackage and Link answer Unimplemented naming
// the build that has one; with one, they call it.
func TestGeneratorIsPluggable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	bare, _ := NewServer("nodejs", "x")
	if _, err := bare.GeneratePackage(ctx, &pulumirpc.GeneratePackageRequest{}); status.Code(err) != codes.Unimplemented ||
		!strings.Contains(err.Error(), "tests/tools/langhost") {
		t.Errorf("GeneratePackage without a generator = %v, want Unimplemented naming tests/tools/langhost", err)
	}
	if _, err := bare.Link(ctx, &pulumirpc.LinkRequest{}); status.Code(err) != codes.Unimplemented {
		t.Errorf("Link without a generator = %v, want Unimplemented", err)
	}
	gen := &fakeGenerator{}
	srv, _ := NewServer("nodejs", "x", WithGenerator(gen))
	if _, err := srv.GeneratePackage(ctx, &pulumirpc.GeneratePackageRequest{}); err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Link(ctx, &pulumirpc.LinkRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if gen.gen != 1 || gen.link != 1 || resp.ImportInstructions != "import it" {
		t.Errorf("generator called %d/%d times, instructions %q; want 1/1 and the generator's", gen.gen, gen.link, resp.ImportInstructions)
	}
}

// runPluginStream collects what RunPlugin sends.
type runPluginStream struct {
	grpc.ServerStream // unused: RunPlugin only sends
	out               []*pulumirpc.RunPluginResponse
}

func (s *runPluginStream) Send(r *pulumirpc.RunPluginResponse) error {
	s.out = append(s.out, r)
	return nil
}

func (s *runPluginStream) Context() context.Context { return context.Background() }

// RunPlugin builds a Go source plugin, runs it with the CLI's arguments and
// environment, streams its output and ends with its exit code.
func TestRunPluginBuildsAndRunsGoSource(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":  "module plug\n\ngo 1.26\n",
		"main.go": "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tfmt.Println(\"port\", os.Args[1], os.Getenv(\"PLUG_X\"))\n\tfmt.Fprintln(os.Stderr, \"oops\")\n\tos.Exit(3)\n}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv, _ := NewServer("go", "x")
	stream := &runPluginStream{}
	err := srv.RunPlugin(&pulumirpc.RunPluginRequest{
		Pwd: dir, Args: []string{"127.0.0.1:1"}, Env: []string{"PLUG_X=y"},
		Info: &pulumirpc.ProgramInfo{RootDirectory: dir, ProgramDirectory: dir, EntryPoint: "."},
	}, stream)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr string
	for _, r := range stream.out {
		stdout += string(r.GetStdout())
		stderr += string(r.GetStderr())
	}
	if stdout != "port 127.0.0.1:1 y\n" || stderr != "oops\n" {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
	if last := stream.out[len(stream.out)-1]; last.GetOutput() == nil || last.GetExitcode() != 3 {
		t.Errorf("last message = %v, want the exit code 3", last)
	}

	node, _ := NewServer("nodejs", "x")
	if err := node.RunPlugin(&pulumirpc.RunPluginRequest{Pwd: dir}, stream); err == nil {
		t.Error("a nodejs source plugin ran; want Unimplemented")
	}
}
