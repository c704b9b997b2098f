package rpc

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"google.golang.org/grpc/status"

	"github.com/polyhost/polyhost/host/diag"
)

// An error or a failure about a huge input tells the engine a bounded
// text, cut at a character and saying how much was left out; a short one
// goes out whole.
func TestAnswersAreBounded(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("é", 10<<20)
	if got := status.Convert(toStatus(errors.New("short"))).Message(); got != "short" {
		t.Errorf("short message: %q", got)
	}
	msg := status.Convert(toStatus(errors.New("bad: " + huge))).Message()
	if len(msg) > maxText+64 || !utf8.ValidString(msg) || !strings.HasSuffix(msg, "more bytes)") {
		t.Errorf("message of %d bytes, ends %q", len(msg), msg[max(0, len(msg)-40):])
	}

	ie := &diag.InputError{Message: huge}
	for range 3 * maxFailures {
		ie.Failures = append(ie.Failures, diag.CheckFailure{Property: "pages", Reason: huge})
	}
	st := status.Convert(constructStatus(ie))
	size := len(st.Message())
	for _, d := range st.Proto().GetDetails() {
		size += len(d.GetValue())
	}
	if limit := (maxFailures + 1) * (2*maxText + 64); size > limit {
		t.Errorf("construct error of %d bytes, want at most %d", size, limit)
	}
	if !strings.Contains(st.Message(), "and 200 more invalid properties") {
		t.Errorf("the message does not count the failures left out: ...%s", st.Message()[len(st.Message())-80:])
	}
	wire := ToCheckFailures(ie.Failures)
	if len(wire) != maxFailures+1 || wire[maxFailures].GetReason() != "and 200 more failures" {
		t.Errorf("%d failures on the wire, the last %q", len(wire), wire[len(wire)-1].GetReason())
	}
	for _, f := range wire {
		if len(f.GetReason()) > maxText+64 {
			t.Fatalf("a reason of %d bytes", len(f.GetReason()))
		}
	}
}
