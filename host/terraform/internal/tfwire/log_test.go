package tfwire

import (
	"reflect"
	"testing"
)

func TestLogWriter(t *testing.T) {
	var got []string
	w := newLogWriter(func(level, msg string) { got = append(got, level+"|"+msg) }, "terraform-provider-x")
	for _, chunk := range []string{
		`{"@level":"warn","@message":"low disk","@timestamp":"2026-01-01T00:00:00Z","free":3}` + "\n[INFO] pla",
		"in line\r\n\n",
		"unfinished",
	} {
		if n, err := w.Write([]byte(chunk)); n != len(chunk) || err != nil {
			t.Fatalf("Write: %d, %v", n, err)
		}
	}
	want := []string{
		"warn|low disk free=3 logger=terraform-provider-x",
		"debug|[INFO] plain line logger=terraform-provider-x",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
