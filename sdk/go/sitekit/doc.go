// Static websites on blob storage, as Pulumi components written once in Go.
package sitekit
