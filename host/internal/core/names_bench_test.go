package core

import (
	"fmt"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/internal/redact"
)

// BenchmarkChildNames is the name check of a Site with n secret pages:
// the matcher of the inputs' secret texts (every page body, and, with the
// map secret, every page name) built once, then each page's child name
// checked (and, with the map secret, refused). Per page, neither grows with n but by the caches' misses:
// building is linear in the secrets' length, the check in the names'
// length, whatever the number of secrets.
func BenchmarkChildNames(b *testing.B) {
	for _, n := range []int{400, 4_000, 40_000} {
		for _, secretMap := range []bool{false, true} {
			pages := make(map[string]property.Value, n)
			for i := range n {
				pages[fmt.Sprintf("page-%05d.html", i)] = property.New(fmt.Sprintf("<p>body of page %d</p>", i)).WithSecret(!secretMap)
			}
			inputs := property.NewMap(map[string]property.Value{
				"indexContent": property.New("hi"),
				"pages":        property.New(pages).WithSecret(secretMap),
			})
			what := "secret bodies"
			if secretMap {
				what = "secret map"
			}
			b.Run(fmt.Sprintf("%s/%d", what, n), func(b *testing.B) {
				names := make([]string, n)
				for i := range names {
					names[i] = fmt.Sprintf("site-pages-page-%05d.html", i)
				}
				var build, check time.Duration
				for b.Loop() {
					start := time.Now()
					c := &Component{name: "site-pages", urn: "urn:pulumi:dev::p::sitekit:index:PageSet::site-pages", inputSecrets: redact.Of(inputs)}
					built := time.Now()
					for _, name := range names {
						if err := c.checkName("register child", "sitekit:index:BucketObject", name); (err != nil) != secretMap {
							b.Fatalf("%s: %v", name, err)
						}
					}
					build, check = build+built.Sub(start), check+time.Since(built)
				}
				b.ReportMetric(float64(build.Nanoseconds())/float64(b.N*n), "build-ns/secret-page")
				b.ReportMetric(float64(check.Nanoseconds())/float64(b.N*n), "check-ns/name")
			})
		}
	}
}
