package langhost

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"

	"github.com/polyhost/polyhost/tests/engine"
	"github.com/polyhost/polyhost/tests/runner"
)

// Version is what GetPluginInfo reports.
const Version = "0.1.0"

// Server is a LanguageRuntime for one runtime (go, nodejs or python).
type Server struct {
	// Unimplemented on purpose: code generation, templates and source
	// plugins are optional RPCs the CLI falls back from or reports.
	pulumirpc.UnimplementedLanguageRuntimeServer

	runtime    string
	engineAddr string
}

var _ pulumirpc.LanguageRuntimeServer = (*Server)(nil)

// NewServer returns the language host for runtime, talking to the engine at
// engineAddr (the address the CLI passes on the command line).
func NewServer(runtime, engineAddr string) (*Server, error) {
	switch runtime {
	case "go", "nodejs", "python":
	default:
		return nil, fmt.Errorf("langhost: unsupported runtime %q (supported: go, nodejs, python)", runtime)
	}
	return &Server{runtime: runtime, engineAddr: engineAddr}, nil
}

// Main serves the language host for runtime: args are the command line the
// CLI gives (flags, then the engine address). It prints the port on the first
// line of stdout, as plugins must, and returns the exit status.
func Main(runtime string, args []string) int {
	engineAddr, err := engineAddress(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-%s: %v\n", runtime, err)
		return 1
	}
	srv, err := NewServer(runtime, engineAddr)
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

// GetRequiredPackages reports the resource packages of a Node program's
// node_modules, as pulumi-language-nodejs does (runner.RequiredPackages):
// the engine versions default providers from them. The plugins themselves
// come from Pulumi.yaml's plugins section or PATH, never from downloads.
func (s *Server) GetRequiredPackages(_ context.Context, req *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	if s.runtime != "nodejs" {
		return &pulumirpc.GetRequiredPackagesResponse{}, nil
	}
	pkgs, err := runner.RequiredPackages(req.GetInfo().GetProgramDirectory())
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

// InstallDependencies installs nothing and says so: tests/setup.sh installs
// what the programs use.
func (s *Server) InstallDependencies(_ *pulumirpc.InstallDependenciesRequest, stream pulumirpc.LanguageRuntime_InstallDependenciesServer) error {
	return stream.Send(&pulumirpc.InstallDependenciesResponse{
		Stdout: []byte("polyhost test language host: nothing to install; tests/setup.sh installs the shared dependencies\n"),
	})
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
		entry = req.GetProgram() //nolint:staticcheck // older CLIs send only this
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
