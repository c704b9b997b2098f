package langhost

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"

	"github.com/polyhost/polyhost/internal/engine"
	"github.com/polyhost/polyhost/internal/runner"
)

// Version is what GetPluginInfo reports.
const Version = "0.1.0"

// Server is a LanguageRuntime for one runtime (go, nodejs or python).
type Server struct {
	// Unimplemented on purpose: program generation, templates, packing and
	// source plugins are optional RPCs the CLI falls back from or reports.
	pulumirpc.UnimplementedLanguageRuntimeServer

	runtime    string
	engineAddr string
	gen        Generator
}

var _ pulumirpc.LanguageRuntimeServer = (*Server)(nil)

// Generator generates SDKs for the CLI's `pulumi package gen-sdk` and
// `pulumi package add`, and links them into programs (`package add`). This
// package has none: Pulumi's generators live in pkg/v3, which stays out of
// the main module's graph. tests/tools/langhost, a module of its own, serves
// this host with one backed by pkg/v3's codegen.
type Generator interface {
	// GeneratePackage writes the SDK for req.Schema into req.Directory.
	GeneratePackage(context.Context, *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error)
	// Link adds the generated SDKs in req.Packages to the program's project
	// files and says how to import them.
	Link(context.Context, *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error)
}

// Option configures a Server.
type Option func(*Server)

// WithGenerator makes the server answer GeneratePackage and Link with g.
func WithGenerator(g Generator) Option { return func(s *Server) { s.gen = g } }

// NewServer returns the language host for runtime, talking to the engine at
// engineAddr (the address the CLI passes on the command line).
func NewServer(runtime, engineAddr string, opts ...Option) (*Server, error) {
	switch runtime {
	case "go", "nodejs", "python":
	default:
		return nil, fmt.Errorf("langhost: unsupported runtime %q (supported: go, nodejs, python)", runtime)
	}
	s := &Server{runtime: runtime, engineAddr: engineAddr}
	for _, o := range opts {
		o(s)
	}
	return s, nil
}

// RuntimeFromName picks the runtime from the name the command runs as
// (os.Args[0]): pulumi-language-go, -nodejs or -python.
func RuntimeFromName(arg0 string) (string, error) {
	name := strings.TrimSuffix(filepath.Base(arg0), ".exe")
	runtime, ok := strings.CutPrefix(name, "pulumi-language-")
	switch {
	case !ok || runtime == "polyhost":
		return "", errors.New("install this command as pulumi-language-go, -nodejs or -python; the name picks the runtime")
	case runtime != "go" && runtime != "nodejs" && runtime != "python":
		return "", fmt.Errorf("unsupported runtime %q in the command's name %s (supported: go, nodejs, python)", runtime, name)
	}
	return runtime, nil
}

// Main serves the language host for runtime: args are the command line the
// CLI gives (flags, then the engine address). It prints the port on the first
// line of stdout, as plugins must, and returns the exit status.
func Main(runtime string, args []string, opts ...Option) int {
	engineAddr, err := engineAddress(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-%s: %v\n", runtime, err)
		return 1
	}
	srv, err := NewServer(runtime, engineAddr, opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(s *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(s, srv)
			return nil
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-%s: %v\n", runtime, err)
		return 1
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-%s: %v\n", runtime, err)
		return 1
	}
	return 0
}

// engineAddress takes the last positional argument, skipping the flags the
// CLI may pass (--tracing URL, -root=DIR and the like).
func engineAddress(args []string) (string, error) {
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--tracing" || a == "-tracing":
			i++ // takes a value
		case strings.HasPrefix(a, "-"):
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) == 0 {
		return "", errors.New("usage: pulumi-language-<runtime> [flags] ENGINE-ADDRESS (no engine address given)")
	}
	return pos[len(pos)-1], nil
}

// Handshake records the engine address; the directories come with each request.
func (s *Server) Handshake(_ context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	if req.GetEngineAddress() != "" {
		s.engineAddr = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

// GetRequiredPackages reports the program's resource packages as
// pulumi-language-<runtime> does (runner.ProgramPackages): a Node program's
// node_modules, the modules a Go program's go.mod requires, the
// distributions of a Python program's interpreter, each counted by its
// package.json "pulumi" section or pulumi-plugin.json. The engine versions
// default providers from them. The plugins themselves come from
// Pulumi.yaml's plugins section or PATH, never from downloads.
func (s *Server) GetRequiredPackages(ctx context.Context, req *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	info := req.GetInfo()
	dir := info.GetProgramDirectory()
	if dir == "" {
		return &pulumirpc.GetRequiredPackagesResponse{}, nil
	}
	root := info.GetRootDirectory()
	if root == "" {
		root = dir
	}
	pkgs, err := runner.ProgramPackages(ctx, s.runtime, root, dir, info.GetOptions().AsMap())
	if err != nil {
		return nil, err
	}
	out := &pulumirpc.GetRequiredPackagesResponse{}
	for _, p := range pkgs {
		out.Packages = append(out.Packages, &pulumirpc.PackageDependency{
			Kind: "resource", Name: p.Name, Version: p.Version, Server: p.PluginDownloadURL,
		})
	}
	return out, nil
}

// GeneratePackage generates an SDK with the server's Generator; without
// one it answers Unimplemented, naming the build that has one.
func (s *Server) GeneratePackage(ctx context.Context, req *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error) {
	if s.gen == nil {
		return nil, s.noGenerator("GeneratePackage")
	}
	return s.gen.GeneratePackage(ctx, req)
}

// Link links generated SDKs into a program with the server's Generator;
// without one it answers Unimplemented.
func (s *Server) Link(ctx context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	if s.gen == nil {
		return nil, s.noGenerator("Link")
	}
	return s.gen.Link(ctx, req)
}

func (s *Server) noGenerator(method string) error {
	return status.Errorf(codes.Unimplemented,
		"%s: this build of the polyhost test language host (pulumi-language-%s) has no code generator; "+
			"the one tests/setup.sh builds from tests/tools/langhost into tests/.deps/bin has Pulumi's", method, s.runtime)
}

// GetPluginInfo reports the adapter's version.
func (s *Server) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: Version}, nil
}

// About names the adapter; `pulumi about` prints it.
func (s *Server) About(context.Context, *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	return &pulumirpc.AboutResponse{Executable: os.Args[0], Version: Version,
		Metadata: map[string]string{"runtime": s.runtime, "host": "polyhost test language host"}}, nil
}

// GetProgramDependencies answers none: the programs' dependencies are the
// shared test installs of tests/setup.sh.
func (s *Server) GetProgramDependencies(context.Context, *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return &pulumirpc.GetProgramDependenciesResponse{}, nil
}

// RunPlugin runs a plugin from source, as the CLI asks for a plugin folder
// whose PulumiPlugin.yaml says `runtime: go`: it builds the Go program in
// the folder and runs it with the CLI's arguments and environment,
// streaming its output, then its exit code. Other runtimes are not served.
func (s *Server) RunPlugin(req *pulumirpc.RunPluginRequest, stream pulumirpc.LanguageRuntime_RunPluginServer) error {
	if s.runtime != "go" {
		return status.Errorf(codes.Unimplemented, "pulumi-language-%s (polyhost test host) runs only Go source plugins", s.runtime)
	}
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetPwd()
	}
	ctx := stream.Context()
	bin, err := runner.BuildGo(ctx, dir)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, bin, req.GetArgs()...)
	cmd.Dir = req.GetPwd()
	cmd.Env = append(os.Environ(), req.GetEnv()...)
	send := oneAtATime(stream.Send)
	cmd.Stdout = streamWriter(func(b []byte) error {
		return send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Stdout{Stdout: b}})
	})
	cmd.Stderr = streamWriter(func(b []byte) error {
		return send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Stderr{Stderr: b}})
	})
	code := 0
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return fmt.Errorf("running plugin %s: %w", bin, err)
		}
		code = exit.ExitCode()
	}
	return send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Exitcode{Exitcode: int32(code)}})
}

// oneAtATime serialises calls of a stream's Send, which takes one at a time.
func oneAtATime[T any](send func(T) error) func(T) error {
	var mu sync.Mutex
	return func(r T) error {
		mu.Lock()
		defer mu.Unlock()
		return send(r)
	}
}

// streamWriter sends each write on as it comes: the plugin's first line
// (its port) must reach the CLI at once.
type streamWriter func([]byte) error

func (w streamWriter) Write(p []byte) (int, error) {
	if err := w(append([]byte(nil), p...)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// InstallDependencies installs the program's dependencies offline, from
// the shared installs of tests/setup.sh (runner.Install), streaming what
// the steps print.
func (s *Server) InstallDependencies(req *pulumirpc.InstallDependenciesRequest, stream pulumirpc.LanguageRuntime_InstallDependenciesServer) error {
	info := req.GetInfo()
	dir, root := info.GetProgramDirectory(), info.GetRootDirectory()
	if dir == "" {
		dir = req.GetDirectory() //lint:ignore SA1019 older CLIs send only this
	}
	if root == "" {
		root = dir
	}
	send := oneAtATime(stream.Send)
	stdout := streamWriter(func(b []byte) error { return send(&pulumirpc.InstallDependenciesResponse{Stdout: b}) })
	stderr := streamWriter(func(b []byte) error { return send(&pulumirpc.InstallDependenciesResponse{Stderr: b}) })
	return runner.Install(stream.Context(), s.runtime, root, dir, info.GetOptions().AsMap(), stdout, stderr)
}

// Run runs the program with the runner for its runtime and reports how it
// ended: bail when the program already reported its error to the engine.
func (s *Server) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	prog, err := s.program(req)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	info := engine.RunInfo{
		MonitorAddr:  req.GetMonitorAddress(),
		EngineAddr:   s.engineAddr,
		Project:      req.GetProject(),
		Stack:        req.GetStack(),
		Organization: req.GetOrganization(),
		Config:       req.GetConfig(),
		SecretKeys:   req.GetConfigSecretKeys(),
		DryRun:       req.GetDryRun(),
		Parallel:     int(req.GetParallel()),
		Dir:          req.GetInfo().GetRootDirectory(),
	}
	err = prog.Run(ctx, info)
	var exit *runner.ExitError
	switch {
	case err == nil:
		return &pulumirpc.RunResponse{}, nil
	case errors.As(err, &exit) && exit.Logged():
		return &pulumirpc.RunResponse{Bail: true}, nil
	default:
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
}

// program picks the runner from the request's ProgramInfo, or, from older
// CLIs, its pwd and program.
func (s *Server) program(req *pulumirpc.RunRequest) (engine.Program, error) {
	info := req.GetInfo()
	root, dir, entry := info.GetRootDirectory(), info.GetProgramDirectory(), info.GetEntryPoint()
	if dir == "" {
		dir = req.GetPwd()
		entry = req.GetProgram() //lint:ignore SA1019 older CLIs send only this
	}
	if root == "" {
		root = dir
	}
	if dir == "" {
		return nil, errors.New("run request names no program directory")
	}
	if entry != "" && entry != "." && filepath.IsAbs(entry) {
		if rel, err := filepath.Rel(dir, entry); err == nil {
			entry = rel
		}
	}
	return runner.ForProgram(s.runtime, root, dir, entry, info.GetOptions().AsMap())
}
