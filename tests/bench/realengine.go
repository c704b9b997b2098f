package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/polyhost/polyhost/tests/bench/internal/usage"
)

// RealSample is one `pulumi up` of a YAML program on the real CLI.
type RealSample struct {
	// Wall is `pulumi up`, from exec to exit.
	Wall time.Duration
	// CPU and MaxRSSKB are the serving component provider's whole life: for
	// ours and the peer it also serves the children's CRUD.
	CPU      time.Duration
	MaxRSSKB int64
	// CRUDCPU and CRUDRSSKB are the separate sitekit process serving the
	// children's CRUD under a component host; zero otherwise.
	CRUDCPU   time.Duration
	CRUDRSSKB int64
	// OtherCPU is every other plugin process: the YAML host's schema
	// loads. TotalCPU is all plugin processes together.
	OtherCPU, TotalCPU time.Duration
	// EngineCPU is the CLI process's own CPU (its threads, not its
	// children): the engine's work, sampled from /proc until it exits.
	EngineCPU time.Duration
	// Processes is how many plugin processes ran.
	Processes int
	// Created is the resource count the CLI reported; Outputs the stack's.
	Created int
	Outputs map[string]any
	// Reup is the second update, without changes, if the workload asked.
	Reup *RealSample
}

// RealRunner runs `pulumi up` with the real CLI (tests/.deps/bin) on a YAML
// program, each run on a fresh file backend. Its methods must not be
// called concurrently.
type RealRunner struct {
	bins      *Binaries
	work      string
	rusageDir string
	env       []string
	cli       string
	seq       int
	// Env is added to every run's environment (optional).
	Env []string
}

// NewRealRunner prepares a runner working in dir, which must exist; deps
// is tests/.deps.
func NewRealRunner(bins *Binaries, dir, deps string) (*RealRunner, error) {
	r := &RealRunner{bins: bins, work: dir, rusageDir: filepath.Join(dir, "rusage-real")}
	home := filepath.Join(dir, "pulumi-home")
	for _, d := range []string{r.rusageDir, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	r.cli = filepath.Join(deps, "bin", "pulumi")
	if _, err := os.Stat(r.cli); err != nil {
		return nil, fmt.Errorf("the real CLI: %w (bash tests/setup.sh installs it)", err)
	}
	r.env = append(os.Environ(),
		"PATH="+filepath.Join(deps, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"),
		"PULUMI_HOME="+home,
		"PULUMI_CONFIG_PASSPHRASE=polybench",
		"PULUMI_SKIP_UPDATE_CHECK=true",
		"PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true",
		"PULUMI_SKIP_CONFIRMATIONS=true",
		"PULUMI_SKIP_CHECKPOINTS=true",
		"PULUMI_SUPPRESS_NEO_LINK=true",
		usage.DirEnv+"="+r.rusageDir,
		usage.EveryEnv+"=1",
	)
	return r, nil
}

// yamlProgram is a Pulumi.yaml registering w.Sites Sites of w.Pages pages
// of impl's package; a component host's children use ours.
func yamlProgram(impl Impl, bins *Binaries, w Workload) string {
	var b strings.Builder
	pkg := impl.Package()
	fmt.Fprintf(&b, "name: bench\nruntime: yaml\nplugins:\n  providers:\n")
	if impl.IsHost() {
		fmt.Fprintf(&b, "    - name: sitekit\n      path: %s\n", filepath.Dir(bins.Wrapped[Ours]))
	}
	fmt.Fprintf(&b, "    - name: %s\n      path: %s\n", pkg, filepath.Dir(bins.Wrapped[impl]))
	b.WriteString("config:\n  sitekit:storageUrl: mem://\nresources:\n")
	sites := max(w.Sites, 1)
	names := pageNames(w.Pages)
	for i := range sites {
		fmt.Fprintf(&b, "  %s:\n    type: %s:index:Site\n    properties:\n      indexContent: <h1>bench</h1>\n", siteName(i, sites), pkg)
		if len(names) > 0 {
			b.WriteString("      pages:\n")
			for _, n := range names {
				fmt.Fprintf(&b, "        %s: <p>%s</p>\n", n, n)
			}
		}
	}
	first := siteName(0, sites)
	fmt.Fprintf(&b, "outputs:\n  url: ${%s.url}\n  bucketName: ${%s.bucketName}\n  pageCount: ${%s.pageCount}\n", first, first, first)
	return b.String()
}

func siteName(i, n int) string {
	if n == 1 {
		return "site"
	}
	return fmt.Sprintf("site%04d", i)
}

var createdLine = regexp.MustCompile(`\+ (\d+) created`)

// Run does `pulumi up` of w (update only; Calls must be 0: YAML calls no
// methods) with impl's plugin on a fresh stack.
func (r *RealRunner) Run(ctx context.Context, impl Impl, w Workload) (RealSample, error) {
	if r.bins.Wrapped[impl] == "" {
		return RealSample{}, fmt.Errorf("%s was not built", impl)
	}
	if w.Calls > 0 || w.Preview {
		return RealSample{}, errors.New("the real engine runs updates without calls")
	}
	r.seq++
	dir := filepath.Join(r.work, fmt.Sprintf("real%04d", r.seq))
	prog, backend := filepath.Join(dir, "prog"), filepath.Join(dir, "backend")
	for _, d := range []string{prog, backend} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return RealSample{}, err
		}
	}
	defer func() { _ = os.RemoveAll(dir) }()
	if err := os.WriteFile(filepath.Join(prog, "Pulumi.yaml"), []byte(yamlProgram(impl, r.bins, w)), 0o644); err != nil {
		return RealSample{}, err
	}
	env := append(slices.Clip(r.env), "PULUMI_BACKEND_URL=file://"+backend)
	env = append(env, r.Env...)
	// pulumiCPU runs the CLI and returns its output and its own CPU.
	pulumiCPU := func(args ...string) ([]byte, time.Duration, error) {
		cmd := exec.CommandContext(ctx, r.cli, args...)
		cmd.Dir, cmd.Env = prog, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			return nil, 0, fmt.Errorf("pulumi %s: %w", strings.Join(args, " "), err)
		}
		stop := make(chan struct{})
		cpu := watchCPU(cmd.Process.Pid, 5*time.Millisecond, stop)
		err := cmd.Wait()
		close(stop)
		if err != nil {
			return nil, 0, fmt.Errorf("pulumi %s: %w\n%s", strings.Join(args, " "), err, tail(out.String(), 40))
		}
		return out.Bytes(), <-cpu, nil
	}
	pulumi := func(args ...string) ([]byte, error) {
		out, _, err := pulumiCPU(args...)
		return out, err
	}
	if _, err := pulumi("stack", "init", "dev"); err != nil {
		return RealSample{}, err
	}
	up := func() (RealSample, error) {
		if err := clearDir(r.rusageDir); err != nil {
			return RealSample{}, err
		}
		start := time.Now()
		out, engine, err := pulumiCPU("up", "--yes", "--skip-preview", "--non-interactive")
		if err != nil {
			return RealSample{}, fmt.Errorf("%s %+v: %w", impl, w, err)
		}
		s := RealSample{Wall: time.Since(start), EngineCPU: engine}
		if m := createdLine.FindSubmatch(out); m != nil {
			s.Created, _ = strconv.Atoi(string(m[1]))
		}
		if err := r.readUsage(impl, &s); err != nil {
			return RealSample{}, fmt.Errorf("%s %+v: %w", impl, w, err)
		}
		return s, nil
	}
	s, err := up()
	if err != nil {
		return RealSample{}, err
	}
	if w.Reup {
		again, err := up()
		if err != nil {
			return RealSample{}, err
		}
		s.Reup = &again
	}
	outputs, err := pulumi("stack", "output", "--json")
	if err != nil {
		return RealSample{}, err
	}
	if err := json.Unmarshal(outputs, &s.Outputs); err != nil {
		return RealSample{}, fmt.Errorf("stack outputs: %w", err)
	}
	return s, nil
}

// readUsage waits for the wrappers to finish (the CLI may exit first),
// then sorts the plugin processes: of impl's package the last started is
// the serving one, the rest the YAML host's schema loads; under a
// component host the sitekit process serves the children's CRUD.
func (r *RealRunner) readUsage(impl Impl, s *RealSample) error {
	deadline := time.Now().Add(15 * time.Second)
	for {
		running, err := filepath.Glob(filepath.Join(r.rusageDir, "*"+usage.RunningSuffix))
		if err != nil {
			return err
		}
		if len(running) == 0 {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d plugin process(es) still running 15 s after the CLI exited", len(running))
		}
		time.Sleep(10 * time.Millisecond)
	}
	files, err := filepath.Glob(filepath.Join(r.rusageDir, "*.json"))
	if err != nil {
		return err
	}
	var own, crud []usage.Usage
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		var u usage.Usage
		if err := json.Unmarshal(data, &u); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		s.TotalCPU += time.Duration(u.UserNS + u.SystemNS)
		switch filepath.Base(u.Plugin) {
		case "pulumi-resource-" + impl.Package():
			own = append(own, u)
		case pluginName:
			crud = append(crud, u)
		default:
			return fmt.Errorf("unexpected plugin %s", u.Plugin)
		}
	}
	s.Processes = len(files)
	if len(own) == 0 {
		return errors.New("no plugin reported its usage: is the rusage wrapper in place?")
	}
	if impl.IsHost() != (len(crud) == 1) {
		return fmt.Errorf("%d sitekit processes beside %s", len(crud), impl)
	}
	slices.SortFunc(own, func(a, b usage.Usage) int { return int(a.StartNS - b.StartNS) })
	serving := own[len(own)-1]
	s.CPU, s.MaxRSSKB = time.Duration(serving.UserNS+serving.SystemNS), serving.MaxRSSKB
	for _, u := range own[:len(own)-1] {
		s.OtherCPU += time.Duration(u.UserNS + u.SystemNS)
	}
	if len(crud) == 1 {
		s.CRUDCPU, s.CRUDRSSKB = time.Duration(crud[0].UserNS+crud[0].SystemNS), crud[0].MaxRSSKB
	}
	return nil
}

func clearDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

func tail(s string, lines int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(l[max(len(l)-lines, 0):], "\n")
}
