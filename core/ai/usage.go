package ai

// Usage counts the tokens of one response and what they cost.
type Usage struct {
	Input       int  `json:"input"`       // uncached input tokens
	Output      int  `json:"output"`      // output tokens (including reasoning)
	CacheRead   int  `json:"cacheRead"`   // input tokens read from the prompt cache
	CacheWrite  int  `json:"cacheWrite"`  // input tokens written to the prompt cache
	TotalTokens int  `json:"totalTokens"` // input + output + cacheRead + cacheWrite
	Cost        Cost `json:"cost"`        // dollars, from the model's prices
	// Estimated is set when the provider reported no usage and the counts
	// were estimated with o200k_base (see EstimateUsage).
	Estimated bool `json:"estimated,omitempty"`
}

// IsZero reports whether no token count is set (the provider reported no
// usage).
func (u Usage) IsZero() bool {
	return u.Input == 0 && u.Output == 0 && u.CacheRead == 0 && u.CacheWrite == 0
}

// Cost is a usage priced in US dollars.
type Cost struct {
	Input      float64 `json:"input"`      // uncached input
	Output     float64 `json:"output"`     // output
	CacheRead  float64 `json:"cacheRead"`  // cache reads
	CacheWrite float64 `json:"cacheWrite"` // cache writes
	Total      float64 `json:"total"`      // sum of the above
}

// Prices are a model's prices in US dollars per million tokens.
type Prices struct {
	Input      float64 `json:"input" yaml:"input"`           // uncached input
	Output     float64 `json:"output" yaml:"output"`         // output
	CacheRead  float64 `json:"cacheRead" yaml:"cacheRead"`   // cache reads
	CacheWrite float64 `json:"cacheWrite" yaml:"cacheWrite"` // cache writes
}

// ComputeCost fills u.Cost (and u.TotalTokens) from the prices and returns
// the cost.
func ComputeCost(p Prices, u *Usage) Cost {
	const perToken = 1.0 / 1_000_000
	c := Cost{
		Input:      float64(u.Input) * p.Input * perToken,
		Output:     float64(u.Output) * p.Output * perToken,
		CacheRead:  float64(u.CacheRead) * p.CacheRead * perToken,
		CacheWrite: float64(u.CacheWrite) * p.CacheWrite * perToken,
	}
	c.Total = c.Input + c.Output + c.CacheRead + c.CacheWrite
	u.Cost = c
	u.TotalTokens = u.Input + u.Output + u.CacheRead + u.CacheWrite
	return c
}
