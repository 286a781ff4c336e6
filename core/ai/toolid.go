package ai

// NormalizeToolCallID makes a tool call id fit ^[a-zA-Z0-9_-]{1,64}$, the
// form Anthropic's Messages API and Bedrock's Converse API accept: other
// characters become "_" (ids of other providers may hold "|" or "."), the
// id is cut to 64 bytes, and an empty id becomes "toolu_unknown". The same
// id always maps to the same result, so a call and its result still match.
func NormalizeToolCallID(id string) string {
	b := []byte(id)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	if len(b) > 64 {
		b = b[:64]
	}
	if len(b) == 0 {
		return "toolu_unknown"
	}
	return string(b)
}
