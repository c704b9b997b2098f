package storage

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrInvalidName is what every refusal of CheckBucketName and CheckKey
// matches (errors.Is).
var ErrInvalidName = errors.New("invalid name")

type nameError string

func (e nameError) Error() string        { return string(e) }
func (e nameError) Is(target error) bool { return target == ErrInvalidName }

// maxSegment is the longest file name most filesystems allow, in bytes.
const maxSegment = 255

// CheckBucketName says why a bucket name is refused, or returns nil: it
// must be a plain file name, so that a bucket never reaches into another
// or outside the store. The error does not quote the name, which may be
// secret.
func CheckBucketName(name string) error {
	if reason := nameProblem(name, "it"); reason != "" {
		return nameError("a bucket name must be a plain file name: " + reason)
	}
	return nil
}

// CheckKey says why an object key is refused, or returns nil: it must be
// file names separated by single slashes, so that every object stays in
// its bucket, and be neither the bucket's marker nor a file store's
// attributes file.
func CheckKey(key string) error {
	switch {
	case key == MarkerKey:
		return nameError(MarkerKey + " is reserved for the bucket's marker")
	case strings.HasSuffix(key, ".attrs"):
		return nameError("a key must not end in .attrs: a file store keeps an object's attributes there")
	case key == "":
		return nameError("a key must not be empty")
	}
	for _, seg := range strings.Split(key, "/") {
		if reason := nameProblem(seg, "one"); reason != "" {
			return nameError("a key must be file names separated by single slashes: " + reason)
		}
	}
	return nil
}

func checkObject(bucket, key string) error {
	if err := CheckBucketName(bucket); err != nil {
		return err
	}
	return CheckKey(key)
}

// nameProblem says what makes s no plain file name, or returns "";
// subject is what the sentence calls s.
func nameProblem(s, subject string) string {
	switch {
	case s == "":
		return subject + " is empty"
	case s == "." || s == "..":
		return subject + ` is "." or ".."`
	case len(s) > maxSegment:
		return subject + " is longer than 255 bytes"
	case !utf8.ValidString(s):
		return subject + " is not valid UTF-8"
	case strings.ContainsAny(s, `/\`):
		return subject + " holds a slash or a backslash"
	case strings.ContainsFunc(s, unicode.IsControl):
		return subject + " holds a control character"
	}
	return ""
}
