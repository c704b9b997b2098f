// Package binder holds tests that judge the host's schema reader
// (host/schema) by Pulumi's own schema binder (pkg/v3 codegen/schema): every
// schema the host serves binds with no error, and over a table of fixtures
// the reader accepts what the binder accepts and reads each property as the
// binder does; a schema the host builds from Go types (Go-first) binds
// too, each Go declaration read as meant, and so does every schema the
// unit tests use: they keep them as files (host/testdata/schemas,
// host/gosdk/testdata, host/schema/testdata, what schemagen's fixture
// generates in host/schemagen/testdata/schemas, and the schema polyup
// new's package generates in internal/starter/testdata) that both read,
// those built from Go types compared with what the types build. A
// parameterized plugin's package (shelf's books) binds as GetSchema
// serves it. It has no code of its own; it lives in this module, beside
// the language host with Pulumi's generators, so that pkg/v3 stays out of
// the main module's graph.
package binder
