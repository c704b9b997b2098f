// Package terraform serves a Terraform or OpenTofu provider's resources,
// data sources and functions as a package's own: any provider binary that
// speaks the Terraform plugin protocol (5 or 6) is a backend of custom
// resources beside the package's Go components.
//
//	host.Main("sitekit",
//		host.WithSchema(schemaYAML),
//		host.WithComponent("sitekit:index:Site", BuildSite),
//		terraform.WithProvider("/path/to/terraform-provider-time"),
//	)
//
// [WithProvider] starts the binary once when the host is built, to read its
// schema, which joins the package's: a managed resource time_offset is the
// custom resource sitekit:index:Offset, a data source time_x the function
// sitekit:index:getX, a provider function rfc3339_parse the function
// sitekit:index:rfc3339Parse, and the provider's configuration (root_dir
// as rootDir) the package's configuration variables. [Only] serves a
// subset; [Module] puts the tokens in a module of their own
// (sitekit:time:Offset). Each provider instance of the package (the default one, or each
// explicit one with its own configuration) is one provider process,
// configured with its instance's values on its first request; the
// processes end when the plugin does (on Linux also when it is killed:
// they get SIGKILL as their parent-death signal). A process that exits (a
// crash) fails its requests in flight, naming the provider, and the next
// request of its instance starts another; one that answers a transient
// Unavailable and lives on is kept.
//
// customTimeouts fill a resource's timeouts block or attribute (SDKv2's,
// terraform-plugin-framework-timeouts'), which the Pulumi schema leaves
// out, as Go durations: create and update in the planned configuration,
// delete in the state deleted. When the engine cancels, each apply in
// flight is told to stop (StopProvider) and its answer awaited for up to
// 30 s. A resource without an id attribute gets an ID of the backend's
// making: random on create, the import ID on import.
//
// How each step maps onto the protocol: Check validates the
// configuration and plans a create; Diff plans from the recorded state;
// Create and Update plan and apply; Delete applies a null plan; refresh is
// ReadResource and import ImportResourceState. The provider's private
// state and the schema version travel in the resource's secret output
// "__terraform", and every recorded state is upgraded before use.
// Sensitive attributes are secret; an output of a resource given a secret
// input is secret too, as the host cannot tell what the provider computed
// from it. A state the provider returns that is not of its schema is an
// error naming the provider and the type.
//
// The command host/terraform/cmd/pulumi-resource-terraform-provider is a
// ready plugin for any provider: parameterized with a provider binary
// (`pulumi package add <plugin> terraform-provider-time`), it serves that
// provider as the package named after it (time).
//
// In a preview whose provider configuration is not known yet (a value
// from another resource's output), no provider is configured: Check
// checks what Terraform itself checks (types, required attributes) and
// Diff compares the inputs, so a change that will replace shows as an
// update until the configuration is known. Provider functions run on a
// process never configured, as Terraform calls them; a data source fails
// naming its function and the unknown configuration keys, as Pulumi takes
// no unknown results from an Invoke.
//
// A replacement follows Pulumi's default, create before delete (the
// resource option deleteBeforeReplace asks for Terraform's order); a
// RequiresReplace path replaces only when its value changes. Write-only
// attributes are recorded secret. A provider's log lines reach the
// plugin's stderr only when TF_LOG (or a TF_LOG_* variable) asks for them;
// otherwise providers run with their SDK's logs at WARN, and their
// warnings and errors reach users as diagnostics.
//
// TF_REATTACH_PROVIDERS, as Terraform reads it, attaches to a provider
// running in debug mode instead of starting one: the entry whose address
// ends in the provider's name (".../time").
package terraform
