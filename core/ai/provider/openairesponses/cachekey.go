package openairesponses

import (
	"hash/fnv"
	"strconv"
	"unicode/utf8"
)

// maxCacheKey is the longest prompt_cache_key the Responses family's
// services take, in characters.
const maxCacheKey = 64

// PromptCacheKey turns a session id into a prompt_cache_key: as is up to
// 64 characters, else "pc_" and a hash of it, so that a long id still
// names one cache. "" stays "" (no key). The ChatGPT backend and Azure use
// it; BuildPayload sends the session id as it is.
func PromptCacheKey(session string) string {
	if utf8.RuneCountInString(session) <= maxCacheKey {
		return session
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(session))
	return "pc_" + strconv.FormatUint(h.Sum64(), 36)
}
