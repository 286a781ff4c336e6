package models

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/config"
)

// ModelsFile is the user model configuration in the agent directory;
// LegacyModelsFile is read when it is absent.
const (
	ModelsFile       = "models.yml"
	LegacyModelsFile = "models.json"
)

// fileConfig is the models.yml document:
//
//	providers:
//	  my-proxy:                      # provider name ("my-proxy/<model id>")
//	    baseUrl: http://localhost:4000/v1
//	    api: openai-completions      # anthropic-messages | openai-completions | openai-responses | google-generative-ai | … (every registered API)
//	    apiKey: MY_PROXY_KEY         # environment variable name, or the key itself
//	    headers: {X-Team: tools}
//	    models:
//	      - id: qwen3-coder
//	        name: Qwen3 Coder (proxy)
//	        reasoning: false
//	        input: [text]
//	        contextWindow: 131072
//	        maxTokens: 32768
//	        cost: {input: 0.2, output: 0.8, cacheRead: 0, cacheWrite: 0}
//
// A built-in provider name (anthropic, ollama, …) may be given to change its
// base URL, key or headers, and to add models to it; fields left out keep
// the built-in values.
//
// omp's models.yml is read too (it is found below gopi's own), so every
// field of omp's schema is accepted: auth (none makes the key optional),
// compat (default for the provider's models) and modelOverrides (changes
// to built-in models) are applied; discovery, authHeader,
// disableStrictTools, equivalence and the per-model thinking and
// premiumMultiplier are accepted and not used; contextPromotionTarget (in
// a model or an override) names the model a context overflow switches to.
type fileConfig struct {
	Providers   map[string]*fileProvider `yaml:"providers"`
	Equivalence any                      `yaml:"equivalence"` // omp's model-equivalence table (not used)
}

type fileProvider struct {
	BaseURL            string                   `yaml:"baseUrl"`
	API                string                   `yaml:"api"`
	APIKey             string                   `yaml:"apiKey"`
	Headers            map[string]string        `yaml:"headers"`
	Models             []fileModel              `yaml:"models"`
	Auth               string                   `yaml:"auth"`               // apiKey (default), none (no key needed) or oauth (not supported: treated as apiKey)
	Compat             map[string]any           `yaml:"compat"`             // default compat of the provider's models
	ModelOverrides     map[string]modelOverride `yaml:"modelOverrides"`     // changes to models of the provider, by id
	AuthHeader         *bool                    `yaml:"authHeader"`         // omp: send the key as a bearer header (not used)
	Discovery          any                      `yaml:"discovery"`          // omp: list models from the server (not used)
	DisableStrictTools bool                     `yaml:"disableStrictTools"` // omp: no strict tool schemas (gopi sends none)
}

// modelOverride changes fields of an existing model (omp's modelOverrides).
type modelOverride struct {
	Name          string            `yaml:"name"`
	Reasoning     *bool             `yaml:"reasoning"`
	Input         []string          `yaml:"input"`
	Cost          *ai.Prices        `yaml:"cost"`
	ContextWindow int               `yaml:"contextWindow"`
	MaxTokens     int               `yaml:"maxTokens"`
	Headers       map[string]string `yaml:"headers"`
	Compat        map[string]any    `yaml:"compat"`

	Thinking               any     `yaml:"thinking"`               // not used
	PremiumMultiplier      float64 `yaml:"premiumMultiplier"`      // not used
	ContextPromotionTarget string  `yaml:"contextPromotionTarget"` // the model to switch to on a context overflow
}

type fileModel struct {
	ID            string            `yaml:"id"`
	Name          string            `yaml:"name"`
	API           string            `yaml:"api"`
	BaseURL       string            `yaml:"baseUrl"`
	Reasoning     bool              `yaml:"reasoning"`
	Input         []string          `yaml:"input"`
	ContextWindow int               `yaml:"contextWindow"`
	MaxTokens     int               `yaml:"maxTokens"`
	Cost          ai.Prices         `yaml:"cost"`
	Headers       map[string]string `yaml:"headers"`
	Compat        map[string]any    `yaml:"compat"`

	Thinking               any     `yaml:"thinking"`               // omp's per-model thinking levels (not used)
	PremiumMultiplier      float64 `yaml:"premiumMultiplier"`      // not used
	ContextPromotionTarget string  `yaml:"contextPromotionTarget"` // the model to switch to on a context overflow
}

// ConfigError is a models.yml problem: which file, and what is wrong.
type ConfigError struct {
	Path string // the file
	Msg  string // what is wrong, with the YAML path or line
}

// Error returns "PATH: MSG".
func (e *ConfigError) Error() string { return e.Path + ": " + e.Msg }

// loadFile reads models.yml (or the legacy models.json) from dir. A
// missing file is not an error.
func loadFile(dir string) (*fileConfig, string, error) {
	for _, name := range []string{ModelsFile, LegacyModelsFile} {
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, path, fmt.Errorf("read model configuration: %w", err)
		}
		cfg, err := parseConfig(path, data)
		return cfg, path, err
	}
	return nil, "", nil
}

// parseConfig decodes and validates a models.yml document.
func parseConfig(path string, data []byte) (*fileConfig, error) {
	cfg := &fileConfig{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
		return nil, &ConfigError{Path: path, Msg: yamlMessage(err) + " (the format is shown by 'gopi models --help')"}
	}
	for name, p := range cfg.Providers {
		where := "providers." + name
		if strings.TrimSpace(name) == "" || strings.ContainsAny(name, " /\t") {
			return nil, &ConfigError{Path: path, Msg: fmt.Sprintf("%s: provider names must be non-empty and contain no spaces or '/'", where)}
		}
		if p == nil {
			return nil, &ConfigError{Path: path, Msg: where + ": empty provider entry; give at least baseUrl and api, or models"}
		}
		switch p.Auth {
		case "", "apiKey", "none", "oauth":
		default:
			return nil, &ConfigError{Path: path, Msg: fmt.Sprintf("%s.auth: unknown value %q; use apiKey, none or oauth", where, p.Auth)}
		}
		if p.API != "" && !knownAPI(p.API) {
			return nil, &ConfigError{Path: path, Msg: fmt.Sprintf("%s.api: unknown API %q; use one of %s", where, p.API, apiList())}
		}
		seen := map[string]bool{}
		for i, m := range p.Models {
			mw := fmt.Sprintf("%s.models[%d]", where, i)
			if strings.TrimSpace(m.ID) == "" {
				return nil, &ConfigError{Path: path, Msg: mw + ": id is required"}
			}
			if seen[m.ID] {
				return nil, &ConfigError{Path: path, Msg: fmt.Sprintf("%s: duplicate model id %q", mw, m.ID)}
			}
			seen[m.ID] = true
			if m.API != "" && !knownAPI(m.API) {
				return nil, &ConfigError{Path: path, Msg: fmt.Sprintf("%s.api: unknown API %q; use one of %s", mw, m.API, apiList())}
			}
			for _, in := range m.Input {
				if in != ai.InputText && in != ai.InputImage {
					return nil, &ConfigError{Path: path, Msg: fmt.Sprintf("%s.input: unknown modality %q; use text and/or image", mw, in)}
				}
			}
			if m.ContextWindow < 0 || m.MaxTokens < 0 {
				return nil, &ConfigError{Path: path, Msg: mw + ": contextWindow and maxTokens must not be negative"}
			}
			if m.Cost.Input < 0 || m.Cost.Output < 0 || m.Cost.CacheRead < 0 || m.Cost.CacheWrite < 0 {
				return nil, &ConfigError{Path: path, Msg: mw + ".cost: prices must not be negative"}
			}
		}
	}
	return cfg, nil
}

var unknownField = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`field (\S+) not found in type [\w.]+`) })

// cannotUnmarshal matches yaml.v3's type mismatch: "cannot unmarshal TAG
// [`VALUE`] into GOTYPE".
var cannotUnmarshal = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("cannot unmarshal (!!\\w+)( `[^`]*`)? into (.+)$") })

// yamlTags and goTypes say what a YAML node and a configuration field are,
// in the file's terms rather than YAML tags and Go type names.
var (
	yamlTags = map[string]string{
		"!!str": "the string", "!!int": "the number", "!!float": "the number",
		"!!bool": "the boolean", "!!null": "null", "!!map": "a mapping", "!!seq": "a list",
	}
	goTypes = map[string]string{
		"models.fileConfig":               "a mapping with a providers key",
		"map[string]*models.fileProvider": "a mapping of provider names to providers",
		"models.fileProvider":             "a provider mapping",
		"*models.fileProvider":            "a provider mapping",
		"[]models.fileModel":              "a list of models",
		"models.fileModel":                "a model mapping",
		"ai.Prices":                       "a cost mapping",
		"map[string]string":               "a mapping of names to strings",
		"map[string]interface {}":         "a mapping",
		"[]string":                        "a list of strings",
		"string":                          "a string",
		"int":                             "a whole number",
		"float64":                         "a number",
		"bool":                            "true or false",
	}
)

// typeMessage rewords one "cannot unmarshal" line; other lines are kept.
func typeMessage(line string) string {
	m := cannotUnmarshal().FindStringSubmatchIndex(line)
	if m == nil {
		return line
	}
	tag, value, typ := line[m[2]:m[3]], "", line[m[6]:m[7]]
	if m[4] >= 0 {
		value = line[m[4]:m[5]]
	}
	what, ok1 := yamlTags[tag]
	as, ok2 := goTypes[typ]
	if !ok1 || !ok2 {
		return line
	}
	return line[:m[0]] + "cannot use " + what + value + " as " + as
}

// yamlMessage rewords a yaml.v3 error: one line per problem, field names
// instead of Go type names.
func yamlMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if !strings.HasPrefix(msg, "unmarshal errors:\n") {
		return "invalid YAML: " + config.YAMLErrorText(err)
	}
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
	msg = unknownField().ReplaceAllString(msg, "unknown field $1")
	lines := strings.Split(msg, "\n")
	for i := range lines {
		lines[i] = typeMessage(strings.TrimSpace(lines[i]))
	}
	return "invalid YAML: " + strings.Join(lines, "; ")
}

// knownAPI reports whether a provider implementation is registered for
// the API named s (providers.go imports them all).
func knownAPI(s string) bool {
	for _, a := range ai.RegisteredAPIs() {
		if string(a) == s {
			return true
		}
	}
	return false
}

func apiList() string {
	var s []string
	for _, a := range ai.RegisteredAPIs() {
		s = append(s, string(a))
	}
	return strings.Join(s, ", ")
}
