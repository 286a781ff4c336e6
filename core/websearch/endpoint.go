package websearch

import (
	"fmt"
	"net/url"
	"strings"
)

// checkEndpoint refuses a configured endpoint (a SearXNG instance, a base
// URL) that requests cannot be sent to, saying how to write it: one
// without a scheme ("127.0.0.1:8888") gets the http:// it lacks
// suggested; setting names where it is configured.
func checkEndpoint(id ID, endpoint, setting string) error {
	u, err := url.Parse(endpoint)
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return nil
	}
	if !strings.Contains(endpoint, "://") {
		return &Error{Provider: id, Message: fmt.Sprintf("%s endpoint %q has no scheme: write it as %q (or https://…) in %s", id.Label(), endpoint, "http://"+endpoint, setting)}
	}
	return &Error{Provider: id, Message: fmt.Sprintf("%s endpoint %q is not an http:// or https:// URL with a host; fix %s", id.Label(), endpoint, setting)}
}
