package bash

import "github.com/gopi-agent/gopi/core/config"

func ruleOf(pattern, tool, msg string) config.InterceptorRule {
	return config.InterceptorRule{Pattern: pattern, Tool: tool, Message: msg}
}
