package models

import (
	"fmt"
	"regexp"
	"sync"

	"gopkg.in/yaml.v3"
)

// providerName is what a provider added at run time may be called.
var providerName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`) })

// AddProvider adds (or changes) a provider and its models from a
// configuration shaped like one entry of models.yml's providers map, in
// JSON or YAML: an extension's pi.registerProvider. source names where it
// came from in errors. Call it before the registry is shared: a Registry
// is not safe for concurrent change.
func (r *Registry) AddProvider(name string, config []byte, source string) error {
	if !providerName().MatchString(name) {
		return &ConfigError{Path: source, Msg: fmt.Sprintf("provider name %q: use letters, digits, '-', '_' or '.'", name)}
	}
	var fp fileProvider
	if err := yaml.Unmarshal(config, &fp); err != nil {
		return &ConfigError{Path: source, Msg: fmt.Sprintf("providers.%s: %v", name, err)}
	}
	return r.apply(source, &fileConfig{Providers: map[string]*fileProvider{name: &fp}})
}
