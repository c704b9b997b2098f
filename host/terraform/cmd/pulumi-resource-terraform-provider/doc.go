// Command pulumi-resource-terraform-provider is a ready plugin for any
// Terraform or OpenTofu provider: parameterized with a provider binary's
// path, or its name on PATH, it serves that provider's resources, data
// sources and functions as a package named after it (host/terraform does
// the serving).
//
//	pulumi package add pulumi-resource-terraform-provider terraform-provider-time
//
// makes the package time, whose time_static is time:index:Static, and
// SDKs for it. The package's name is the binary's name after
// terraform-provider-, without a release suffix (_v0.14.2); its version is
// that suffix's, or 0.0.0 when the name has none, as a provider binary
// does not say its version. The parameter the engine records, and hands
// back to the plugin in every later run, is JSON:
//
//	{"path":"/abs/path/terraform-provider-time","name":"time","version":"0.0.0","binary":"terraform-provider-time"}
//
// A later run starts the binary at path; if it is gone and the package was
// added by a bare name (binary), the binary of that name on PATH.
package main
