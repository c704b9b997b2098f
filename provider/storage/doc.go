// Package storage is sitekit's storage backend: buckets and objects kept in
// a gocloud.dev/blob bucket chosen by URL (file:///dir, mem://). Every
// sitekit bucket is a key prefix under that root, marked by a small
// metadata object.
package storage
