package auth

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestKeyCheck(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		good := r.Header.Get("Authorization") == "Bearer good"
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/v1/models" && good:
			w.Write([]byte(`{"data":[]}`))
		case r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions":
			var body struct {
				Model     string `json:"model"`
				MaxTokens int    `json:"max_tokens"`
			}
			json.NewDecoder(r.Body).Decode(&body)
			if body.Model != "m1" || body.MaxTokens != 1 {
				http.Error(w, "bad request", http.StatusBadRequest)
				return
			}
			if !good {
				w.WriteHeader(http.StatusUnauthorized)
				w.Write([]byte(`{"error":"invalid key ` + strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ") + `"}`))
				return
			}
			w.Write([]byte(`{"choices":[]}`))
		default:
			http.Error(w, "no", http.StatusForbidden)
		}
	}))
	defer srv.Close()
	models := KeyCheck{Label: "Fireworks", ModelsURL: srv.URL + "/v1/models"}
	chat := KeyCheck{Label: "Cerebras", ChatURL: srv.URL + "/v1/", Model: "m1"}
	ctx := context.Background()
	if err := models.Check(ctx, srv.Client(), "good"); err != nil {
		t.Fatal(err)
	}
	if err := chat.Check(ctx, srv.Client(), "good"); err != nil {
		t.Fatal(err)
	}
	err := chat.Check(ctx, srv.Client(), "sk-wrong")
	if err == nil || !strings.HasPrefix(err.Error(), "Cerebras API key validation failed (401)") || strings.Contains(err.Error(), "sk-wrong") {
		t.Fatalf("%v", err)
	}
	if err := models.Check(ctx, srv.Client(), "bad"); err == nil || !strings.Contains(err.Error(), "(403)") {
		t.Fatalf("%v", err)
	}
	if _, ok := KeyCheckFor("cerebras"); !ok {
		t.Fatal("no check for cerebras")
	}
}
