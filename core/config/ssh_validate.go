package config

import (
	"fmt"
	"strings"
	"unicode"
)

// sshFieldProblem says what is wrong with the value of an ssh.json field
// that becomes part of the ssh command line ("host", "username",
// "keyPath"), or "". A host or user name may not start with "-" (ssh would
// read it as an option such as -oProxyCommand=…) nor hold white space or
// control characters; a key path may hold spaces but no control
// characters.
func sshFieldProblem(field, value string) string {
	for _, r := range value {
		if unicode.IsControl(r) {
			return fmt.Sprintf("%s %q contains a control character", field, value)
		}
	}
	if field == "keyPath" {
		return ""
	}
	if strings.HasPrefix(value, "-") {
		return fmt.Sprintf("%s %q starts with \"-\" and would be read by ssh as an option", field, value)
	}
	if strings.IndexFunc(value, unicode.IsSpace) >= 0 {
		return fmt.Sprintf("%s %q contains white space", field, value)
	}
	return ""
}

// sshFieldsProblem is sshFieldProblem for the three fields of an entry:
// the first problem, or "".
func sshFieldsProblem(host, username, keyPath string) string {
	for _, f := range [][2]string{{"host", host}, {"username", username}, {"keyPath", keyPath}} {
		if p := sshFieldProblem(f[0], f[1]); p != "" {
			return p
		}
	}
	return ""
}

// ValidateSSHHostEntry says what is wrong with an entry to be added to
// ssh.json, or nil: its address, user name and key path must be safe to
// put on the ssh command line.
func ValidateSSHHostEntry(e SSHHostEntry) error {
	if p := sshFieldsProblem(e.Host, e.Username, e.KeyPath); p != "" {
		return fmt.Errorf("Invalid %s; give a plain address, user name or path", p)
	}
	return nil
}
