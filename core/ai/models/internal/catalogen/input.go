package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// model is one catalogue entry as models.json spells it.
type model struct {
	ID            string            `json:"id"`
	Name          string            `json:"name"`
	API           string            `json:"api"`
	Provider      string            `json:"provider"`
	BaseURL       string            `json:"baseUrl"`
	Reasoning     bool              `json:"reasoning"`
	Input         []string          `json:"input"`
	Cost          cost              `json:"cost"`
	ContextWindow int               `json:"contextWindow"`
	MaxTokens     int               `json:"maxTokens"`
	Headers       map[string]string `json:"headers"`
	Compat        map[string]any    `json:"compat"`
	Thinking      *thinking         `json:"thinking"`
	Promotion     string            `json:"contextPromotionTarget"`

	// Facts gopi does not use.
	ApplyPatchToolType string   `json:"applyPatchToolType"`
	PreferWebsockets   bool     `json:"preferWebsockets"`
	Priority           *float64 `json:"priority"`
	PremiumMultiplier  *float64 `json:"premiumMultiplier"`
}

type cost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
}

type thinking struct {
	Mode     string   `json:"mode"`
	MinLevel string   `json:"minLevel"`
	MaxLevel string   `json:"maxLevel"`
	Levels   []string `json:"levels"`
}

// provider is one top-level key of models.json with its models in file order.
type provider struct {
	name   string
	models []model
}

// readInput reads a plain or gzip-compressed file.
func readInput(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return io.ReadAll(zr)
}

// parseCatalogue decodes models.json keeping the order of providers and
// models (a Go map would lose it; the order is the catalogue's listing
// order).
func parseCatalogue(raw []byte) ([]provider, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var out []provider
	err := eachKey(dec, func(name string) error {
		p := provider{name: name}
		err := eachKey(dec, func(id string) error {
			var m model
			var rawModel json.RawMessage
			if err := dec.Decode(&rawModel); err != nil {
				return err
			}
			md := json.NewDecoder(bytes.NewReader(rawModel))
			md.DisallowUnknownFields()
			if err := md.Decode(&m); err != nil {
				return fmt.Errorf("%s/%s: %w (a new catalogue field: teach catalogen about it)", name, id, err)
			}
			if m.ID != id || m.Provider != name {
				return fmt.Errorf("%s/%s: entry says id %q provider %q", name, id, m.ID, m.Provider)
			}
			p.models = append(p.models, m)
			return nil
		})
		if err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the catalogue object")
	}
	return out, nil
}

// eachKey reads one JSON object from dec, calling fn for each key with the
// decoder positioned at its value; fn must consume the value.
func eachKey(dec *json.Decoder, fn func(key string) error) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("expected an object, found %v", t)
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if err := fn(t.(string)); err != nil {
			return err
		}
	}
	_, err = dec.Token() // the closing brace
	return err
}
