package mockllm

import (
	"net/http"
	"strconv"
	"strings"
)

// The Google Cloud formats: Gemini's body and chunks behind other paths,
// authentication and (for Code Assist) an envelope.
const (
	// FormatVertex is Gemini on Vertex AI:
	// POST …/v1/projects/P/locations/L/publishers/google/models/M:streamGenerateContent?alt=sse
	// with "Authorization: Bearer", or the express path
	// …/v1/publishers/google/models/M:streamGenerateContent with x-goog-api-key.
	FormatVertex = "google-vertex"
	// FormatCodeAssist is Cloud Code Assist (Gemini CLI, Antigravity):
	// POST …/v1internal:streamGenerateContent?alt=sse with a bearer token
	// and the body {"project","model","request":{…generateContent body…}};
	// every chunk is {"response":{…GenerateContentResponse…},"traceId":…}.
	FormatCodeAssist = "google-gemini-cli"
)

// googleCloudFormat recognises the Google Cloud paths ("" for others).
func googleCloudFormat(path string) string {
	switch {
	case strings.HasSuffix(path, "/v1internal:streamGenerateContent"):
		return FormatCodeAssist
	case strings.Contains(path, "/publishers/google/models/") && strings.HasSuffix(path, ":streamGenerateContent"):
		return FormatVertex
	}
	return ""
}

// isGoogleFormat reports whether format streams Gemini chunks (and so
// needs ?alt=sse and has no "stream" field).
func isGoogleFormat(format string) bool {
	return format == FormatGemini || format == FormatVertex || format == FormatCodeAssist
}

// checkGoogleCloud refuses what the real services refuse before they
// stream: a request without the credentials the path needs (401
// UNAUTHENTICATED) and a Code Assist body outside its envelope (400
// INVALID_ARGUMENT). It returns 0 when the request may be played.
func checkGoogleCloud(format string, r *http.Request, req map[string]any) (int, string) {
	bearer := strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") && len(r.Header.Get("Authorization")) > len("Bearer ")
	switch format {
	case FormatVertex:
		regional := strings.Contains(r.URL.Path, "/projects/") && strings.Contains(r.URL.Path, "/locations/")
		if regional && !bearer {
			return http.StatusUnauthorized, "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential."
		}
		if !regional && !bearer && r.Header.Get("X-Goog-Api-Key") == "" {
			return http.StatusUnauthorized, "API keys are not supported by this API. Expected OAuth2 access token or other authentication credentials that assert a principal."
		}
	case FormatCodeAssist:
		if !bearer {
			return http.StatusUnauthorized, "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential."
		}
		inner, _ := req["request"].(map[string]any)
		if p, _ := req["project"].(string); p == "" || inner == nil || inner["contents"] == nil {
			return http.StatusBadRequest, `Invalid JSON payload: Code Assist expects {"project": …, "model": …, "request": {"contents": …}}`
		}
		if m, _ := req["model"].(string); m == "" {
			return http.StatusBadRequest, `Invalid JSON payload: Code Assist expects a "model"`
		}
	}
	return 0, ""
}

// codeAssistEnvelope wraps one Gemini chunk as Code Assist streams it.
func codeAssistEnvelope(index int) func(chunk map[string]any) any {
	return func(chunk map[string]any) any {
		if _, failed := chunk["error"]; failed {
			return chunk // errors arrive bare, as Google error objects
		}
		return map[string]any{"response": chunk, "traceId": "mocktrace" + strconv.Itoa(index+1)}
	}
}
