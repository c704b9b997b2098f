package compat

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes the report as a pull-request comment: the verdict,
// the counts, and a table of changes per level, the safe ones folded.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### polyup compat: %s\n\n", mdEscape(r.title()))
	mark := "✅"
	if r.Err() != nil {
		mark = "❌"
	}
	fmt.Fprintf(&b, "%s %s\n\n", mark, mdEscape(r.verdict()))
	fmt.Fprintf(&b, "%s.\n", r.countLine())
	for _, l := range []Level{Breaking, Dangerous, Safe} {
		n := r.Count(l)
		if n == 0 {
			continue
		}
		title := strings.ToUpper(string(l[:1])) + string(l[1:])
		if l == Safe {
			fmt.Fprintf(&b, "\n<details><summary>%s (%d)</summary>\n\n", title, n)
		} else {
			fmt.Fprintf(&b, "\n#### %s (%d)\n\n", title, n)
		}
		b.WriteString("| Token | Change | Hits |\n|---|---|---|\n")
		for _, c := range r.Changes {
			if c.Level != l {
				continue
			}
			msg := mdEscape(c.Message)
			if c.Fix != "" {
				msg += "<br>**fix:** " + strings.ReplaceAll(mdEscape(c.Fix), "\n", "<br>")
			}
			if c.Acknowledged != "" {
				msg += "<br>**acknowledged:** " + mdEscape(c.Acknowledged)
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c.Token, msg, shortHits(c.Hits))
		}
		if l == Safe {
			b.WriteString("\n</details>\n")
		}
	}
	if len(r.Unused) > 0 {
		b.WriteString("\n#### Unused allow entries\n\nThey match no change:\n\n")
		for _, a := range r.Unused {
			fmt.Fprintf(&b, "- %s\n", mdEscape(a.String()))
		}
	}
	if r.Count(Breaking)+r.Count(Dangerous) > 0 {
		b.WriteString("\nHits: TS fails tsc, Py fails at run time, Go fails to build or run, YAML fails preview, stacks change at the next up.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdEscape keeps text text in a Markdown table: no HTML tags (map<string>),
// no cell breaks, no emphasis.
var mdEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "|", "\\|", "*", "\\*", "_", "\\_", "`", "\\`").Replace
