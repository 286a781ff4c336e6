package models

import (
	"strings"

	"github.com/gopi-agent/gopi/tokens"
)

// TokenCounting says how to count tokens for the model a user named (as
// `gopi tokens --model` does). A name the id rules of tokens.ForModel
// recognise is used as given; otherwise it is looked up in the registry
// load returns (loaded only then), so "opus" counts as the Claude model it
// names. Only exact and substring matches are taken: a fuzzy guess could
// turn an unknown open-weight model into an unrelated OpenAI one. It
// returns the rule and the model id the counts are for.
func TokenCounting(name string, load func() (*Registry, error)) (tokens.ModelEncoding, string) {
	how := tokens.ForModel(name)
	if !how.Guessed {
		return how, name
	}
	reg, err := load()
	if err != nil {
		return how, name
	}
	m, err := reg.Find(name)
	if err != nil {
		return how, name
	}
	q := strings.ToLower(strings.TrimSpace(name))
	for _, s := range []string{m.ID, m.Name, m.Provider + "/" + m.ID} {
		if strings.Contains(strings.ToLower(s), q) {
			return tokens.ForModel(m.ID), m.ID
		}
	}
	return how, name
}
