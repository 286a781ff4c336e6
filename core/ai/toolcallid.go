package ai

// CleanToolCallID makes a tool call id fit the ^[a-zA-Z0-9_-]{0,64}$ form
// Anthropic's models require (ids from other providers may hold '|' or be
// longer): every other byte becomes '_' and the id is cut at 64 bytes. An
// empty id stays empty.
func CleanToolCallID(id string) string {
	b := []byte(id)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	if len(b) > 64 {
		b = b[:64]
	}
	return string(b)
}
