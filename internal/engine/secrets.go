package engine

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
)

// secretsProviderType names our secrets manager in the state file's
// secrets_providers section. It is test-only: a random AES-256-GCM key kept
// in a file next to the state (the same "v1:nonce:ciphertext" format the real
// passphrase secrets manager writes).
const secretsProviderType = "polyhost-testkey"

type secretsProviderState struct {
	KeyFile string `json:"keyFile"` // base name, resolved against the state file's directory
}

// keyFilePath is where the per-stack key lives: beside the state file.
func keyFilePath(statePath string) string {
	return statePath + ".key"
}

// loadCrypter reads the per-stack key, or creates it when create is set and
// no key exists yet. A nil crypter with nil error means "no key and not asked
// to create one".
func loadCrypter(statePath string, create bool) (config.Crypter, error) {
	path := keyFilePath(statePath)
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		key, derr := hex.DecodeString(strings.TrimSpace(string(data)))
		if derr != nil || len(key) != config.SymmetricCrypterKeyBytes {
			return nil, fmt.Errorf("secrets key %s is malformed", path)
		}
		return config.NewSymmetricCrypter(key), nil
	case !errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("reading secrets key: %w", err)
	case !create:
		return nil, nil
	}
	key := make([]byte, config.SymmetricCrypterKeyBytes)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	if err := writeFileAtomic(path, []byte(hex.EncodeToString(key)+"\n"), 0o600); err != nil {
		return nil, fmt.Errorf("writing secrets key: %w", err)
	}
	return config.NewSymmetricCrypter(key), nil
}

func secretsProviderSection(statePath string) *apitype.SecretsProvidersV1 {
	st, err := json.Marshal(secretsProviderState{KeyFile: filepath.Base(keyFilePath(statePath))})
	if err != nil {
		panic(err) // cannot fail for this fixed shape
	}
	return &apitype.SecretsProvidersV1{Type: secretsProviderType, State: st}
}
