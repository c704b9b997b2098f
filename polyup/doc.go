// Package polyup runs a Pulumi program (Go, TypeScript or Python) on an
// embedded engine against provider plugins, with no Pulumi CLI and no
// cloud account, and reads the resulting stack: a component author's
// end-to-end test, from their own module.
//
//	bin, err := polyup.BuildPlugin(ctx, "./cmd/pulumi-resource-greet", t.TempDir())
//	stack, err := polyup.New("example", polyup.Options{Plugins: map[string]string{"greet": bin}})
//	res, err := stack.Up(ctx)            // res.Steps, res.Outputs
//	resources, err := stack.Resources()  // the state, secrets decrypted
//
// [ReadState] reads the same from any state file, the real CLI's `pulumi
// stack export --show-secrets` too. Package polytest runs testscript
// scripts on this engine and the real CLI.
//
// The program runs as its Pulumi language host would start it: a Go
// program is built with go build, a TypeScript or JavaScript one runs on
// the @pulumi/pulumi in its node_modules (npm install first), a Python one
// on the virtualenv its Pulumi.yaml names (the `virtualenv` runtime
// option), else on python3. Inside the polyhost repository, tests/setup.sh's
// shared installs stand in for a missing node_modules or virtualenv.
//
// The command cmd/polyup is a compact `pulumi up` on the same engine
// ([Main]). The engine follows the real engine's protocol and step rules;
// where the two differ, the real one is right. `polyup new` creates a
// package, and `polyup compat` compares two of its schemas (package
// compat).
package polyup
