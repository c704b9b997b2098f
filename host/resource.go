package host

import (
	"fmt"

	"github.com/polyhost/polyhost/host/custom"
)

// WithResource serves the custom resource type token with r.
func WithResource(token string, r custom.Resource) Option {
	return func(p *Provider) error {
		if _, dup := p.resources[token]; dup {
			return fmt.Errorf("resource %s registered twice", token)
		}
		p.resources[token] = r
		return nil
	}
}
