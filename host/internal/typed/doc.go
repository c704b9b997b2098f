// Package typed converts between property maps and Go structs tagged
// `pulumi:"name"` or `pulumi:"name,optional"` (options: [ParseTag]).
// Struct layouts are analysed once per type and cached.
package typed
