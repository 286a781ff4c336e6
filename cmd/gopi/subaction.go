package main

// subAction splits a command's words into its action (the first word, or
// def when there is none) and the action's own words: `gopi config set
// k v` → "set", [k v].
func subAction(words []string, def string) (action string, rest []string) {
	if len(words) == 0 {
		return def, nil
	}
	return words[0], words[1:]
}
