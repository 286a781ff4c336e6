package agentsession

import "errors"

var errEmptyName = errors.New("Session name cannot be empty")
