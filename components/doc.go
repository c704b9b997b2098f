// Package components is the sitekit reference package's component code: a
// static website (Site) built from a bucket, pages stored as objects, and a
// nested PageSet component. It is written against host/ only; the provider
// package wires it into a plugin.
package components
