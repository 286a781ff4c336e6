package acp

import (
	sdk "github.com/coder/acp-go-sdk"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
)

// Configuration option ids.
const (
	configModel    = "model"
	configThinking = "thinking"
)

// modelRef is a model's id in options: provider/id.
func modelRef(m *ai.Model) string { return m.Provider + "/" + m.ID }

// usableModels lists the models that have credentials, the current one
// included.
func (ss *session) usableModels() []*ai.Model {
	reg := ss.sess.Model().Registry()
	cur := ss.sess.Agent().Model()
	var out []*ai.Model
	hasAuth := reg.AuthCheck()
	for _, m := range reg.Models() {
		if m == cur || hasAuth(m) {
			out = append(out, m)
		}
	}
	if cur != nil && !containsModel(out, cur) {
		out = append([]*ai.Model{cur}, out...)
	}
	return out
}

func containsModel(list []*ai.Model, m *ai.Model) bool {
	for _, x := range list {
		if modelRef(x) == modelRef(m) {
			return true
		}
	}
	return false
}

// thinkingLevels lists the levels the model supports, off first.
func thinkingLevels(m *ai.Model) []ai.ThinkingLevel {
	var out []ai.ThinkingLevel
	for _, l := range ai.ThinkingLevels {
		if models.ClampThinking(m, l) == l {
			out = append(out, l)
		}
	}
	return out
}

// configOptions describes the model and thinking-level selectors.
func (ss *session) configOptions() []sdk.SessionConfigOption {
	var out []sdk.SessionConfigOption
	cur := ss.sess.Agent().Model()
	if list := ss.usableModels(); len(list) > 0 && cur != nil {
		opts := make(sdk.SessionConfigSelectOptionsUngrouped, 0, len(list))
		for _, m := range list {
			opts = append(opts, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(modelRef(m)), Name: firstNonEmpty(m.Name, m.ID), Description: sdk.Ptr(modelRef(m))})
		}
		out = append(out, sdk.SessionConfigOption{Select: &sdk.SessionConfigOptionSelect{
			Id: configModel, Name: "Model", Category: sdk.Ptr(sdk.SessionConfigOptionCategoryModel),
			CurrentValue: sdk.SessionConfigValueId(modelRef(cur)),
			Options:      sdk.SessionConfigSelectOptions{Ungrouped: &opts},
		}})
	}
	// The level in effect: the session's, as far as the model supports it.
	level := models.ClampThinking(cur, ss.sess.Agent().Thinking())
	levels := thinkingLevels(cur)
	opts := make(sdk.SessionConfigSelectOptionsUngrouped, 0, len(levels))
	for _, l := range levels {
		opts = append(opts, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(l), Name: string(l)})
	}
	out = append(out, sdk.SessionConfigOption{Select: &sdk.SessionConfigOptionSelect{
		Id: configThinking, Name: "Thinking", Category: sdk.Ptr(sdk.SessionConfigOptionCategoryThoughtLevel),
		CurrentValue: sdk.SessionConfigValueId(level),
		Options:      sdk.SessionConfigSelectOptions{Ungrouped: &opts},
	}})
	return out
}

// modelState is the unstable models field of session answers.
func (ss *session) modelState() *sdk.SessionModelState {
	cur := ss.sess.Agent().Model()
	if cur == nil {
		return nil
	}
	st := &sdk.SessionModelState{CurrentModelId: sdk.ModelId(modelRef(cur)), AvailableModels: []sdk.ModelInfo{}}
	for _, m := range ss.usableModels() {
		st.AvailableModels = append(st.AvailableModels, sdk.ModelInfo{ModelId: sdk.ModelId(modelRef(m)), Name: firstNonEmpty(m.Name, m.ID), Description: sdk.Ptr(modelRef(m))})
	}
	return st
}

// setOption changes the model or the thinking level; the change is
// recorded in the session file.
func (ss *session) setOption(id, value string) error {
	switch id {
	case configModel:
		m, err := ss.sess.Model().Registry().Find(value)
		if err != nil {
			return invalidParams("model %q: %v", value, err)
		}
		if !ss.sess.Model().Registry().HasAuth(m) {
			return invalidParams("model %s has no credentials: set its provider's API key, or pick one of the listed models", modelRef(m))
		}
		if err := ss.sess.Model().Set(m); err != nil {
			return failed(err)
		}
	case configThinking:
		l, ok := ai.ParseThinkingLevel(value)
		if !ok {
			return invalidParams("unknown thinking level %q: use off, minimal, low, medium, high or xhigh", value)
		}
		if err := ss.sess.Model().SetThinking(l); err != nil {
			return failed(err)
		}
	default:
		return invalidParams("unknown configuration option %q: gopi has %q and %q", id, configModel, configThinking)
	}
	return nil
}
