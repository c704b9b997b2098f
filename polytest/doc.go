// Package polytest runs a package author's end-to-end scripts: testscript
// files (testdata/*.txtar) that run Pulumi programs, in any language,
// against the author's provider plugins, on polyup's embedded engine and
// under the real pulumi CLI, and assert on the stacks they build. It is
// the third level of an author's tests, beside host/hosttest (a component
// against a fake engine) and polyup (one program, from Go).
//
//	func TestMain(m *testing.M) { polytest.Main(m, nil) }
//
//	func TestScripts(t *testing.T) {
//		testscript.Run(t, polytest.Params(t, "testdata"))
//	}
//
// The name says what it is for, as polyup's does: tests of a polyhost
// package. It adds to testscript (github.com/rogpeppe/go-internal) what a
// Pulumi package's scripts need; the scripts stay testscript's, with its
// built-in commands (exec, stdout, cmp, env, ...).
//
// # Plugins
//
// Params builds the author's provider plugins once per test binary and
// puts them first on every script's PATH, where both engines find them:
// every folder of the test's module named pulumi-resource-<pkg> that holds
// Go code (cmd/pulumi-resource-greet, provider/cmd/pulumi-resource-greet;
// not under testdata, vendor or hidden folders, nor in a module of its
// own), or the folders [WithPlugins] names, which may be in other modules.
// A plugin that does not build fails the test.
//
// # Environment
//
// Every script runs in a hermetic environment of its own:
//
//	WORK         the script's folder (testscript)
//	HOME         $WORK/home
//	PLUGINS      the folder of the plugins: $PLUGINS/pulumi-resource-greet
//	MODULE       the test's module: `go work init $MODULE ./prog` builds a
//	             Go program in the script on the module's requirements
//	PATH         Main's programs (polyup), $PLUGINS, the folders of
//	             WithPath, then the test's PATH
//	BACKEND      $WORK/.backend, the real CLI's file:// backend
//	PULUMI_HOME  $WORK/.pulumi; with PULUMI_BACKEND_URL, the passphrase
//	             [Passphrase], no update check, no plugin download, no
//	             confirmation prompts (`pulumi up` needs no --yes), and
//	             PULUMI_DEBUG_COMMANDS, for `--event-log` (opsdiff)
//	GOCACHE, GOMODCACHE, GOPATH, GOFLAGS, GOPROXY and the other Go
//	settings, npm_config_cache, PIP_CACHE_DIR: the test's, so that
//	builds and installs stay fast
//
// # Programs
//
// exec polyup [flags] preview|up|refresh|destroy [program-dir] runs a
// program (Go, TypeScript, JavaScript or Python) on the embedded engine,
// as the polyup command does; its state is <program-dir>/.polyup/dev.json
// unless -state says otherwise. It prints each step, the outputs (secrets
// as [secret]) and a summary:
//
//	exec polyup up prog
//	stdout 'create +greet:index:Greeting +hi'
//	stdout 'Resources: 4 create'
//
// exec pulumi ... is the real CLI, when it is installed (guard with
// [pulumi]); its state goes to $BACKEND:
//
//	exec pulumi stack init dev
//	exec pulumi up --yes
//	exec pulumi stack export --show-secrets --file $WORK/real.json
//
// SDKs for a consumer in any language come from the real CLI, with the
// plugin Params built: `exec pulumi package add $PLUGINS/pulumi-resource-greet`
// in a program's folder generates the SDK, links it into the program and
// installs it (then `exec go mod tidy` for Go), and `exec pulumi package
// gen-sdk $PLUGINS/pulumi-resource-greet --language python --out sdk`
// writes one to publish.
//
// # Commands
//
// Each takes `!` to negate what it asserts, unless it says otherwise; a
// negated assertion still fails when a resource or key it names does not
// exist.
//
// state FILE ... asserts on a stack's state: polyup's state file (its
// secrets decrypted with the key beside it) or the real CLI's `pulumi
// stack export --show-secrets --file FILE`. A resource is named by the last
// part of its URN, or TYPE::NAME where two share a name. Values compare as
// text: strings unquoted, numbers as Go prints them, a secret as
// [secret], an unknown as [unknown], a resource reference as "ref URN id
// ID". A failure names the resource, the key and what it found.
//
//	state $STATE count greet:index:Message 1        # live resources of a type
//	state $STATE has greet:index:Message hi-message # one of that type and name
//	state $STATE parent hi-message hi               # its parent
//	state $STATE dependsOn hi-note hi-message       # among its dependencies
//	state $STATE provider hi-message pulumi:providers:greet default_0_1_0
//	state $STATE output text 'Hello, Ada!'          # a stack output
//	state $STATE nooutput password                  # no such stack output
//	state $STATE secret password                    # a stack output is secret
//	state $STATE secret hi-message text             # a resource's output is
//	state $STATE field hi-message length 11         # a resource's output
//	state $STATE nofield hi-message draft           # no such output
//	state $STATE setenv ID hi-message id            # $ID = its value, plaintext (no !)
//	state $STATE matches $WORK/before.json          # the same resources, IDs and values
//
// A failed operation must leave the state alone: copy it and its key
// first (cp $STATE before.json, cp $STATE.key before.json.key), then
// `state $STATE matches before.json`. cmp cannot say so, as every write
// has a new time and fresh ciphertexts.
//
// stackdiff EMBEDDED-STATE REAL-EXPORT [TYPE.KEY...] holds one program's
// stacks from the two engines to each other (no !): every resource's
// custom flag, parent, provider, dependencies, property dependencies,
// options, init errors, inputs and outputs with their secret markers,
// after each resource ID (and so any name built from one) is replaced by
// a placeholder. TYPE.KEY is a property random per create, compared only
// for being secret.
//
//	stackdiff prog/.polyup/dev.json $WORK/real.json
//
// opsdiff EMBEDDED-OUTPUT REAL-EVENT-LOG compares the steps two engines
// reported for one operation: polyup's output, saved with `cp stdout FILE`,
// and the real engine's event log, which `--event-log FILE` writes (no !).
// Same steps and default providers are left out, as the CLI leaves them
// out. A saved CLI display is read too, but under load the display may
// show a step only as finished, or a replacement only by its last op: the
// event log is what the engine reported.
//
//	exec polyup up prog
//	cp stdout $WORK/ours.txt
//	exec pulumi up --yes --event-log $WORK/real.events
//	opsdiff $WORK/ours.txt $WORK/real.events
//
// noleak TEXT PATH... fails if TEXT occurs in any file under the paths, or
// in the last command's output when a path is stdout or stderr (no !):
//
//	noleak s3cr3t $BACKEND prog/.polyup stdout stderr
//
// cpdir SRC DST copies a program's folder, leaving out node_modules,
// venv, __pycache__, hidden folders (.polyup, .git, ...) and stack config
// files (Pulumi.<stack>.yaml) (no !):
//
//	cpdir $MODULE/example example
//
// # Conditions
//
//	[pulumi]  the pulumi CLI is on PATH (or in a WithPath folder); with
//	          POLYHOST_REQUIRE_PULUMI=1 (EnvRequirePulumi) in the
//	          environment, its absence fails the script: set it in CI
//	[node]    node is, for TypeScript and JavaScript programs
//	[python]  python3 is, for Python programs
//
//	[!pulumi] skip 'needs the pulumi CLI'
//
// [WithSetup], [WithCmds] and [WithCondition] add the author's own.
package polytest
