// Package show prints a property value as text, the one printer of
// polyup's display and polytest's diffs and state assertions. Scripts
// match its output, so a change to it is a change to theirs.
package show
