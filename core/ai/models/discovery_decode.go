package models

import (
	"encoding/json"
	"strconv"
	"strings"
)

// What local servers answer when asked for their models. Only the fields
// discovery uses are decoded; anything else in the answers is ignored, and
// a field of an unexpected type counts as absent.

// listedModel is one model a local server reports.
type listedModel struct {
	ID      string // the id requests name
	Name    string // display name ("" for the id)
	Context int    // context window the server reports, 0 when unknown
	Vision  bool   // accepts images
	Think   bool   // reports a thinking capability
	// PythonServer marks llama-cpp-python (it reports owned_by "me"),
	// which needs content "" beside tool calls.
	PythonServer bool
}

// decodeOllamaTags reads Ollama's GET /api/tags answer:
// {"models": [{"name": "qwen3:32b", "model": "qwen3:32b", …}, …]}.
func decodeOllamaTags(body []byte) ([]listedModel, error) {
	var doc struct {
		Models []struct {
			Name  any `json:"name"`
			Model any `json:"model"`
		} `json:"models"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, err
	}
	var out []listedModel
	for _, e := range doc.Models {
		id, name := str(e.Model), str(e.Name)
		if id == "" {
			id = name
		}
		if id == "" {
			continue
		}
		if name == id {
			name = ""
		}
		out = append(out, listedModel{ID: id, Name: name})
	}
	return out, nil
}

// decodeOllamaShow reads Ollama's POST /api/show answer into m: the
// context length from model_info ("<arch>.context_length"), else from a
// "num_ctx N" line of parameters; vision and thinking from capabilities.
func decodeOllamaShow(body []byte, m *listedModel) error {
	var doc struct {
		ModelInfo    map[string]any `json:"model_info"`
		Parameters   any            `json:"parameters"`
		Capabilities any            `json:"capabilities"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return err
	}
	for k, v := range doc.ModelInfo {
		if k == "context_length" || strings.HasSuffix(k, ".context_length") {
			if n := positive(v); n > 0 {
				m.Context = n
				break
			}
		}
	}
	if m.Context == 0 {
		for _, line := range strings.Split(str(doc.Parameters), "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == "num_ctx" {
				m.Context = positive(f[1])
			}
		}
	}
	switch caps := doc.Capabilities.(type) {
	case []any:
		for _, c := range caps {
			switch strings.ToLower(str(c)) {
			case "vision", "image":
				m.Vision = true
			case "thinking":
				m.Think = true
			}
		}
	case map[string]any:
		m.Vision = caps["vision"] == true || caps["image"] == true
		m.Think = caps["thinking"] == true
	}
	return nil
}

// decodeOpenAIModels reads GET /v1/models as LM Studio, vLLM, llama.cpp's
// llama-server and llama-cpp-python answer it: {"data": [{"id": …}, …]},
// with vLLM's max_model_len, a root-level context_length, or llama.cpp's
// meta.n_ctx_train as the context window.
func decodeOpenAIModels(body []byte) ([]listedModel, error) {
	var doc struct {
		Data []struct {
			ID            any            `json:"id"`
			OwnedBy       any            `json:"owned_by"`
			MaxModelLen   any            `json:"max_model_len"`
			ContextLength any            `json:"context_length"`
			Meta          map[string]any `json:"meta"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, err
	}
	var out []listedModel
	for _, e := range doc.Data {
		id := str(e.ID)
		if id == "" {
			continue
		}
		m := listedModel{ID: id, PythonServer: str(e.OwnedBy) == "me"}
		m.Context = positive(e.MaxModelLen)
		if m.Context == 0 {
			m.Context = positive(e.ContextLength)
		}
		if m.Context == 0 && e.Meta != nil {
			m.Context = positive(e.Meta["n_ctx_train"])
		}
		out = append(out, m)
	}
	return out, nil
}

// lmStudioModel is what LM Studio's own REST API says of a model.
type lmStudioModel struct {
	Context int  // loaded_context_length, else max_context_length
	Vision  bool // type "vlm"
	Embed   bool // type "embeddings": not a chat model
}

// decodeLMStudioModels reads LM Studio's GET /api/v0/models:
// {"data": [{"id": …, "type": "llm"|"vlm"|"embeddings",
// "max_context_length": N, "loaded_context_length": N}, …]}.
func decodeLMStudioModels(body []byte) (map[string]lmStudioModel, error) {
	var doc struct {
		Data []struct {
			ID     any `json:"id"`
			Type   any `json:"type"`
			Max    any `json:"max_context_length"`
			Loaded any `json:"loaded_context_length"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, err
	}
	out := map[string]lmStudioModel{}
	for _, e := range doc.Data {
		id := str(e.ID)
		if id == "" {
			continue
		}
		m := lmStudioModel{Context: positive(e.Loaded), Vision: str(e.Type) == "vlm", Embed: str(e.Type) == "embeddings"}
		if m.Context == 0 {
			m.Context = positive(e.Max)
		}
		out[id] = m
	}
	return out, nil
}

// decodeLlamaCppProps reads llama-server's GET /props: the context the
// server was started with (default_generation_settings.n_ctx, or a
// root-level n_ctx) and whether it accepts images (modalities.vision).
func decodeLlamaCppProps(body []byte) (context int, vision bool, err error) {
	var doc struct {
		Settings   map[string]any `json:"default_generation_settings"`
		NCtx       any            `json:"n_ctx"`
		Modalities map[string]any `json:"modalities"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return 0, false, err
	}
	if doc.Settings != nil {
		context = positive(doc.Settings["n_ctx"])
	}
	if context == 0 {
		context = positive(doc.NCtx)
	}
	return context, doc.Modalities["vision"] == true, nil
}

// str returns v when it is a string, else "".
func str(v any) string {
	s, _ := v.(string)
	return strings.TrimSpace(s)
}

// positive returns v as a positive whole number (a JSON number or a
// numeric string), or 0.
func positive(v any) int {
	var f float64
	switch v := v.(type) {
	case float64:
		f = v
	case string:
		n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return 0
		}
		f = n
	default:
		return 0
	}
	if f < 1 || f > 1<<31 || f != f {
		return 0
	}
	return int(f)
}
