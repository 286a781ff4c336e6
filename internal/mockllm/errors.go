package mockllm

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// defaultErrorMessage is the message of an HTTP error turn without one.
func defaultErrorMessage(status int) string {
	switch status {
	case http.StatusTooManyRequests:
		return "Rate limit exceeded"
	case 529:
		return "Overloaded"
	case http.StatusUnauthorized:
		return "Invalid API key"
	}
	if t := http.StatusText(status); t != "" {
		return t
	}
	return "HTTP " + strconv.Itoa(status)
}

// writeError answers with the error body the format's real API sends for
// status. retryAfter (seconds) also goes into Gemini's RetryInfo detail.
func writeError(w http.ResponseWriter, format string, status int, msg, retryAfter string) {
	if msg == "" {
		msg = defaultErrorMessage(status)
	}
	if format == FormatBedrock {
		writeBedrockError(w, status, msg)
		return
	}
	var body any
	switch format {
	case FormatAnthropic:
		body = map[string]any{"type": "error", "error": map[string]any{"type": anthropicErrorType(status), "message": msg}}
	case FormatGemini, FormatVertex, FormatCodeAssist:
		e := map[string]any{"code": status, "message": msg, "status": googleStatus(status)}
		if retryAfter != "" {
			e["details"] = []any{map[string]any{
				"@type":      "type.googleapis.com/google.rpc.RetryInfo",
				"retryDelay": retryAfter + "s",
			}}
		}
		body = map[string]any{"error": e}
	default: // both OpenAI formats
		typ, code := openAIErrorType(status)
		body = map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}}
	}
	data, _ := json.Marshal(body)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(data, '\n'))
}

// writeMockError reports a misuse of the mock itself, in the format's error
// shape so that providers surface the message.
func writeMockError(w http.ResponseWriter, format string, status int, msg string) {
	writeError(w, format, status, msg, "")
}

func anthropicErrorType(status int) string {
	switch status {
	case 400:
		return "invalid_request_error"
	case 401:
		return "authentication_error"
	case 403:
		return "permission_error"
	case 404:
		return "not_found_error"
	case 413:
		return "request_too_large"
	case 429:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	return "api_error"
}

func openAIErrorType(status int) (typ string, code any) {
	switch status {
	case 400:
		return "invalid_request_error", nil
	case 401:
		return "invalid_request_error", "invalid_api_key"
	case 404:
		return "invalid_request_error", "model_not_found"
	case 429:
		return "requests", "rate_limit_exceeded"
	}
	return "server_error", nil
}

func googleStatus(status int) string {
	switch status {
	case 400:
		return "INVALID_ARGUMENT"
	case 401:
		return "UNAUTHENTICATED"
	case 403:
		return "PERMISSION_DENIED"
	case 404:
		return "NOT_FOUND"
	case 429:
		return "RESOURCE_EXHAUSTED"
	case 503:
		return "UNAVAILABLE"
	case 504:
		return "DEADLINE_EXCEEDED"
	}
	return "INTERNAL"
}
