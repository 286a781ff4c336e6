package config

// Editor returns the user's editor command: $VISUAL, else $EDITOR; ""
// when neither is set. It may hold arguments ("code -w").
func (c *Config) Editor() string {
	if v := c.Env.Get("VISUAL"); v != "" {
		return v
	}
	return c.Env.Get("EDITOR")
}
