package core

import (
	"errors"

	"github.com/polyhost/polyhost/host/diag"
)

// EngineNamed returns err as the engine should get it when it prints token,
// and name if not empty, before the message itself: a StepError about that
// resource without them. Other errors, about a nested component say, are
// left whole.
func EngineNamed(err error, token, name string) error {
	se, ok := err.(*diag.StepError)
	if !ok || se.Token != token || (name != "" && se.Name != name) {
		return err
	}
	short := *se
	short.Token = ""
	if name != "" {
		short.Name = ""
	}
	return &short
}

// asInputError finds an InputError anywhere in err's chain.
func asInputError(err error) (*diag.InputError, bool) {
	var ie *diag.InputError
	return ie, errors.As(err, &ie)
}
