package models

import "testing"

// FuzzDiscoveryAnswers feeds the five discovery decoders whatever a local
// server might answer: none may panic, and what they return must be
// usable (non-empty ids, no negative context windows).
func FuzzDiscoveryAnswers(f *testing.F) {
	for _, s := range []string{
		`{"models":[{"name":"qwen3:32b","model":"qwen3:32b"}]}`,
		`{"model_info":{"qwen3.context_length":40960},"capabilities":["thinking","vision"],"parameters":"num_ctx 4096"}`,
		`{"capabilities":{"vision":true,"thinking":true}}`,
		`{"data":[{"id":"m","owned_by":"me","max_model_len":"32768","meta":{"n_ctx_train":131072}}]}`,
		`{"default_generation_settings":{"n_ctx":16384},"n_ctx":1e300,"modalities":{"vision":true}}`,
		`{"models":[{"name":7,"model":null}],"data":[{"id":""}]}`,
		`{"data":[{"id":"q","type":"vlm","max_context_length":32768,"loaded_context_length":"4096"}]}`,
		`[]`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		check := func(l []listedModel) {
			for _, m := range l {
				if m.ID == "" || m.Context < 0 {
					t.Fatalf("unusable model %+v", m)
				}
			}
		}
		if l, err := decodeOllamaTags(body); err == nil {
			check(l)
		}
		var m listedModel
		m.ID = "x"
		if decodeOllamaShow(body, &m) == nil {
			check([]listedModel{m})
		}
		if l, err := decodeOpenAIModels(body); err == nil {
			check(l)
		}
		if info, err := decodeLMStudioModels(body); err == nil {
			for id, x := range info {
				if id == "" || x.Context < 0 {
					t.Fatalf("unusable LM Studio entry %q %+v", id, x)
				}
			}
		}
		if n, _, err := decodeLlamaCppProps(body); err == nil && n < 0 {
			t.Fatalf("negative context %d", n)
		}
	})
}
