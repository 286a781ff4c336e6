package oauth

// BaseURLProvider is implemented by a Provider whose requests go to a host
// its credentials name rather than the model's default: GitHub Copilot's
// API host comes with its token. The credential store (core/auth) asks for
// it with the credentials it resolved and the registry sends the request
// there.
type BaseURLProvider interface {
	// BaseURL is the API root for requests made with c; "" keeps the
	// model's own.
	BaseURL(c Credentials) string
}
