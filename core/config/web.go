package config

// Web is the configuration of the tools that reach beyond the machine's
// files: the web search providers, GitHub through gh and the browser.
type Web struct {
	Search  WebSearch // web_search and gopi search
	GitHub  GitHub    // the github tool and issue:// / pr:// reads
	Browser Browser   // the browser tool
}

// Web returns the web tools' configuration, read from the settings and
// the environment.
func (c *Config) Web() Web {
	return Web{Search: c.webSearch(), GitHub: c.gitHub(), Browser: c.browser()}
}
