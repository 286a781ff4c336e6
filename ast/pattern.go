package ast

import (
	"fmt"
	"strings"
)

// checkMetavariables rejects `$name` with a lower-case first letter in
// languages where `$` cannot start an identifier: ast-grep would treat it
// as literal code and silently match nothing.
func checkMetavariables(pattern string, lang *Language) error {
	if lang.DollarIdent {
		return nil
	}
	for i := 0; i < len(pattern); i++ {
		if pattern[i] != '$' {
			continue
		}
		j := i
		for j < len(pattern) && pattern[j] == '$' {
			j++
		}
		k := j
		for k < len(pattern) && isMetaChar(pattern[k]) {
			k++
		}
		if k > j && pattern[j] >= 'a' && pattern[j] <= 'z' {
			name := pattern[j:k]
			return fmt.Errorf("invalid metavariable %s%s in %q: metavariable names must be upper case (like %s%s)",
				pattern[i:j], name, pattern, pattern[i:j], strings.ToUpper(name))
		}
		i = k - 1
	}
	return nil
}

func isMetaChar(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
