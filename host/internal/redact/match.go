package redact

import (
	"encoding/base64"
	"html"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Finding the text of secrets in strings. The name check, marking and
// redaction ask it of every string they see, so a Matcher finds all of a
// request's secrets in one pass over a string (Aho–Corasick), whatever
// their number, ASCII case ignored: an upper-cased secret is no less
// secret.

// keyLen is how much of a secret text the automaton holds: a longer text
// is found by its first keyLen bytes, then compared to the end. Its
// memory is so at most keyLen nodes per secret, however long the secret.
const keyLen = 64

// Text is the text of a secret.
type Text struct {
	Text string
	Key  bool // a key of a secret map
}

// Matcher finds secret texts in strings.
type Matcher struct {
	texts []Text
	keys  []string // the texts' first keyLen bytes, in ASCII lower case
	// The automaton, over the lower-case keys (the first keyLen bytes of
	// each text). Node 0 is the root, whose transitions are a table.
	root  [256]int32
	nodes []acNode
	edges []acEdge // each node's, sorted by byte, from nodes[i].edge
	ends  []int32  // the texts whose key ends at a node, from nodes[i].end
}

type acNode struct {
	fail, dict  int32 // dict: the nearest node on the fail chain where keys end
	edge, nedge int32
	end, nend   int32
	depth       int32
}

type acEdge struct {
	b  byte
	to int32
}

// New builds the Matcher of texts, leaving out repeats (in any
// case), the empty text, and texts shorter than MinLen but keys of
// secret maps; nil if none is left. Short keys are kept for the name
// check alone (Occurrences): Within and Redact skip them.
func New(texts []Text) *Matcher {
	m := &Matcher{}
	seen := map[string][]int{} // by key, the texts kept
	for _, t := range texts {
		if t.Text == "" || len(t.Text) < MinLen && !t.Key {
			continue
		}
		key := LowerASCII(t.Text[:min(len(t.Text), keyLen)])
		if slices.ContainsFunc(seen[key], func(i int) bool { return equalFoldASCII(m.texts[i].Text, t.Text) }) {
			continue
		}
		seen[key] = append(seen[key], len(m.texts))
		m.texts = append(m.texts, t)
		m.keys = append(m.keys, key)
	}
	if len(m.texts) == 0 {
		return nil
	}
	m.build()
	return m
}

// build makes the automaton: the trie of the keys, each node's edges
// together, then the fail and dict links breadth first.
func (m *Matcher) build() {
	type triple struct {
		from int32
		b    byte
		to   int32
	}
	// The trie from the keys in order: each key shares its nodes with
	// the previous one as far as they agree, and adds the rest.
	key := func(i int32) string { return m.keys[i] }
	sorted := make([]int32, len(m.keys))
	for i := range sorted {
		sorted[i] = int32(i)
	}
	slices.SortFunc(sorted, func(a, b int32) int { return strings.Compare(key(a), key(b)) })
	var trie []triple
	m.nodes = []acNode{{}}
	keyEnd := make([]int32, len(m.keys))
	path := []int32{0} // the nodes of the previous key, by depth
	prev := ""
	for _, i := range sorted {
		k := key(i)
		common := 0
		for common < len(k) && common < len(prev) && k[common] == prev[common] {
			common++
		}
		path = path[:common+1]
		for j := common; j < len(k); j++ {
			next := int32(len(m.nodes))
			m.nodes = append(m.nodes, acNode{depth: int32(j + 1)})
			trie = append(trie, triple{path[j], k[j], next})
			path = append(path, next)
		}
		keyEnd[i] = path[len(k)]
		prev = k
	}
	slices.SortFunc(trie, func(a, b triple) int {
		if a.from != b.from {
			return int(a.from - b.from)
		}
		return int(a.b) - int(b.b)
	})
	m.edges = make([]acEdge, len(trie))
	for i, t := range trie {
		m.edges[i] = acEdge{t.b, t.to}
		if t.from == 0 {
			m.root[t.b] = t.to
		}
		if m.nodes[t.from].nedge == 0 {
			m.nodes[t.from].edge = int32(i)
		}
		m.nodes[t.from].nedge++
	}
	// The texts whose key ends at each node, together.
	order := make([]int32, len(keyEnd))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return int(keyEnd[a] - keyEnd[b]) })
	m.ends = order
	for i, t := range order {
		n := &m.nodes[keyEnd[t]]
		if n.nend == 0 {
			n.end = int32(i)
		}
		n.nend++
	}
	// Fail and dict links, breadth first from the root's children.
	queue := make([]int32, 0, len(m.nodes))
	for _, child := range m.root {
		if child != 0 {
			queue = append(queue, child)
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, e := range m.edges[m.nodes[u].edge : m.nodes[u].edge+m.nodes[u].nedge] {
			f := m.nodes[u].fail
			for {
				if next, ok := m.step(f, e.b); ok {
					f = next
					break
				}
				if f == 0 {
					break
				}
				f = m.nodes[f].fail
			}
			if f == e.to {
				f = 0
			}
			v := &m.nodes[e.to]
			v.fail = f
			if m.nodes[f].nend > 0 {
				v.dict = f
			} else {
				v.dict = m.nodes[f].dict
			}
			queue = append(queue, e.to)
		}
	}
}

// step is the trie's transition from n on b, if any.
func (m *Matcher) step(n int32, b byte) (int32, bool) {
	if n == 0 {
		next := m.root[b]
		return next, next != 0
	}
	node := &m.nodes[n]
	edges := m.edges[node.edge : node.edge+node.nedge]
	if len(edges) > 8 {
		i, ok := slices.BinarySearchFunc(edges, b, func(e acEdge, b byte) int { return int(e.b) - int(b) })
		if !ok {
			return 0, false
		}
		return edges[i].to, true
	}
	for _, e := range edges {
		if e.b == b {
			return e.to, true
		}
	}
	return 0, false
}

// scan calls found for every secret text whose key ends at byte i of s:
// with the span [start, end) of s that agrees with the text, whole
// (end-start == len(text)) or a prefix of a longer text (at least keyLen
// bytes). found returns false to stop.
func (m *Matcher) scan(s string, found func(text, start, end int) bool) {
	state := int32(0)
	for i := 0; i < len(s); i++ {
		b := lowerByte(s[i])
		for {
			if next, ok := m.step(state, b); ok {
				state = next
				break
			}
			if state == 0 {
				break
			}
			state = m.nodes[state].fail
		}
		for n := state; n != 0; n = m.nodes[n].dict {
			node := &m.nodes[n]
			if node.nend == 0 {
				continue
			}
			start := i + 1 - int(node.depth)
			for _, t := range m.ends[node.end : node.end+node.nend] {
				text := m.texts[t].Text
				end := i + 1
				for end < len(s) && end-start < len(text) && lowerByte(s[end]) == lowerByte(text[end-start]) {
					end++
				}
				if !found(int(t), start, end) {
					return
				}
			}
		}
	}
}

// find returns the first secret text that s holds whole.
func (m *Matcher) find(s string) (Text, bool) {
	if m == nil {
		return Text{}, false
	}
	var got Text
	ok := false
	m.scan(s, func(t, start, end int) bool {
		if n := len(m.texts[t].Text); end-start == n && n >= MinLen {
			got, ok = m.texts[t], true
		}
		return !ok
	})
	return got, ok
}

// Within reports whether s holds a secret text whole.
func (m *Matcher) Within(s string) bool {
	_, ok := m.find(s)
	return ok
}

// WithinAny reports whether s holds a secret text whole, as it is or in
// one of the forms spans decodes (escaped for a URL, quoted, base64).
func (m *Matcher) WithinAny(s string) bool {
	if m.Within(s) {
		return true
	}
	for _, v := range views(s) {
		if m.Within(v.text) {
			return true
		}
	}
	return false
}

// Span is [Start, End) of a string.
type Span struct{ Start, End int }

// spans are the spans of s that are secret text (prefixes of at least
// keyLen bytes included), as s is and in the forms an error may print a
// secret in: quoted (Go's %q, JSON, either twice), escaped for a URL or
// HTML, in base64 or hex; merged and in order.
func (m *Matcher) spans(s string) []Span {
	var out []Span
	collect := func(v view) {
		m.scan(v.text, func(t, start, end int) bool {
			if len(m.texts[t].Text) >= MinLen {
				out = append(out, v.source(start, end))
			}
			return true
		})
	}
	collect(view{text: s})
	for _, v := range views(s) {
		collect(v)
	}
	if len(out) == 0 {
		return nil
	}
	slices.SortFunc(out, func(a, b Span) int { return a.Start - b.Start })
	merged := out[:1]
	for _, sp := range out[1:] {
		last := &merged[len(merged)-1]
		if sp.Start <= last.End {
			last.End = max(last.End, sp.End)
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

// Redact replaces every span of s that is secret text, in any of the
// forms spans knows, by [secret]: with the rest of the word it is part
// of (wordSpan), so that what is left cannot complete a short secret
// ("htm" in "text/html").
func (m *Matcher) Redact(s string) string {
	if m == nil {
		return s
	}
	spans := m.spans(s)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	at := 0
	for _, sp := range spans {
		sp = wordSpan(s, sp)
		if sp.End <= at {
			continue // in the word of the previous one
		}
		sp.Start = max(sp.Start, at)
		b.WriteString(s[at:sp.Start])
		b.WriteString("[secret]")
		at = sp.End
	}
	b.WriteString(s[at:])
	return b.String()
}

// wordSpan is sp widened to the word of s it is in: the run of ASCII
// letters and digits, and bytes of other UTF-8 characters, around it.
func wordSpan(s string, sp Span) Span {
	word := func(c byte) bool { return isAlnum(c) || c >= utf8.RuneSelf }
	for sp.Start > 0 && word(s[sp.Start-1]) {
		sp.Start--
	}
	for sp.End < len(s) && word(s[sp.End]) {
		sp.End++
	}
	return sp
}

// A view is a string decoded from another, s: each of its bytes comes
// from a span of s, which source gives.
type view struct {
	text string
	// from[i], to[i] are the span of s byte i of text comes from; both
	// nil: the identity, plus offset.
	from, to []int32
	offset   int
	// scale: a decoding of whole units, in and out bytes per unit
	// (base64: 4 chars give 3 bytes; hex: 2 give 1); zero for none.
	in, out int
}

// source is the span of s that [start, end) of v's text comes from.
func (v view) source(start, end int) Span {
	switch {
	case v.from != nil:
		return Span{int(v.from[start]), int(v.to[end-1])}
	case v.in != 0:
		return Span{v.offset + start*v.in/v.out, v.offset + (end*v.in+v.out-1)/v.out}
	}
	return Span{v.offset + start, v.offset + end}
}

// views are the decodings of s a secret may hide in: unescaped (once and
// twice), unescaped as a URL query (a '+' a space), and each run of
// base64 or hex decoded.
func views(s string) []view {
	var out []view
	if once, ok := unescape(s, nil, nil, false); ok {
		out = append(out, once)
		if twice, ok := unescape(once.text, once.from, once.to, false); ok {
			out = append(out, twice)
		}
	}
	if strings.Contains(s, "+") {
		if query, ok := unescape(s, nil, nil, true); ok {
			out = append(out, query)
		}
	}
	out = append(out, base64Views(s)...)
	return append(out, hexViews(s)...)
}

// unescape decodes the escapes of s that quoting for Go, JSON, a URL or
// HTML writes (\" \\ \n \xHH \uHHHH \NNN, %HH, &lt; &#34;), and with
// plus a '+' as a space, as in a URL query; from and to, if s is itself a
// view's text, map back to the original. ok is false when s holds none.
func unescape(s string, from, to []int32, plus bool) (view, bool) {
	if !strings.ContainsAny(s, `\%&`) && !(plus && strings.Contains(s, "+")) {
		return view{}, false
	}
	var b []byte
	var vf, vt []int32
	emit := func(piece []byte, start, end int) {
		f, t := int32(start), int32(end)
		if from != nil {
			f, t = from[start], to[end-1]
		}
		for _, c := range piece {
			b = append(b, c)
			vf = append(vf, f)
			vt = append(vt, t)
		}
	}
	changed := false
	for i := 0; i < len(s); {
		n, piece := escapeAt(s, i)
		if plus && s[i] == '+' {
			n, piece = 1, []byte{' '}
		}
		if n == 0 {
			emit([]byte{s[i]}, i, i+1)
			i++
			continue
		}
		changed = true
		emit(piece, i, i+n)
		i += n
	}
	if !changed {
		return view{}, false
	}
	return view{text: string(b), from: vf, to: vt}, true
}

// escapeAt decodes the escape at s[i], if there is one: its length in s
// and what it stands for.
func escapeAt(s string, i int) (int, []byte) {
	switch s[i] {
	case '\\':
		if i+1 >= len(s) {
			return 0, nil
		}
		switch c := s[i+1]; c {
		case '"', '\'', '\\', '/', '?', '`':
			return 2, []byte{c}
		case 'n', 't', 'r', 'a', 'b', 'f', 'v':
			return 2, []byte{map[byte]byte{'n': '\n', 't': '\t', 'r': '\r', 'a': '\a', 'b': '\b', 'f': '\f', 'v': '\v'}[c]}
		case 'x':
			if v, ok := hexAt(s, i+2, 2); ok {
				return 4, []byte{byte(v)}
			}
		case 'u':
			if v, ok := hexAt(s, i+2, 4); ok {
				r := rune(v)
				if utf16High(r) && i+11 < len(s)+0 && s[i+6] == '\\' && s[i+7] == 'u' {
					if lo, ok := hexAt(s, i+8, 4); ok && utf16Low(rune(lo)) {
						return 12, utf8.AppendRune(nil, (r-0xD800)<<10+(rune(lo)-0xDC00)+0x10000)
					}
				}
				return 6, utf8.AppendRune(nil, r)
			}
		case 'U':
			if v, ok := hexAt(s, i+2, 8); ok && v <= utf8.MaxRune {
				return 10, utf8.AppendRune(nil, rune(v))
			}
		case '0', '1', '2', '3':
			if i+3 < len(s) && isOctal(s[i+2]) && isOctal(s[i+3]) {
				return 4, []byte{(c-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0')}
			}
		}
	case '%':
		if v, ok := hexAt(s, i+1, 2); ok {
			return 3, []byte{byte(v)}
		}
	case '&':
		end := strings.IndexByte(s[i:min(len(s), i+12)], ';')
		if end > 1 {
			entity := s[i : i+end+1]
			if u := html.UnescapeString(entity); u != entity {
				return len(entity), []byte(u)
			}
		}
	}
	return 0, nil
}

func hexAt(s string, i, n int) (uint64, bool) {
	if i+n > len(s) {
		return 0, false
	}
	v, err := strconv.ParseUint(s[i:i+n], 16, 32)
	return v, err == nil
}

func isOctal(c byte) bool   { return '0' <= c && c <= '7' }
func utf16High(r rune) bool { return 0xD800 <= r && r < 0xDC00 }
func utf16Low(r rune) bool  { return 0xDC00 <= r && r < 0xE000 }
func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
func isBase64Char(c byte) bool { return isAlnum(c) || strings.IndexByte("+/-_", c) >= 0 }
func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// runs are the maximal runs of s whose bytes are in, at least n long.
func runs(s string, in func(byte) bool, n int) []Span {
	var out []Span
	for i := 0; i < len(s); {
		if !in(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && in(s[j]) {
			j++
		}
		if j-i >= n {
			out = append(out, Span{i, j})
		}
		i = j
	}
	return out
}

// base64Views decode each run of base64 in s, from each of the four
// places an encoding could start in it. The URL alphabet's '-' and '_'
// are read as the standard '+' and '/' byte for byte, so a run that mixes
// the two (an encoding after "/a-b/") still decodes.
func base64Views(s string) []view {
	var out []view
	for _, r := range runs(s, isBase64Char, base64.RawStdEncoding.EncodedLen(MinLen)) {
		run := urlToStdBase64.Replace(s[r.Start:r.End])
		for off := 0; off < 4 && off < len(run); off++ {
			chars := run[off:]
			if len(chars)%4 == 1 {
				chars = chars[:len(chars)-1]
			}
			if data, err := base64.RawStdEncoding.DecodeString(chars); err == nil && len(data) >= MinLen {
				out = append(out, view{text: string(data), offset: r.Start + off, in: 4, out: 3})
			}
		}
	}
	return out
}

var urlToStdBase64 = strings.NewReplacer("-", "+", "_", "/")

// hexViews decode each run of hex digits in s, from its first and its
// second digit.
func hexViews(s string) []view {
	var out []view
	for _, r := range runs(s, isHexDigit, 2*MinLen) {
		for off := 0; off < 2; off++ {
			digits := s[r.Start+off : r.End]
			data := make([]byte, len(digits)/2)
			for i := range data {
				data[i] = unhex(digits[2*i])<<4 | unhex(digits[2*i+1])
			}
			out = append(out, view{text: string(data), offset: r.Start + off, in: 2, out: 1})
		}
	}
	return out
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// equalFoldASCII reports whether a and b are equal, ASCII case aside.
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerByte(a[i]) != lowerByte(b[i]) {
			return false
		}
	}
	return true
}

// LowerASCII is s with its ASCII letters in lower case, byte for byte.
func LowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lowerByte(b[j])
			}
			return string(b)
		}
	}
	return s
}

// Occurrence is a place a secret text is whole in a string.
type Occurrence struct {
	Span
	Key bool // the text is a key of a secret map
}

// Occurrences are the places s holds a secret text whole, as it is (ASCII
// case aside), in the order they end; short keys included.
func (m *Matcher) Occurrences(s string) []Occurrence {
	if m == nil {
		return nil
	}
	var out []Occurrence
	m.scan(s, func(t, start, end int) bool {
		if end-start == len(m.texts[t].Text) {
			out = append(out, Occurrence{Span{start, end}, m.texts[t].Key})
		}
		return true
	})
	return out
}
